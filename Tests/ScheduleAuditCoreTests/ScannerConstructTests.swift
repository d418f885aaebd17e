import Testing
@testable import ScheduleAuditCore

/// One test per construct the token scan reads apart, each a shape where it once disagreed with
/// swift-syntax's parser on real code (the oracle, `Oracle/`, found them; its README lists them).
@Suite("front end: constructs the scan special-cases")
struct ScannerConstructTests {
    /// The members of the first type declared in `source`.
    static func members(_ source: String) throws -> (SourceFile, [MemberDeclaration]) {
        let file = SourceFile(path: "A.swift", text: source)
        let type = try #require(file.typeDeclarations().first)
        return (file, file.members(open: type.openBrace, close: type.closeBrace))
    }

    @Test(arguments: [
        ("static func == (lhs: T, rhs: T) -> Bool { true }", "==", "==(lhs:rhs:)"),
        ("static func ..<(lower: T, upper: T) -> T { lower }", "..<", "..<(lower:upper:)"),
        ("static func <<T>(lhs: T, rhs: T) -> Bool { true }", "<", "<(lhs:rhs:)"),
        ("prefix static func -(operand: T) -> T { operand }", "-", "-(operand:)"),
    ])
    func operatorFunctionsAreNamedByEveryCharacter(declaration: String, name: String, display: String) throws {
        let (file, members) = try Self.members("struct T {\n    \(declaration)\n}")
        let member = try #require(members.first)
        #expect(file.name(of: member) == name)
        #expect(file.displayName(of: member) == display)
    }

    @Test(arguments: [
        ("init?(_ queue: Q) {}", "init(_:)"),
        ("init!(label: String, count: Int) {}", "init(label:count:)"),
        ("convenience init?(\n        options: O?, handler: (any H)?\n    ) {}", "init(options:handler:)"),
        ("func reader(edit: @escaping (String, String) -> String = { _, text in text }) {}", "reader(edit:)"),
        ("func run(_ body: () -> Void = { let (a, b) = (1, 2); _ = a + b }, times: Int) {}", "run(_:times:)"),
        ("func assertCrash(message: String, @noescape block: () throws -> ()) {}", "assertCrash(message:block:)"),
        ("func call(name: String? = nil, @_inheritActorContext _ operation: @Sendable () -> Void) {}", "call(name:_:)"),
        // A shift in a default value opens no generic arguments; a generic attribute's do not hide a label.
        ("init(size: Int = 1 << 14, handling: Bool = true) {}", "init(size:handling:)"),
        ("init(@ParserBuilder<Input> upstream: () -> Upstream) {}", "init(upstream:)"),
        // `$` continues a name (a macro's generated member).
        ("static func _$embed(_ embed: Int, extract: Int) -> Int { embed }", "_$embed(_:extract:)"),
        // A generic value parameter's `let` is the function's, not a member of its own.
        ("mutating func read<\n        let count: Int,\n        T: FixedWidthInteger\n    >(as: T.Type) -> T? { nil }", "read(as:)"),
    ])
    func functionNamesHaveTheirLabels(declaration: String, display: String) throws {
        let (file, members) = try Self.members("final class C {\n    \(declaration)\n}")
        #expect(members.map { file.displayName(of: $0) } == [display])
    }

    @Test func aSuppressedConformanceKeepsItsTilde() throws {
        let file = SourceFile(path: "A.swift", text: "struct Mutex<Value: ~Copyable>: ~Copyable, Sendable {}")
        let type = try #require(file.typeDeclarations().first)
        #expect(type.inheritedNames(in: file) == ["~Copyable", "Sendable"])
    }

    @Test(arguments: [
        ("private let waiting = LockedValue<UnsafeContinuation<Int, Never>?>(nil)", false),
        ("let box = Box<Int, String>.make(1, \"a\")", false),
        ("var a = 1, b = 2", true),
        ("let ordered = a < b, d = 1", true),
    ])
    func genericArgumentsAfterTheInitialValueBindNothing(declaration: String, several: Bool) throws {
        let (_, members) = try Self.members("final class C {\n    \(declaration)\n}")
        #expect(members.map(\.declaresSeveral) == [several])
    }

    @Test func attributesUnderIfBelongToTheDeclarationAfterThem() throws {
        let (file, members) = try Self.members("""
            final class Store {
                #if DEBUG
                @Confined
                #else
                @available(*, deprecated)
                #endif
                var stock = 0
                #if os(Linux)
                var linux = 0
                #endif
            }
            """)
        #expect(members.map(\.kind) == [.variable, .variable])
        #expect(members.first?.attributes == ["Confined", "available"])
        #expect(members.compactMap { $0.nameToken.map { file.tokens[$0].text } } == ["stock", "linux"])
    }

    @Test(arguments: [
        // A generic annotation's `>` ends the line: postfix, so the next line is a statement of its own.
        ("let result: Result<Value, any Error>\nlet start = 1", 2),
        ("let shown = value!\nprint(shown)", 2),
        ("let total = a +\n    b", 1),
        ("let same = a ==\n    b", 1),
        // A condition over lines with its `{` on a line of its own: one statement.
        ("if let a = b,\n    a > 1\n{\n    print(a)\n}\nprint(b)", 2),
        // A member named like a keyword (`.throw`) ends its line; the keyword itself does not.
        ("decoder.strategy = .throw\nreturn decoder", 2),
        ("guard\n    let a = b\nelse { return }\nprint(a)", 2),
        // An attribute's line, and a local function's `throws` on a line of its own, go on.
        ("@MainActor\nclass Model {}\nprint(1)", 2),
        ("func make(\n    a: Int)\nthrows -> Int { a }\nprint(1)", 2),
        // What follows a multi-line string on its closing line goes on with it.
        ("var input = \"\"\"\n  a\n  \"\"\"[...]\nprint(input)", 2),
        // Generic arguments over lines: a `<` at a line's end goes on, a `>` alone on its line ends.
        ("var sequence:\n    Producer<\n        Int,\n        Strategy\n    >\nprint(1)", 2),
        ("typealias Tokens = Either<\n    A,\n    B\n>\nprint(1)", 2),
        // A directive's line is a statement of its own, even after a bare `return`.
        ("#if arch(arm)\nreturn\n#endif\nlet a = 1", 4),
    ])
    func statementsEndWhereTheParserEndsThem(body: String, count: Int) throws {
        let (file, members) = try Self.members("final class C {\n    func f() {\n\(body)\n    }\n}")
        let braces = try #require(members.first?.body)
        #expect(file.statementStarts(in: (braces.open + 1)..<braces.close).count == count)
    }

    @Test func anImplicitMemberExpressionIsReturnedImplicitly() throws {
        let (file, members) = try Self.members("""
            struct Here {
                func use(of member: String) -> Use {
                    .here(member)
                }
            }
            """)
        let member = try #require(members.first)
        let body = try #require(member.body)
        #expect(file.guardPlacement(of: member) == .firstWithReturn(before: [body.open + 1]))
    }

    @Test func ownershipModifiersStartAMember() throws {
        let (file, members) = try Self.members("""
            struct Box: ~Copyable {
                mutating func merge<S: Sequence>(_ other: __owned S) rethrows where S.Element == Int
                __consuming func merged() -> Box { self }
                borrowing func peek() -> Int { 0 }
                consuming func take() -> Int { 0 }
            }
            """)
        #expect(members.map(\.kind) == [.function, .function, .function, .function])
        #expect(members.map { file.displayName(of: $0) } == ["merge(_:)", "merged()", "peek()", "take()"])
        #expect(members.map { $0.body != nil } == [false, true, true, true])
    }

    @Test func aTypeAttributeOnTheNextLineIsPartOfTheAnnotation() throws {
        let (_, members) = try Self.members("""
            struct Witness {
                var project:
                    @convention(c) (_ value: UnsafeMutableRawPointer) -> Void
                {
                    load()
                }
                var after = 0
            }
            """)
        #expect(members.map(\.kind) == [.variable, .variable])
        #expect(members.map { $0.computedAccessors != nil } == [true, false])
    }

    @Test func aGenericAttributeKeepsItsDeclaration() throws {
        let (_, members) = try Self.members("""
            struct Parsers {
                @ParserBuilder<Input> var body: some Parser<Input, Int> { Int.parser() }
            }
            """)
        #expect(members.map(\.kind) == [.variable])
        #expect(members.first?.attributes == ["ParserBuilder"])
        #expect(members.first?.computedAccessors != nil)
    }

    @Test func aSlashWithAnUnbalancedParenthesisIsNoRegex() throws {
        let (_, members) = try Self.members("""
            final class Results {
                func successes() -> [Int] {
                    Array(results.prefix(while: { /Result.success ~= $0 }).compactMap(/Result.success))
                }
                var after = 0
            }
            """)
        #expect(members.map(\.kind) == [.function, .variable])
    }

    @Test func threeQuotesWithTextAfterThemAreNoMultiLineString() throws {
        let (_, members) = try Self.members(##"""
            struct Cursor {
                func quote() -> Bool { tmp.is(at: #"""#) }
                var after = 0
            }
            """##)
        #expect(members.map(\.kind) == [.function, .variable])
    }

    @Test func anExtensionOfSugarIsAType() throws {
        let file = SourceFile(path: "A.swift", text: "extension [Row] {\n    func first() {}\n}\nextension [String: Int] {}")
        #expect(file.typeDeclarations().map(\.qualifiedName) == ["[Row]", "[String: Int]"])
        let type = try #require(file.typeDeclarations().first)
        #expect(file.members(open: type.openBrace, close: type.closeBrace).count == 1)
    }
}

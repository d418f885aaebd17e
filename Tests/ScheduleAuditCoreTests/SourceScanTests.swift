import Testing
@testable import ScheduleAuditCore

@Suite("Source scan: tokens, bodies, storage, option entries")
struct SourceScanTests {
    @Test func guardNamesInStringsAndCommentsAreNotCode() {
        let source = #"""
        let a = "assertIsolated()" // isIsolated
        /* outer /* nested preconditionIsolated */ still comment */
        let b = #"raw "isIsolated" \(notInterpolated)"#
        let c = "x \(value + "inner)") y"
        let d = """
            isIsolated
            """
        realCall()
        """#
        let identifiers = SwiftTokenizer(source: source).tokens.filter { $0.kind == .identifier }.map(\.text)
        #expect(identifiers == ["let", "a", "let", "b", "let", "c", "let", "d", "realCall"])
        let strings = SwiftTokenizer(source: source).tokens.filter { $0.kind == .string }.map(\.text)
        #expect(strings[0] == "assertIsolated()")
        #expect(strings[1] == #"raw "isIsolated" \(notInterpolated)"#)
    }

    @Test func tokenPositionsAreZeroBasedLinesAndUTF8Columns() {
        let tokens = SwiftTokenizer(source: "let é = 1\n  var `class` = 2").tokens
        let equals = tokens.filter { $0.isPunctuation("=") }
        #expect(equals.map(\.line) == [0, 1])
        #expect(equals[0].column == 7)  // `é` is two UTF-8 bytes
        #expect(tokens.contains { $0.isIdentifier("class") && $0.column == 6 })
    }

    @Test func functionBodySkipsClosureDefaultArguments() throws {
        let file = SourceFile(path: "f", text: """
        func run(_ work: () -> Void = { assertIsolated() }) -> Int {
            return 1
        }
        """)
        let body = try #require(file.functionBody(line: 0, column: 5))
        #expect(file.containsIdentifier(in: body, anyOf: MethodClassification.guardNames) == false)
        #expect(file.tokens[body].map(\.text) == ["return", "1"])
    }

    @Test func functionWithoutBodyHasNone() {
        let file = SourceFile(path: "f", text: "protocol P {\n    func a()\n    func b() { isIsolated }\n}")
        #expect(file.functionBody(line: 1, column: 9) == nil)
    }

    @Test(arguments: [
        ("var a = 1", PropertyStorage.stored),
        ("var a: Int", .stored),
        ("lazy var a: [Int] = []", .stored),
        ("var a: Int = 0 {\n  didSet { }\n}", .stored),
        ("var a: Int {\n  willSet { }\n}", .stored),
        ("var a: (Int) -> Void = { _ in }", .stored),
        ("var a: [String: Int]\nvar b = 2", .stored),
        ("var a: Int { 1 }", .computed),
        ("var a: Int {\n  get { 1 }\n  set { }\n}", .computed),
    ])
    func propertyStorage(declaration: String, expected: PropertyStorage) throws {
        let file = SourceFile(path: "f", text: declaration)
        let name = try #require(file.tokens.first { $0.isIdentifier("a") })
        #expect(file.propertyStorage(line: name.line, column: name.column) == expected)
    }

    /// Where the audit looks for `private` members, which the symbol graph gives no location.
    @Test func propertyNameIsFoundInTheTypesOwnBodyOnly() {
        let file = SourceFile(path: "f", text: """
        final class Uploader<T>: ConfinedObject where T: Sendable {
            final class Nested { var hidden = 0 }
            var observed = 0 { didSet { let inner = 1 } }
            let handler: () -> Void = { var captured = 0 }
            func run() { var local = 0 }
            private var first = 0, second: [String: Int] = [:]
            @Confined(name: "x") fileprivate var wrapped = 0
            private var computed: Int { observed }
        }
        var hidden = 0
        """)
        func position(_ name: String) -> String? {
            file.propertyName(name, inTypeNamedAt: 0, column: 12).map { "\($0.line):\($0.column)" }
        }
        #expect(position("observed") == "2:8")
        #expect(position("handler") == "3:8")
        #expect(position("first") == "5:16")
        #expect(position("second") == "5:27")  // the second binding of one declaration
        #expect(position("wrapped") == "6:41")
        #expect(position("computed") == "7:16")
        // Declared in a nested type, an observer, a closure, a method, or outside the type: not its own.
        for name in ["hidden", "inner", "captured", "local", "Int", "run"] {
            #expect(position(name) == nil, "\(name)")
        }
    }

    @Test func suppressionMarkerCountsOnTheLineAndTheLineAbove() {
        let file = SourceFile(path: "f", text: "// schedule-audit:ignore\nvar a = 1\nvar b = 2 // schedule-audit:ignore\n\nvar c = 3")
        #expect(file.isSuppressed(line: 1))
        #expect(file.isSuppressed(line: 2))
        #expect(!file.isSuppressed(line: 4))
    }

    @Test func optionEntriesAreAttributedToTheirType() {
        let source = #"""
        final class Uploader: ConfinedObject {
            let confinement = Confinement(owner: q, options: .exclude(.method("a()")))
            final class Nested {
                let options = ConfinementOptions<Uploader>.include(.method("b()"))
            }
        }
        extension Outer.Inner {
            static let options: ConfinementOptions<Other> = .exclude(.method("c()"))
                .excluding(.property(\.d))
            static let byKeyPath = ConfinementOptions.include(.property(\Third.e), .method("f()"))
            static let predicate = ConfinementOptions<Fourth>.include(where: { $0.hasPrefix("x") })
            static let inferred = make(.exclude(.method("g()")))
        }
        let unrelated = request.method("GET")
        """#
        let scanner = OptionEntryScanner(file: SourceFile(path: "f", text: source))
        let entries = scanner.entries.map { "\($0.list.rawValue) \($0.typePath ?? "?") \($0.member)" }
        #expect(entries == [
            "exclude Uploader method(\"a()\")",
            "include Uploader method(\"b()\")",
            "exclude Other method(\"c()\")",
            // A chained call belongs to the statement's `ConfinementOptions<Other>`.
            "exclude Other property(\"d\")",
            // An explicit key-path root names the type for the whole call.
            "include Third property(\"e\")",
            "include Third method(\"f()\")",
            // Nothing in the statement names a type: the enclosing extension does.
            "exclude Outer.Inner method(\"g()\")",
        ])
        #expect(scanner.predicates.map(\.typePath) == ["Fourth"])
        #expect(scanner.scopes.map(\.typePath) == ["Uploader", "Uploader.Nested", "Outer.Inner"])
    }

    @Test func closestNameSuggestion() {
        #expect(NameSuggestion.closest(to: "reset", in: ["enqueue(_:)", "reset()"]) == "reset()")
        #expect(NameSuggestion.closest(to: "enqeue(_:)", in: ["enqueue(_:)", "reset()"]) == "enqueue(_:)")
        #expect(NameSuggestion.closest(to: "shutdown()", in: ["enqueue(_:)", "reset()"]) == nil)
    }
}

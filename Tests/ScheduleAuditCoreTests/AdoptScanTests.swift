import Foundation
import Testing
@testable import ScheduleAuditCore

/// `adopt` over the shapes a token scan must get right: every stored-variable form, generic and
/// `where` clauses, attributes, declarations over several lines, braces in comments and strings,
/// nested types, extensions in other files; and the diff it prints.
@Suite("adopt: declarations of every shape")
struct AdoptScanTests {
    @Test func storedVariablesOfEveryShapeAreWrapped() throws {
        let sources = try TemporarySources(["A.swift": """
            import Schedulable
            final class T {
                private(set) var count = 0 { didSet { print("}") } }
                var limit: Int
                var outcome: Result<Int, any Error>?
                @objc public var label: String? = "{"
                nonisolated(unsafe) var loose = 0
                #if DEBUG
                var checks = 0
                #endif
                var handler = { (x: Int) in
                    print(x)
                }
                init() { limit = 1 }
            }
            """])
        #expect(try sources.adopted("T") == """
            import Schedulable
            final class T: ConfinedObject {
                let confinement = Confinement.observed()
                @Confined private(set) var count = 0 { didSet { print("}") } }
                @Confined var limit: Int
                @Confined var outcome: Result<Int, any Error>?
                @objc @Confined public var label: String? = "{"
                @Confined nonisolated(unsafe) var loose = 0
                #if DEBUG
                @Confined var checks = 0
                #endif
                @Confined var handler = { (x: Int) in
                    print(x)
                }
                init() { limit = 1 }
            }
            """)
    }

    @Test func genericsWhereClausesAttributesAndMultilineHeaders() throws {
        let sources = try TemporarySources(["A.swift": """
            import Schedulable
            @available(macOS 13, *)
            public final class Cache<Key: Hashable, Value>:
                Base<Key>,
                @unchecked Sendable
                where Value: Equatable
            {
                var items: [Key: Value] = [:]
                public func value<T>(
                    for key: Key,
                    default make: () -> T = { fatalError("}") }
                ) -> Value? where T: Equatable { items[key] }
                func empty() {}
            }
            """])
        #expect(try sources.adopted("Cache") == """
            import Schedulable
            @available(macOS 13, *)
            public final class Cache<Key: Hashable, Value>:
                Base<Key>,
                @unchecked Sendable, ConfinedObject
                where Value: Equatable
            {
                public let confinement = Confinement.observed()
                @Confined var items: [Key: Value] = [:]
                public func value<T>(
                    for key: Key,
                    default make: () -> T = { fatalError("}") }
                ) -> Value? where T: Equatable { assertIsolated(); return items[key] }
                func empty() { assertIsolated() }
            }
            """.replacingOccurrences(of: "func empty() { assertIsolated() }", with: "func empty() {\n        assertIsolated()\n    }"))
    }

    @Test func genericClassWithoutInheritanceGetsTheClauseAfterItsParameters() throws {
        let sources = try TemporarySources(["A.swift": "import Schedulable\nclass Box<T> where T: Equatable { var value: T?; init() {} }\n"])
        #expect(try sources.adopted("Box") == """
            import Schedulable
            class Box<T>: ConfinedObject where T: Equatable { let confinement = Confinement.observed(); @Confined var value: T?; init() {} }

            """)
    }

    @Test func commentsAndStringsWithBracesAndKeywordsAreNotCode() throws {
        let sources = try TemporarySources(["A.swift": """
            import Schedulable
            // class Decoy { var x = 0 }
            let text = "class T { }"
            /* final class T {} */
            final class T { // { not a brace
                var note = #"raw } "# // }
                let multi = \"""
                    func fake() { }
                    class T {
                    \"""
                func run() { /* } */ }
            }
            """])
        let plan = try sources.plan("T")
        #expect(plan.notes.map(\.message) == [
            "add ConfinedObject to the inheritance clause of 'T'",
            "add 'let confinement = Confinement.observed()' as the first member: owner unknown, observe each instance",
            "wrap stored property 'note' in @Confined",
            "skipped 'multi': a 'let' cannot change, so it needs no check",
            "guard method 'run()' with assertIsolated()",
        ])
        #expect(try sources.adopted("T").contains("    @Confined var note = #\"raw } \"# // }\n"))
        #expect(try sources.adopted("T").contains("    func run() { assertIsolated(); /* } */ }"))
    }

    @Test func nestedTypesAreTheirOwnAndNamedByTheirPath() throws {
        let sources = try TemporarySources([
            "A.swift": """
                import Schedulable
                enum Outer {
                    final class Worker {
                        var jobs = 0
                        struct Job { var id = 0 }
                        func work() { jobs += 1 }
                    }
                }
                """,
            "B.swift": "final class Worker {}\n",
        ])
        // The bare name is the top-level type, as Swift resolves it from outside; the nested one is named
        // by its path.
        #expect(try sources.adopted("Worker", file: "B.swift") == "import Schedulable\n\nfinal class Worker: ConfinedObject {\n    let confinement = Confinement.observed()\n}\n")
        let nestedOnly = try TemporarySources([
            "A.swift": "enum Outer { final class Worker {} }\n", "B.swift": "enum Other { final class Worker {} }\n",
        ])
        let ambiguous = nestedOnly.adopt("Worker")
        #expect(ambiguous.status == 2)
        #expect(ambiguous.standardError.hasPrefix(
            "error: 'Worker' is ambiguous: declared at \(nestedOnly.path("A.swift")):1 ('Outer.Worker'), \(nestedOnly.path("B.swift")):1 ('Other.Worker'); name it with its enclosing type\n"))
        let plan = try sources.plan("Outer.Worker")
        #expect(plan.notes.map(\.message).filter { $0.hasPrefix("wrap") || $0.hasPrefix("guard") } == [
            "wrap stored property 'jobs' in @Confined", "guard method 'work()' with assertIsolated()",
        ])
        #expect(try sources.adopted("Outer.Worker").contains("        struct Job { var id = 0 }\n"))
    }

    @Test func methodsOfExtensionsInOtherFilesAreGuarded() throws {
        let sources = try TemporarySources([
            "A.swift": "import Schedulable\n\nfinal class Store {\n    var rows = 0\n}\n",
            "B.swift": "extension Store {\n    func add() {\n        rows += 1\n    }\n}\n",
        ])
        let result = sources.adopt("Store", "--apply")
        #expect(result.standardOutput.contains("adopt: 'Store': 4 edits in 2 files, 0 left as they are; written\n"))
        #expect(try sources.read("B.swift") == "extension Store {\n    func add() {\n        assertIsolated()\n        rows += 1\n    }\n}\n")
    }

    @Test func theDiffGroupsChangesIntoHunksWithThreeLinesOfContext() {
        let text = (1...12).map { "line \($0)" }.joined(separator: "\n") + "\n"
        let edited = EditedSource(path: "Sources/A.swift", text: text, insertions: [
            SourceInsertion(line: 0, column: 4, text: "!"), SourceInsertion(line: 1, column: 0, text: "new\n"),
            SourceInsertion(line: 11, column: 7, text: "\nlast"),
        ])
        #expect(edited.text == text.replacingOccurrences(of: "line 1\n", with: "line! 1\nnew\n") + "last\n")
        #expect(edited.text.hasSuffix("line 12\nlast\n"))
        #expect(edited.unifiedDiff() == """
            --- a/Sources/A.swift
            +++ b/Sources/A.swift
            @@ -1,4 +1,5 @@
            -line 1
            +line! 1
            +new
             line 2
             line 3
             line 4
            @@ -10,3 +11,4 @@
             line 10
             line 11
             line 12
            +last

            """)
        #expect(EditedSource(path: "A.swift", text: text, insertions: []).unifiedDiff().isEmpty)
    }

    @Test func theImportGoesAfterTheLastImportOrBeforeTheFirstCode() throws {
        let bare = try TemporarySources(["A.swift": "// Header.\n\nclass T {}\n"])
        #expect(try bare.adopted("T") == "// Header.\n\nimport Schedulable\n\nclass T: ConfinedObject {\n    let confinement = Confinement.observed()\n}\n")
        let documented = try TemporarySources(["A.swift": "/// T.\n/* more */\nclass T {}\n"])
        #expect(try documented.adopted("T").hasPrefix("import Schedulable\n\n/// T.\n/* more */\nclass T: ConfinedObject {"))
        let imported = try TemporarySources(["A.swift": "@preconcurrency import Schedulable\nclass T {}\n"])
        #expect(try imported.plan("T").notes.map(\.message) == [
            "add ConfinedObject to the inheritance clause of 'T'",
            "add 'let confinement = Confinement.observed()' as the first member: owner unknown, observe each instance",
        ])
    }

    @Test func otherUsesOfTypeKeywordsAreNotDeclarations() throws {
        let sources = try TemporarySources(["A.swift": """
            import struct Foundation.Date
            func wake(_ actors: [Int]) {
                for actor in actors { print(actor) }
            }
            protocol Sink: class {}
            final class T {
                var n = 0
            }
            """])
        #expect(try sources.plan("T").notes.map(\.message).contains("wrap stored property 'n' in @Confined"))
        let declared = SourceFile(path: "A.swift", text: try sources.read("A.swift")).typeDeclarations()
        #expect(declared.map(\.qualifiedName) == ["Sink", "T"])
    }

    @Test func anImportInsideIfGoesAfterItsEndif() throws {
        let sources = try TemporarySources(["A.swift": "#if canImport(Darwin)\nimport Darwin\n#endif\nclass T {}\n"])
        #expect(try sources.adopted("T").hasPrefix("#if canImport(Darwin)\nimport Darwin\n#endif\nimport Schedulable\nclass T: ConfinedObject {"))
    }

    @Test func sourcesAreEverySwiftFileBelowTheDirectoryButHiddenOnes() throws {
        let sources = try TemporarySources(["B/b.swift": "", "a.swift": "", ".build/x.swift": "", "c.txt": ""])
        #expect(try SwiftSources.load(directories: [sources.root + "/.", sources.root + "/./B"]).map(\.path) == [
            sources.root + "/./B/b.swift", sources.root + "/./a.swift",
        ])
    }

    /// A public or open class's requirement is as visible as the class (else the adopted code does not
    /// compile: GRDB's public classes, Benchmarks/GRDBHarness).
    @Test func aPublicClassGetsAPublicConfinement() throws {
        let sources = try TemporarySources([
            "A.swift": "import Schedulable\npublic final class P {}\nopen class O {}\nfinal class I {}\n",
        ])
        #expect(try sources.adopted("P").contains("public final class P: ConfinedObject {\n    public let confinement = Confinement.observed()\n}\n"))
        #expect(try sources.adopted("O").contains("open class O: ConfinedObject {\n    public let confinement = Confinement.observed()\n}\n"))
        #expect(try sources.adopted("I").contains("final class I: ConfinedObject {\n    let confinement = Confinement.observed()\n}\n"))
    }

    @Test func aDeclaredConfinementIsKept() throws {
        let sources = try TemporarySources(["A.swift": "import Schedulable\nfinal class T {\n    let confinement = Confinement()\n}\n"])
        #expect(try sources.plan("T").notes.map(\.message) == [
            "add ConfinedObject to the inheritance clause of 'T'",
            "'confinement' is declared already: kept as it is (it must be a 'let' of type Confinement)",
        ])
    }

    @Test func aBodyThatReturnedItsExpressionImplicitlyGetsAReturn() throws {
        let sources = try TemporarySources(["A.swift": """
            import Schedulable
            final class T {
                func one() -> Int { 1 }
                func branch(_ x: Bool) -> Int {
                    if x { 1 } else { 2 }
                }
                func mapped() throws(E) -> [Int] { [1].map { $0 } }
                func explicit() -> Int { if true { return 1 }; return 2 }
                func trap() -> Int { fatalError("}") }
                func void() -> Void { print(1) }
                func call(_ f: () -> Int) { _ = f() }
            }
            """])
        #expect(try sources.adopted("T") == """
            import Schedulable
            final class T: ConfinedObject {
                let confinement = Confinement.observed()
                func one() -> Int { assertIsolated(); return 1 }
                func branch(_ x: Bool) -> Int {
                    assertIsolated()
                    return if x { 1 } else { 2 }
                }
                func mapped() throws(E) -> [Int] { assertIsolated(); return [1].map { $0 } }
                func explicit() -> Int { assertIsolated(); if true { return 1 }; return 2 }
                func trap() -> Int { assertIsolated(); fatalError("}") }
                func void() -> Void { assertIsolated(); print(1) }
                func call(_ f: () -> Int) { assertIsolated(); _ = f() }
            }
            """)
    }
}

import Foundation
import Testing
@testable import ScheduleAuditCore

@Suite("adopt: make a class observable without typing")
struct AdoptCommandTests {
    static let queue = """
        import Foundation

        final class UploadQueue {
            var pending: [String] = []
            let name: String

            init(name: String) { self.name = name }

            func enqueue(_ item: String) {
                pending.append(item)
            }
        }
        """

    static let adoptedQueue = """
        import Foundation
        import Schedulable

        final class UploadQueue: ConfinedObject {
            let confinement = Confinement.observed()
            @Confined var pending: [String] = []
            let name: String

            init(name: String) { self.name = name }

            func enqueue(_ item: String) {
                assertIsolated()
                pending.append(item)
            }
        }
        """

    @Test func dryRunPrintsNotesAndDiffAndWritesNothing() throws {
        let sources = try TemporarySources(["A.swift": Self.queue])
        let result = sources.adopt("UploadQueue")
        #expect(result.status == 0)
        #expect(result.standardError.isEmpty)
        let path = sources.path("A.swift")
        #expect(result.standardOutput == """
            \(path):3:7: note: add 'import Schedulable' (the file does not import it)
            \(path):3:13: note: add ConfinedObject to the inheritance clause of 'UploadQueue'
            \(path):3:25: note: add 'let confinement = Confinement.observed()' as the first member: owner unknown, observe each instance
            \(path):4:9: note: wrap stored property 'pending' in @Confined
            \(path):5:9: note: skipped 'name': a 'let' cannot change, so it needs no check
            \(path):9:10: note: guard method 'enqueue(_:)' with assertIsolated()
            adopt: 'UploadQueue': 5 edits in 1 file, 1 left as it is; dry run, pass --apply to write
            --- \(path)
            +++ \(path)
            @@ -1,12 +1,15 @@
             import Foundation
            +import Schedulable
             
            -final class UploadQueue {
            -    var pending: [String] = []
            +final class UploadQueue: ConfinedObject {
            +    let confinement = Confinement.observed()
            +    @Confined var pending: [String] = []
                 let name: String
             
                 init(name: String) { self.name = name }
             
                 func enqueue(_ item: String) {
            +        assertIsolated()
                     pending.append(item)
                 }
             }

            """)
        #expect(try sources.read("A.swift") == Self.queue)
    }

    @Test func applyWritesTheFileAndAdoptingTwiceChangesNothing() throws {
        let sources = try TemporarySources(["A.swift": Self.queue])
        let first = sources.adopt("UploadQueue", "--apply")
        #expect(first.status == 0)
        #expect(first.standardOutput.hasSuffix("adopt: 'UploadQueue': 5 edits in 1 file, 1 left as it is; written\n"))
        #expect(try sources.read("A.swift") == Self.adoptedQueue)
        for flags in [["--apply"], []] {
            let again = AuditCommand.main(arguments: ["adopt", "UploadQueue", "--sources", sources.root] + flags)
            #expect(again.status == 0)
            #expect(again.standardOutput == """
                \(sources.path("A.swift")):4:13: note: 'UploadQueue' already conforms to ConfinedObject (declared on the class); nothing to adopt
                adopt: 'UploadQueue': nothing to change

                """)
            #expect(try sources.read("A.swift") == Self.adoptedQueue)
        }
    }

    @Test(arguments: [
        ("let id = 1", "skipped 'id': a 'let' cannot change"),
        ("static var shared = 0", "skipped 'shared': a static or class property belongs to the type"),
        ("class var shared: Int { 0 }", "skipped 'shared': a static or class property"),
        ("var total: Int { 1 }", "skipped 'total': a computed property has no storage"),
        ("var total: Int {\n    get { 1 }\n    set { }\n}", "skipped 'total': a computed property has no storage"),
        ("lazy var cache = [0]", "skipped 'cache': a lazy property cannot have a property wrapper"),
        ("weak var delegate: AnyObject?", "skipped 'delegate': a weak property cannot have a property wrapper"),
        ("unowned(unsafe) var owner: AnyObject", "skipped 'owner': a unowned(unsafe) property cannot have"),
        ("override var value: Int = 0", "skipped 'value': a property with a wrapper cannot override"),
        ("var a = 0, b = 1", "skipped 'a': one statement declares several variables"),
        ("@Confined var done = false", "skipped 'done': already @Confined"),
        ("@ScheduleProtected var done = false", "skipped 'done': already @Confined"),
        ("@MainActor var title = \"\"", "skipped 'title': isolated to @MainActor, which the compiler checks"),
        ("@NSManaged var title: String", "skipped 'title': @NSManaged cannot be combined with a property wrapper"),
        ("@Published var title = \"\"", "skipped 'title': it has the property wrapper @Published"),
        ("static func make() {}", "skipped 'make()': a static or class method has no instance to check"),
        ("private func helper(at index: Int) {}", "skipped 'helper(at:)': private methods are called by the type's own members"),
        ("fileprivate func helper() {}", "skipped 'helper()': private methods"),
        ("func save() {\n    preconditionIsolated()\n}", "skipped 'save()': already guarded"),
        ("subscript(i: Int) -> Int { i }", "skipped subscript 'subscript(_:)': not guarded"),
    ])
    func eachSkippedMemberIsListedWithWhy(declaration: String, note: String) throws {
        let body = declaration.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n")
        let sources = try TemporarySources(["A.swift": "import Schedulable\nclass Base { var value = 0 }\nclass T: Base {\n\(body)\n}\n"])
        let plan = try sources.plan("T")
        let skipped = plan.notes.filter { $0.message.hasPrefix("skipped") }
        #expect(skipped.count == 1)
        #expect(skipped.first?.message.hasPrefix(note) == true)
        // Only the conformance and the record: nothing else is touched.
        #expect(plan.editCount == 2)
    }

    @Test(arguments: [
        (["A.swift": "import Schedulable\nextension Store: ConfinedObject {}\nfinal class Store { let confinement = Confinement() }\n"],
         "already conforms to ConfinedObject (declared in an extension in "),
        (["A.swift": "import Schedulable\nclass Base: Schedulable.ConfinedObject { let confinement = Confinement() }\nfinal class Store: Base {}\n"],
         "already conforms to ConfinedObject (inherited from 'Base')"),
        (["A.swift": "import Schedulable\nprotocol Owned: ConfinedObject {}\nfinal class Store: NSObject, Owned { let confinement = Confinement() }\n"],
         "already conforms to ConfinedObject (inherited from 'Owned')"),
    ])
    func aClassThatAlreadyConformsIsLeftAlone(files: [String: String], note: String) throws {
        let sources = try TemporarySources(files)
        let result = sources.adopt("Store")
        #expect(result.status == 0)
        #expect(result.standardOutput.contains(note))
        #expect(result.standardOutput.hasSuffix("adopt: 'Store': nothing to change\n"))
    }

    /// The team's one answer for a `@MainActor` class: the compiler's to check, no confinement; what
    /// opts out of its isolation (`nonisolated(unsafe)` stored properties) is named, with the
    /// `SchedulerBound` spelling that checks it.
    @Test func aMainActorClassIsRefusedNamingWhatOptsOutOfItsIsolation() throws {
        let sources = try TemporarySources(["A.swift": """
            @MainActor final class SettingsModel {
                var title = ""
                nonisolated(unsafe) var lastSync = 0
                private(set) nonisolated(unsafe) var retries = 0
                nonisolated(unsafe) static var shared = 0
            }
            @MainActor final class Plain { var title = "" }
            """])
        let result = sources.adopt("SettingsModel")
        #expect(result.status == AuditCommand.exitUsage)
        #expect(result.standardError.hasPrefix("error: 'SettingsModel' is isolated to @MainActor, which the compiler checks (and Swift 6 again at run time); it takes no confinement, and its isolated members could not satisfy ConfinedObject's nonisolated 'confinement'; its nonisolated(unsafe) properties 'lastSync', 'retries' opt out of that check: hold each value in SchedulerBound(<value>, owner: MainThreadScheduler.shared), checked in every build"))
        let plain = sources.adopt("Plain")
        #expect(plain.standardError.hasPrefix("error: 'Plain' is isolated to @MainActor, which the compiler checks (and Swift 6 again at run time); it takes no confinement, and its isolated members could not satisfy ConfinedObject's nonisolated 'confinement'\n"))
        #expect(try sources.read("A.swift").contains("nonisolated(unsafe) var lastSync = 0"), "nothing is edited")
    }

    @Test(arguments: [
        ("struct Point { var x = 0 }", "Point", "error: 'Point' is a struct, not a class: ConfinedObject is a class protocol"),
        ("enum Mode { case a }", "Mode", "error: 'Mode' is an enum, not a class: ConfinedObject is a class protocol"),
        ("actor Bank { var cash = 0 }", "Bank", "error: 'Bank' is an actor, not a class: an actor isolates its state already"),
        ("protocol Sink {}", "Sink", "error: 'Sink' is a protocol, not a class"),
        ("@MainActor\nfinal class Screen {}", "Screen", "error: 'Screen' is isolated to @MainActor, which the compiler checks"),
        ("final class Uploader {}", "Uploder", "error: no class named 'Uploder' in the sources; did you mean 'Uploader'?\n"),
        ("final class Uploader {}", "Missing", "error: no class named 'Missing' in the sources\n"),
        // Adopted after its subclass, the base's record would be overridden by the subclass's stored one.
        ("class Base<T> {}\nfinal class Leaf<T>: Base<T>, ConfinedObject { let confinement = Confinement.observed() }", "Base",
         "error: 'Base' has subclasses that conform to ConfinedObject already: 'Leaf' ("),
    ])
    func typesThatCannotBeAdoptedAreErrors(source: String, name: String, message: String) throws {
        let sources = try TemporarySources(["A.swift": source])
        let result = sources.adopt(name)
        #expect(result.status == 2)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.hasPrefix(message))
        #expect(result.standardError.hasSuffix("Run 'schedule-audit-tool adopt --help' for usage.\n"))
    }

    @Test(arguments: [
        ([], "error: no type to adopt; pass its name: 'adopt <TypeName>'"),
        (["A", "B"], "error: adopt takes one type name; got 'A' and 'B'"),
        (["A", "--sources"], "error: option '--sources' needs a value"),
        (["A", "--strict"], "error: unknown argument '--strict'; accepted: <TypeName>, --sources <dir>, --apply, --help"),
        (["A", "--sources", "/nonexistent/adopt"], "error: source directory '/nonexistent/adopt' does not exist"),
    ])
    func badArgumentsAreExplained(arguments: [String], message: String) {
        let result = AuditCommand.main(arguments: ["adopt"] + arguments)
        #expect(result.status == 2)
        #expect(result.standardError.hasPrefix(message))
    }

    @Test(arguments: ["--help", "-h"])
    func helpPrintsTheUsage(flag: String) {
        let result = AuditCommand.main(arguments: ["adopt", "--sources", flag])
        #expect(result.status == 0)
        #expect(result.standardOutput == AdoptCommand.usage)
        #expect(result.standardOutput.hasPrefix("USAGE: schedule-audit-tool adopt <TypeName>"))
        #expect(AuditCommand.usage.contains("adopt <TypeName>"))
    }

    @Test func theDefaultSourcesDirectoryIsSources() throws {
        #expect(try AdoptCommand.parse(arguments: ["T"]).sourceDirectories == ["Sources"])
        #expect(try AdoptCommand.parse(arguments: ["T", "--sources", "a", "--sources", "b", "--apply"])
            == AdoptCommand(typeName: "T", sourceDirectories: ["a", "b"], apply: true))
    }
}

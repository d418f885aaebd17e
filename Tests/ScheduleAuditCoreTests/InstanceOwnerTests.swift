import Foundation
import Testing
@testable import ScheduleAuditCore

/// An owner that each instance holds in an instance property (a raw queue or a scheduler of its own):
/// `apply` makes the record a `let` without an initial value and assigns it first in each designated
/// initializer, or says why not and edits nothing for it.
@Suite("apply: an owner held in an instance property")
struct InstanceOwnerTests {
    /// An observation file of `ImageCache`: every instance used only on the queue `label` (`kind`).
    static func observation(kind: String = "queue", label: String = "com.app.image-cache", conclusion handOff: Bool = false) -> String {
        let steps = handOff
            ? #"{"context": 1, "member": "store(_:)", "site": {"file": "App/ImageCache.swift", "line": 9}}, {"context": 2, "member": "store(_:)", "site": {"file": "App/Other.swift", "line": 3}}"#
            : #"{"context": 1, "member": "store(_:)", "site": {"file": "App/ImageCache.swift", "line": 9}}"#
        let instance = { (serial: Int) in #"{"serial": \#(serial), "stepsDropped": 0, "steps": [\#(steps)]}"# }
        return """
            {"format": "schedulable-observations", "version": 1, "resolution": "innermost-serial",
             "limits": {"instancesPerType": 64, "stepsPerInstance": 8, "contextsPerMember": 16},
             "contexts": [{"id": 1, "kind": "\(kind)", "label": "\(label)"}, {"id": 2, "kind": "queue", "label": "com.app.other"}],
             "types": [{"type": "ImageCache", "module": "App", "record": {"kind": "observed", "createdAt": {"file": "App/ImageCache.swift", "line": 4}},
                        "members": [], "instanceSteps": [\(instance(1)), \(instance(2))]}]}
            """
    }

    /// `ImageCache.swift` with the record on line 4 and `members` after the queue.
    static func cache(_ members: String, head: String = "final class ImageCache: ConfinedObject {", queue: String = #"private let queue = DispatchQueue(label: "com.app.image-cache")"#) -> String {
        "import Dispatch\nimport Schedulable\n\(head)\n    public let confinement = Confinement.observed()\n    \(queue)\n\(members)}\n"
    }

    static let initializers = """
            @Confined var images: [String: Int] = [:]
            let limit: Int

            init(limit: Int) {
                self.limit = limit
            }

            init() { limit = 10 }

            convenience init(small: Bool) {
                self.init(limit: small ? 1 : 100)
            }

            func store(_ key: String) { queue.async { self.images[key] = 1 } }

        """

    /// Proposes from `observation` over `files`, then applies.
    static func run(_ files: [String: String], observation: String = observation(), write: Bool) throws -> (sources: TemporarySources, apply: String) {
        let sources = try TemporarySources(files.merging(["obs/run.json": observation]) { $1 })
        let proposal = sources.path("proposal.json")
        let proposed = AuditCommand.main(arguments: ["propose", sources.path("obs"), "--output", proposal])
        #expect(proposed.status == 0, "\(proposed.standardError)")
        let applied = AuditCommand.main(arguments: ["apply", proposal, "--sources", sources.path("Sources")] + (write ? ["--apply"] : []))
        #expect(applied.status == 0, "\(applied.standardError)")
        return (sources, applied.standardOutput)
    }

    @Test func eachDesignatedInitializerAssignsTheRecordFirstAndTheDryRunShowsEveryEdit() throws {
        let files = ["Sources/App/ImageCache.swift": Self.cache(Self.initializers)]
        let dry = try Self.run(files, write: false)
        let path = dry.sources.path("Sources/App/ImageCache.swift")
        #expect(dry.apply.contains("\(path):4:30: note: fix-it: declare 'public let confinement: Confinement' without an initial value, assigned in each designated initializer: 'queue' is an instance property of 'ImageCache', which the record's initial value cannot name, set before any initializer's body runs\n"))
        #expect(dry.apply.contains("\(path):9:22: note: fix-it: insert 'self.confinement = Confinement(owner: self.queue)' first in 'init(limit:)'\n"))
        #expect(dry.apply.contains("\(path):13:12: note: fix-it: insert 'self.confinement = Confinement(owner: self.queue)' first in 'init()'\n"))
        #expect(!dry.apply.contains("init(small:)'"), "a convenience initializer delegates to one that assigns it")
        #expect(dry.apply.contains("""
            -    public let confinement = Confinement.observed()
            +    public let confinement: Confinement
            """))
        #expect(dry.apply.contains("""
                 init(limit: Int) {
            +        self.confinement = Confinement(owner: self.queue)
                     self.limit = limit
                 }
             
            -    init() { limit = 10 }
            +    init() { self.confinement = Confinement(owner: self.queue); limit = 10 }
            """))
        #expect(dry.apply.hasSuffix("schedule-audit apply: 3 edits in 1 file (dry run; pass --apply to write them)\n"))
        #expect(try dry.sources.read("Sources/App/ImageCache.swift") == Self.cache(Self.initializers))

        let applied = try Self.run(files, write: true)
        let text = try applied.sources.read("Sources/App/ImageCache.swift")
        #expect(text.components(separatedBy: "self.confinement = Confinement(owner: self.queue)").count == 3)
        #expect(!text.contains("Confinement.observed()"))
    }

    @Test func aClassWithoutAnInitializerGetsTheOneTheCompilerMade() throws {
        let run = try Self.run(["Sources/App/ImageCache.swift": Self.cache("    @Confined var hits = 0\n")], write: true)
        #expect(try run.sources.read("Sources/App/ImageCache.swift") == Self.cache(
            "    @Confined var hits = 0\n", queue: #"private let queue = DispatchQueue(label: "com.app.image-cache")"#
        ).replacingOccurrences(of: "public let confinement = Confinement.observed()\n", with: """
            public let confinement: Confinement
                init() {
                    self.confinement = Confinement(owner: self.queue)
                }

            """))
        #expect(run.apply.contains("note: fix-it: declare 'init()' (the class has none, so the compiler made this one) assigning 'Confinement(owner: self.queue)'\n"))
    }

    @Test func aPossibleSuperclassWithoutAnInitializerIsRefusedAndNothingIsEdited() throws {
        let source = Self.cache("    @Confined var hits = 0\n", head: "final class ImageCache: BaseCache, ConfinedObject {")
        let run = try Self.run(["Sources/App/ImageCache.swift": source], write: true)
        #expect(run.apply.contains("warning: 'queue' is an instance property of 'ImageCache', which the record's initial value cannot name; 'ImageCache' declares no initializer, and 'BaseCache' may be a superclass whose initializers it inherits (declaring one would stop that): write 'self.confinement = Confinement(owner: self.queue)' in its initializers by hand; no edit\n"))
        #expect(try run.sources.read("Sources/App/ImageCache.swift") == source)
        // A protocol the sources declare is no superclass.
        let declared = try Self.run(["Sources/App/ImageCache.swift": source, "Sources/App/BaseCache.swift": "protocol BaseCache: AnyObject {}\n"], write: true)
        #expect(try declared.sources.read("Sources/App/ImageCache.swift").contains("        self.confinement = Confinement(owner: self.queue)\n"))
    }

    @Test func aTransferableRecordAndALibrarySchedulerAreAssignedTheSameWay() throws {
        let scheduler = #"let scheduler = SerialQueueScheduler(label: "com.app.image-cache")"#
        let source = Self.cache("    init() {}\n", queue: scheduler)
        let owned = try Self.run(["Sources/App/ImageCache.swift": source], observation: Self.observation(kind: "scheduler"), write: true)
        #expect(try owned.sources.read("Sources/App/ImageCache.swift").contains("    init() { self.confinement = Confinement(owner: self.scheduler) }\n"))
        let moved = try Self.run(["Sources/App/ImageCache.swift": Self.cache("    init() {\n    }\n")], observation: Self.observation(conclusion: true), write: true)
        let text = try moved.sources.read("Sources/App/ImageCache.swift")
        #expect(text.contains("    public let confinement: Confinement\n"))
        #expect(text.contains("    init() {\n        self.confinement = Confinement.transferable(owner: self.queue)\n    }\n"))
    }

    /// Another class's instance property, or two of the record's class with the label, is not named:
    /// the placeholder stays, as before.
    @Test func anotherClassesPropertyIsStillAPlaceholder() throws {
        let other = "final class Holder {\n    let queue = DispatchQueue(label: \"com.app.image-cache\")\n}\n"
        let source = Self.cache("    init() {}\n", queue: "let unrelated = 1")
        let run = try Self.run(["Sources/App/ImageCache.swift": source, "Sources/App/Holder.swift": other], write: false)
        #expect(run.apply.contains("/* schedule-audit: owner not named: queue 'com.app.image-cache' is a raw dispatch queue: 'queue' ("))
        #expect(!run.apply.contains("self.confinement"))
        let twice = Self.cache("    let second = DispatchQueue(label: \"com.app.image-cache\")\n    init() {}\n")
        #expect(!(try Self.run(["Sources/App/ImageCache.swift": twice], write: false)).apply.contains("self.confinement"))
    }
}

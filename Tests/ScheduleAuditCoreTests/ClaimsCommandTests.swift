import Foundation
import Testing
@testable import ScheduleAuditCore

@Suite("claims: the Swift 6 claims a run can test")
struct ClaimsCommandTests {
    static let sources = """
        import Foundation

        final class Cache: @unchecked Sendable {
            var items: [String: Int] = [:]
            let name = "cache"
        }

        final class Guarded: @unchecked Sendable {
            private let lock = NSLock()
            var items: [Int] = []
        }

        final class Constant: @unchecked Sendable {
            let items = [1]
        }

        final class Later {
            var rows = 0
        }
        extension Later: @unchecked Sendable {}

        struct Point { var x = 0 }

        enum Globals {
            nonisolated(unsafe) static var cache = Cache()
            nonisolated(unsafe) static var origin: Point = Point()
            nonisolated(unsafe) static var count = 0
        }

        func render() {
            MainActor.assumeIsolated { print("main") }
        }
        let kind = Claim.Kind.assumeIsolated  // "nonisolated(unsafe) var x = 0"
        """

    static let contexts = """
        [{"id": 1, "kind": "main", "label": "main thread"},
         {"id": 2, "kind": "scheduler", "label": "com.app.uploads"},
         {"id": 3, "kind": "pool", "label": "com.apple.root.default-qos"},
         {"id": 4, "kind": "task", "label": "task 7"},
         {"id": 5, "kind": "task", "label": "task 8"}]
        """

    /// An observation file with one type whose instances took the given steps (context ids, each
    /// with a site on the line of its position), with the keys the core's writer uses.
    static func observation(type: String, instances: [[Int]], record: String = #"{"kind": "observed", "createdAt": {"file": "App/Cache.swift", "line": 3}}"#) -> String {
        let kept = instances.enumerated().map { serial, contexts in
            let steps = contexts.enumerated().map { index, context in
                #"{"context": \#(context), "member": "items", "site": {"file": "App/Cache.swift", "line": \#(10 + index), "function": "f()", "path": "/src/App/Cache.swift"}}"#
            }
            return #"{"serial": \#(serial + 1), "steps": [\#(steps.joined(separator: ", "))], "stepsDropped": 0}"#
        }
        let used = Set(instances.joined()).sorted().map { #"{"context": \#($0), "site": null}"# }
        return """
            {"format": "schedulable-observations", "version": 1, "future": true,
             "process": {"pid": 1, "executable": "AppTests"},
             "limits": {"instancesPerType": 64, "stepsPerInstance": 8, "contextsPerMember": 16},
             "contexts": \(contexts),
             "types": [{"type": "\(type)", "module": "App", "record": \(record),
                        "instances": {"kept": \(instances.count), "droppedSteps": 0},
                        "members": [{"member": "items", "contexts": [\(used.joined(separator: ", "))], "contextsDropped": 0}],
                        "instanceSteps": [\(kept.joined(separator: ", "))]}]}
            """
    }

    @Test func eachClaimKindIsListedAsACompilerNote() throws {
        let sources = try TemporarySources(["App/Cache.swift": Self.sources])
        let result = AuditCommand.main(arguments: ["claims", "--sources", sources.root])
        #expect(result.status == 0)
        #expect(result.standardError.isEmpty)
        let path = sources.path("App/Cache.swift")
        #expect(result.standardOutput == """
            \(path):3:13: note: claim: class 'Cache' is @unchecked Sendable with mutable stored state ('items') and no lock: its instances are claimed to be used by one context at a time
            \(path):17:13: note: claim: class 'Later' is @unchecked Sendable with mutable stored state ('rows') and no lock: its instances are claimed to be used by one context at a time
            \(path):25:5: note: claim: nonisolated(unsafe) var 'cache' is claimed to be used safely without isolation; it holds an instance of class 'Cache', claimed to be used by one context at a time
            \(path):26:5: note: claim: nonisolated(unsafe) var 'origin' is claimed to be used safely without isolation; it holds a struct 'Point', not a class instance
            \(path):27:5: note: claim: nonisolated(unsafe) var 'count' is claimed to be used safely without isolation; the sources do not declare its type
            \(path):31:15: note: claim: code here is claimed to run isolated to 'MainActor' (assumeIsolated traps when it does not)
            claims: 6 claims (2 @unchecked Sendable, 3 nonisolated(unsafe), 1 assumeIsolated)

            """)
    }

    @Test(arguments: [
        "private let lock = NSLock()", "let lock: NSRecursiveLock", "let state = NIOLockedValueBox(0)",
        "let mutex = Mutex<Int>(0)", "var raw = os_unfair_lock()", "let queue = DispatchQueue(label: \"q\")",
        "let gate = DispatchSemaphore(value: 1)", "private let box = LockedValue(0)",
    ])
    func aLockMemberMeansNoClaim(member: String) throws {
        let sources = try TemporarySources(["A.swift": "final class C: @unchecked Sendable {\n    \(member)\n    var rows = 0\n}\n"])
        #expect(ClaimScan.claims(in: try SwiftSources.load(directories: [sources.root])).isEmpty)
        let unlocked = try TemporarySources(["A.swift": "final class C: @unchecked Sendable {\n    let clock = Clock()\n    var rows = 0\n}\n"])
        #expect(ClaimScan.claims(in: try SwiftSources.load(directories: [unlocked.root])).map(\.kind) == [.uncheckedSendable])
    }

    @Test(arguments: [
        ([[2], [1], [2]], "note: held: 3 instances, each used by one context (main thread, scheduler 'com.app.uploads')"),
        ([[1, 2], [2]], "note: held: hand-offs only over 2 instances, never back to an earlier context: instance #1 handed main thread → scheduler 'com.app.uploads', first at App/Cache.swift:11 (f())"),
        ([[2], [1, 2, 1]], "warning: contradicted: instance #2 returned to main thread at App/Cache.swift:12 (f()) after scheduler 'com.app.uploads' at App/Cache.swift:11 (f()); it was first there at App/Cache.swift:10 (f())"),
        ([[1, 3]], "warning: contradicted: 'items' used from pool thread 'com.apple.root.default-qos' at an unknown site, which is never an owner; also used from main thread at an unknown site"),
        ([[4, 5]], "warning: contradicted: instance #1 used from several tasks: task 7 at App/Cache.swift:10 (f()), then task 8 at App/Cache.swift:11 (f())"),
    ])
    func classClaimsAreMarkedFromTheObservations(instances: [[Int]], marking: String) throws {
        let sources = try TemporarySources([
            "Sources/Cache.swift": "final class Cache: @unchecked Sendable {\n    var items = 0\n}\n",
            "obs/run.json": Self.observation(type: "Cache", instances: instances),
        ])
        let result = AuditCommand.main(arguments: ["claims", "--sources", sources.path("Sources"), "--observations", sources.path("obs")])
        #expect(result.status == 0)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[1].hasPrefix("\(sources.path("Sources/Cache.swift")):1:13: \(marking)"))
        let label = marking.contains("contradicted") ? "0 held, 1 contradicted" : "1 held, 0 contradicted"
        #expect(lines[2] == "claims: 1 claim (1 @unchecked Sendable, 0 nonisolated(unsafe), 0 assumeIsolated); marked from 1 observation file: \(label), 0 unexercised")
    }

    @Test func aDeclaredRecordStartsWithItsOwner() throws {
        // The owner (scheduler 2) comes first; a miss from main, then back to the owner's context.
        let record = #"{"kind": "declared", "owner": 2, "boundAt": {"file": "App/Cache.swift", "line": 3}}"#
        let files = [try decoded(Self.observation(type: "Cache", instances: [[1, 2]], record: record))]
        let marking = ClaimMarking.mark(typeName: "Cache", simpleName: "Cache", in: files)
        #expect(marking.label == "contradicted")
        #expect(marking.evidence.contains("returned to scheduler 'com.app.uploads' at App/Cache.swift:11 (f()) after main thread at App/Cache.swift:10 (f()); it was first there at App/Cache.swift:3"))
    }

    @Test func aClassNotInTheFilesIsUnexercisedAndNonisolatedClaimsFollowTheirClass() throws {
        let sources = try TemporarySources([
            "Sources/A.swift": Self.sources,
            "one.json": Self.observation(type: "Cache", instances: [[2]]),
        ])
        let result = AuditCommand.main(arguments: ["claims", "--sources", sources.path("Sources"), "--observations", sources.path("one.json")])
        let markings = result.standardOutput.split(separator: "\n").filter { !$0.contains("claim") }
        #expect(markings.map { $0.split(separator: " ", maxSplits: 2)[1...].joined(separator: " ") } == [
            "note: held: 1 instance, each used by one context (scheduler 'com.app.uploads')",
            "note: unexercised: 'Later' is not in the observation files; observe it ('adopt Later'), then run the tests",
            "note: held: 1 instance, each used by one context (scheduler 'com.app.uploads')",
        ])
        #expect(result.standardOutput.hasSuffix("marked from 1 observation file: 2 held, 0 contradicted, 1 unexercised\n"))
    }

    private func decoded(_ text: String) throws -> ObservationFile {
        let sources = try TemporarySources(["o.json": text])
        return try ObservationFile.load(path: sources.path("o.json"))
    }

    @Test(arguments: [
        (#"{"format": "other", "version": 1}"#, "is not an observation file: its format is 'other', expected 'schedulable-observations'"),
        (#"{"version": 1}"#, "is not an observation file: its format is missing, expected 'schedulable-observations'"),
        (#"{"format": "schedulable-observations", "version": 2}"#, "has observation format version 2; this tool reads versions up to 1"),
        (#"{"format": "schedulable-observations", "version": 1, "contexts": []}"#, "is malformed: key 'types' is missing at the top level"),
        (#"{"format": "schedulable-observations", "version": 1, "contexts": [{"id": "x"}], "types": []}"#, "is malformed at .contexts[0].id: "),
        ("[1, 2", "is not a JSON object; expected an observation file (format 'schedulable-observations')"),
    ])
    func badObservationFilesAreErrorsNamingTheFile(text: String, message: String) throws {
        let sources = try TemporarySources(["Sources/A.swift": "", "obs/bad.json": text])
        let result = AuditCommand.main(arguments: ["claims", "--sources", sources.path("Sources"), "--observations", sources.path("obs")])
        #expect(result.status == 2)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.hasPrefix("error: '\(sources.path("obs/bad.json"))' \(message)"))
    }

    @Test(arguments: [
        (["--observations", "/nonexistent/obs.json"], "error: no observation file or directory at '/nonexistent/obs.json'"),
        (["--sources"], "error: option '--sources' needs a value"),
        (["--format", "json"], "error: unknown argument '--format'; accepted: --sources <dir>, --observations <file-or-dir>, --help"),
    ])
    func badArgumentsAreExplained(arguments: [String], message: String) {
        let result = AuditCommand.main(arguments: ["claims"] + arguments)
        #expect(result.status == 2)
        #expect(result.standardError.hasPrefix(message))
        #expect(result.standardError.hasSuffix("Run 'schedule-audit-tool claims --help' for usage.\n"))
    }

    @Test func anEmptyObservationDirectoryIsAnError() throws {
        let sources = try TemporarySources(["Sources/A.swift": "", "obs/readme.txt": "x"])
        let result = AuditCommand.main(arguments: ["claims", "--sources", sources.path("Sources"), "--observations", sources.path("obs")])
        #expect(result.standardError.hasPrefix("error: no '*.json' observation files in '\(sources.path("obs"))'"))
    }

    @Test(arguments: ["--help", "-h"])
    func helpPrintsTheUsage(flag: String) {
        let result = AuditCommand.main(arguments: ["claims", flag])
        #expect(result.status == 0)
        #expect(result.standardOutput == ClaimsCommand.usage)
        #expect(result.standardOutput.hasPrefix("USAGE: schedule-audit-tool claims [--sources <dir> …]"))
    }
}

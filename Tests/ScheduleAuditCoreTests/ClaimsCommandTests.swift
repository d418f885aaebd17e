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
    static func observation(
        type: String, instances: [[Int]], record: String = #"{"kind": "observed", "createdAt": {"file": "App/Cache.swift", "line": 3}}"#,
        resolution: String? = Observation.File.innermostSerial
    ) -> String {
        let kept = instances.enumerated().map { serial, contexts in
            let steps = contexts.enumerated().map { index, context in
                #"{"context": \#(context), "member": "items", "site": {"file": "App/Cache.swift", "line": \#(10 + index), "function": "f()", "path": "/src/App/Cache.swift"}}"#
            }
            return #"{"serial": \#(serial + 1), "steps": [\#(steps.joined(separator: ", "))], "stepsDropped": 0}"#
        }
        // Each member context with its first site, as the writer keeps them.
        var firstLine: [Int: Int] = [:]
        for contexts in instances {
            for (index, context) in contexts.enumerated() where firstLine[context] == nil { firstLine[context] = 10 + index }
        }
        let used = firstLine.keys.sorted().map {
            #"{"context": \#($0), "site": {"file": "App/Cache.swift", "line": \#(firstLine[$0]!), "function": "f()"}}"#
        }
        return """
            {"format": "schedulable-observations", "version": 1, "future": true,\(resolution.map { #" "resolution": "\#($0)","# } ?? "")
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

    static let limits = #""limits": {"instancesPerType": 64, "stepsPerInstance": 8, "contextsPerMember": 16}"#

    /// The errors of the one observation reader (`propose`'s); `FILE` stands for the file's path.
    @Test(arguments: [
        (#"{"format": "other", "version": 1}"#, "'FILE' is not a schedulable-observations file: found 'other'"),
        (#"{"version": 1}"#, #"'FILE' is not a schedulable-observations file: found no "format" key"#),
        (#"{"format": "schedulable-observations", "version": 3}"#, "'FILE' is schedulable-observations version 3; this schedule-audit-tool reads up to version 2: update Schedulable"),
        (#"{"format": "schedulable-observations", "version": 1, \#(limits), "contexts": []}"#, "malformed observation file 'FILE': missing key 'types' in the top level"),
        (#"{"format": "schedulable-observations", "version": 1, \#(limits), "contexts": [{"id": "x"}], "types": []}"#, "malformed observation file 'FILE': wrong value at contexts[0].id: "),
        ("[1, 2", "'FILE' is not a schedulable-observations file: not a JSON object ("),
    ])
    func badObservationFilesAreErrorsNamingTheFile(text: String, message: String) throws {
        let sources = try TemporarySources(["Sources/A.swift": "", "obs/bad.json": text])
        let result = AuditCommand.main(arguments: ["claims", "--sources", sources.path("Sources"), "--observations", sources.path("obs")])
        #expect(result.status == 2)
        #expect(result.standardOutput.isEmpty)
        let expected = "error: " + message.replacingOccurrences(of: "FILE", with: sources.path("obs/bad.json"))
        #expect(result.standardError.hasPrefix(expected), "\(result.standardError)")
    }

    @Test(arguments: [
        (["--observations", "/nonexistent/obs.json"], "error: no such file or directory '/nonexistent/obs.json'"),
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
        #expect(result.standardError.hasPrefix("error: no observation files (*.json) in '\(sources.path("obs"))'\n"))
    }

    @Test(arguments: ["--help", "-h"])
    func helpPrintsTheUsage(flag: String) {
        let result = AuditCommand.main(arguments: ["claims", flag])
        #expect(result.status == 0)
        #expect(result.standardOutput == ClaimsCommand.usage)
        #expect(result.standardOutput.hasPrefix("USAGE: schedule-audit-tool claims [--sources <dir> …]"))
    }
}

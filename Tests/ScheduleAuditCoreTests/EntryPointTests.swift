import Foundation
import Testing
@testable import ScheduleAuditCore

/// A method whose guard runs outside the owner while its members run inside (its body hops) is an
/// entry point: `propose` says so and judges without its guard, `apply` removes the guard.
@Suite("propose and apply: entry points")
struct EntryPointTests {
    static let source = """
        import Schedulable
        final class Downloader: ConfinedObject {
            let confinement = Confinement.observed()
            @Confined var received = 0
            func receive(_ n: Int) {
                assertIsolated()
                queue.sync { received += n }
            }
            func total() -> Int { assertIsolated(); return queue.sync { received } }
        }
        """

    /// An observation file of `Downloader`: instances whose steps are `(context id, member, line)`.
    /// A stored member's use (no `(` in its name) is in the hop's closure of the method on its line.
    static func observation(_ instances: [[(Int, String, Int)]]) -> String {
        let kept = instances.enumerated().map { serial, steps in
            let json = steps.map { step in
                let function = step.1.contains("(") ? "Downloader.\(step.1)" : "closure #1 in Downloader.\(step.2 == 7 ? "receive(_:)" : "total()")"
                return #"{"context": \#(step.0), "member": "\#(step.1)", "site": {"file": "App/Downloader.swift", "line": \#(step.2), "function": "\#(function)"}}"#
            }
            return #"{"serial": \#(serial + 1), "steps": [\#(json.joined(separator: ", "))], "stepsDropped": 0}"#
        }
        return """
            {"format": "schedulable-observations", "version": 1, "resolution": "innermost-serial",
             "limits": {"instancesPerType": 64, "stepsPerInstance": 8, "contextsPerMember": 16},
             "contexts": [{"id": 1, "kind": "main", "label": "main thread"}, {"id": 2, "kind": "queue", "label": "dl.a"}],
             "types": [{"type": "Downloader", "module": "App", "record": {"kind": "observed", "createdAt": {"file": "App/Downloader.swift", "line": 3}},
                        "members": [], "instanceSteps": [\(kept.joined(separator: ", "))]}]}
            """
    }

    @Test func aGuardOutsideTheOwnerIsAnEntryPointAndApplyRemovesIt() throws {
        let sources = try TemporarySources([
            "Sources/App/Downloader.swift": Self.source,
            "obs/run.json": Self.observation([[(1, "receive(_:)", 6), (2, "received", 7), (1, "total()", 9), (2, "received", 9)]]),
        ])
        let proposal = sources.path("proposal.json")
        let proposed = AuditCommand.main(arguments: ["propose", sources.path("obs"), "--output", proposal])
        #expect(proposed.status == 0, "\(proposed.standardError)")
        // Judged without the guards: one owner, not a return to the main thread.
        #expect(proposed.standardOutput.contains("App.Downloader  owner"))
        #expect(proposed.standardOutput.contains("entry point 'receive(_:)': its guard runs on main thread at App/Downloader.swift:6 Downloader.receive(_:), outside the contexts its members are used in (its body hops); judged without it, and 'apply' removes that guard"))
        #expect(proposed.standardOutput.contains("entry point 'total()'"))
        let applied = AuditCommand.main(arguments: ["apply", proposal, "--sources", sources.path("Sources"), "--apply"])
        #expect(applied.status == 0, "\(applied.standardError)")
        #expect(applied.standardOutput.contains("Downloader.swift:6:9: note: 'App.Downloader''s 'receive(_:)' is an entry point: its guard runs on main thread, outside the owner, and its body hops onto the owner: fix-it: remove 'assertIsolated()'"))
        let text = try sources.read("Sources/App/Downloader.swift")
        #expect(text.contains("    func receive(_ n: Int) {\n        queue.sync { received += n }\n    }\n"))
        #expect(text.contains("    func total() -> Int { return queue.sync { received } }\n"))
    }

    /// A method used where its members are used is no entry point, even when it also runs elsewhere:
    /// that is a use from the wrong context, judged as before.
    @Test func aMethodUsedWhereItsMembersAreIsNoEntryPoint() throws {
        let main = Observation.Context(kind: .main, label: "main thread")
        let queue = Observation.Context(kind: .queue, label: "dl.a")
        let use = { (context: Observation.Context, member: String) in Observation.Store.Use(context: context, member: member, site: nil) }
        var type = Observation.Store.TypeEntry(type: "Downloader", module: "App", recordKind: "observed", createdAt: .init(file: "App/Downloader.swift", line: 3))
        type.instances = [.init(file: "run.json", serial: 1, steps: [use(queue, "receive(_:)"), use(queue, "received"), use(main, "receive(_:)")], stepsDropped: 0)]
        let entry = Proposer.propose(type)
        #expect(entry.entryPoints == nil)
        // A method run only before the object moved, touching nothing there: no closure of it used the
        // members elsewhere, so it is no entry point (PhotoSync's ImportJob.add(_:) before its hand-off).
        let site = { (function: String) in Observation.Site(file: "App/Job.swift", line: 3, function: function) }
        var job = Observation.Store.TypeEntry(type: "Job", module: "App", recordKind: "observed", createdAt: .init(file: "App/Job.swift", line: 2))
        job.instances = [.init(file: "run.json", serial: 1, steps: [
            Observation.Store.Use(context: main, member: "add(_:)", site: site("Job.add(_:)")),
            Observation.Store.Use(context: queue, member: "items", site: site("Job.send()")),
        ], stepsDropped: 0)]
        #expect(Proposer.propose(job).entryPoints == nil)
        #expect(entry.conclusion == .handOff || entry.conclusion == .owner || entry.conclusion == .notConfinable)
        #expect(entry.conclusion != .owner || !entry.strayMoves.isEmpty)
    }
}

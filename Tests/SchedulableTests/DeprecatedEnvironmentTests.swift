import Dispatch
import Foundation
import Schedulable
import Testing

/// The former `SCHEDULE_PROTECTION…` names still configure the library, and say once, on standard
/// error, that they are deprecated. Each test sets only the old name in a child process (an exit test),
/// so the setting's effect and the notice are those of a fresh process.
@Suite("Deprecated environment names")
struct DeprecatedEnvironmentTests {
    /// How many times `text` occurs in `output`.
    static func occurrences(of text: String, in output: String) -> Int {
        output.components(separatedBy: text).count - 1
    }

    /// `SCHEDULE_PROTECTION=warn-once`: the process goes on after three violations (a debug build's
    /// default would trap), one report for the three, and the notice once.
    @Test(.exitTest, .enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func theFormerPolicyNameStillAppliesAndSaysSoOnce() async {
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            setenv("SCHEDULE_PROTECTION", "warn-once", 1)
            useFromAnotherQueue(ownerLabel: "exit.deprecated.policy", times: 3) { $0.ping() }
            _ = ConfinementSystem.handler               // a second read of the setting prints nothing more
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(Self.occurrences(of: "Counter.ping() used outside its owner\n", in: stderr) == 1)
            #expect(Self.occurrences(
                of: "Schedulable: SCHEDULE_PROTECTION is deprecated; use SCHEDULABLE_CONFINEMENT\n", in: stderr
            ) == 1)
            #expect(!stderr.contains("both are set"))
        }
    }

    /// `SCHEDULE_PROTECTION_JSONL=path`: every delivered violation is appended there, and the notice
    /// names that variable once (the policy is set under its new name, which prints nothing).
    @Test(.exitTest, .enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func theFormerJSONLinesNameStillWritesTheSinkAndSaysSoOnce() async throws {
        // A path of this process's own: two test runs at once (two checkouts) must not share the file.
        let path = NSTemporaryDirectory() + "schedulable-deprecated-sink-\(getpid()).jsonl"
        try? FileManager.default.removeItem(atPath: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) { [path = path as String] in
            setenv("SCHEDULABLE_CONFINEMENT", "warn", 1)
            setenv("SCHEDULE_PROTECTION_JSONL", path, 1)
            useFromAnotherQueue(ownerLabel: "exit.deprecated.sink", times: 2) { $0.ping() }
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(Self.occurrences(
                of: "Schedulable: SCHEDULE_PROTECTION_JSONL is deprecated; use SCHEDULABLE_CONFINEMENT_JSONL\n",
                in: stderr
            ) == 1)
            #expect(Self.occurrences(of: "is deprecated", in: stderr) == 1)
        }
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.contains("\"qualifiedMember\":\"Counter.ping()\"") })
    }

    /// `SCHEDULE_PROTECTION_STACK=3`: the stack depth is 3, read twice, with the notice once.
    @Test(.exitTest) func theFormerStackDepthNameStillAppliesAndSaysSoOnce() async {
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            setenv("SCHEDULE_PROTECTION_STACK", "3", 1)
            guard ConfinementSystem.reportStackDepth == 3, ConfinementSystem.reportStackDepth == 3 else { exit(1) }
        }.map { result in
            #expect(Self.occurrences(
                of: "Schedulable: SCHEDULE_PROTECTION_STACK is deprecated; use SCHEDULABLE_CONFINEMENT_STACK\n",
                in: standardErrorText(result)
            ) == 1)
        }
    }

    /// Both names set to different values: the new one wins (`off`: the violation neither traps nor
    /// prints), and the notice says that the old one is ignored.
    @Test(.exitTest, .enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func whenBothNamesDifferTheNewOneWinsAndTheNoticeSaysSo() async {
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            setenv("SCHEDULABLE_CONFINEMENT", "off", 1)
            setenv("SCHEDULE_PROTECTION", "trap", 1)
            useFromAnotherQueue(ownerLabel: "exit.deprecated.both") { $0.ping() }
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(Self.occurrences(
                of: "Schedulable: SCHEDULE_PROTECTION is deprecated; use SCHEDULABLE_CONFINEMENT "
                    + "(both are set and differ: SCHEDULABLE_CONFINEMENT wins, SCHEDULE_PROTECTION is ignored)\n",
                in: stderr
            ) == 1)
            #expect(!stderr.contains("used outside its owner"))
        }
    }
}

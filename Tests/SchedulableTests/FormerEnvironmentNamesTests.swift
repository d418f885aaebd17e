import Dispatch
import Foundation
import Schedulable
import Testing

/// The `SCHEDULE_PROTECTION…` names of before 0.2 configure nothing, and say once, on standard error,
/// which name to set instead. Each test sets the old name in a child process (an exit test), so the
/// setting's effect and the notice are those of a fresh process.
@Suite("Former environment names")
struct FormerEnvironmentNamesTests {
    /// How many times `text` occurs in `output`.
    static func occurrences(of text: String, in output: String) -> Int {
        output.components(separatedBy: text).count - 1
    }

    /// `SCHEDULE_PROTECTION=off` alone: not applied, so the build's default level reports the violation
    /// (a debug build's traps after its report; an optimized build with the debug tier warns and goes
    /// on); the notice is printed once although the policy is read twice.
    @Test(.exitTest, .enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func theFormerPolicyNameIsNotAppliedAndSaysSoOnce() async {
        #if DEBUG
        let ending = ExitTest.Condition.failure
        #else
        let ending = ExitTest.Condition.success
        #endif
        await #expect(processExitsWith: ending, observing: [\.standardErrorContent]) {
            setenv("SCHEDULE_PROTECTION", "off", 1)
            _ = ConfinementSystem.handler
            useFromAnotherQueue(ownerLabel: "exit.former.policy") { $0.ping() }
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(Self.occurrences(
                of: "Schedulable: SCHEDULE_PROTECTION is no longer read (renamed in 0.2); set SCHEDULABLE_CONFINEMENT\n",
                in: stderr
            ) == 1)
            #expect(stderr.contains("Counter.ping() used outside its owner"))
        }
    }

    /// `SCHEDULE_PROTECTION_JSONL=path`: no file is written there, and the notice names the variable once.
    @Test(.exitTest, .enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func theFormerJSONLinesNameWritesNoSinkAndSaysSoOnce() async throws {
        // A path of this process's own: two test runs at once (two checkouts) must not share the file.
        let path = NSTemporaryDirectory() + "schedulable-former-sink-\(getpid()).jsonl"
        try? FileManager.default.removeItem(atPath: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) { [path = path as String] in
            setenv("SCHEDULABLE_CONFINEMENT", "warn", 1)
            setenv("SCHEDULE_PROTECTION_JSONL", path, 1)
            useFromAnotherQueue(ownerLabel: "exit.former.sink", times: 2) { $0.ping() }
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(Self.occurrences(
                of: "Schedulable: SCHEDULE_PROTECTION_JSONL is no longer read (renamed in 0.2); set SCHEDULABLE_CONFINEMENT_JSONL\n",
                in: stderr
            ) == 1)
            #expect(Self.occurrences(of: "is no longer read", in: stderr) == 1)
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// `SCHEDULE_PROTECTION_STACK=3`: the depth stays the default (8), read twice, with the notice once.
    @Test(.exitTest) func theFormerStackDepthNameIsNotAppliedAndSaysSoOnce() async {
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            setenv("SCHEDULE_PROTECTION_STACK", "3", 1)
            guard ConfinementSystem.reportStackDepth == 8, ConfinementSystem.reportStackDepth == 8 else { exit(1) }
        }.map { result in
            #expect(Self.occurrences(
                of: "Schedulable: SCHEDULE_PROTECTION_STACK is no longer read (renamed in 0.2); set SCHEDULABLE_CONFINEMENT_STACK\n",
                in: standardErrorText(result)
            ) == 1)
        }
    }

    /// Both names set: the current one applies (`off`: the violation neither traps nor prints), and the
    /// former one is still noticed.
    @Test(.exitTest, .enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func withBothNamesTheCurrentOneAppliesAndTheFormerIsNoticed() async {
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            setenv("SCHEDULABLE_CONFINEMENT", "off", 1)
            setenv("SCHEDULE_PROTECTION", "trap", 1)
            useFromAnotherQueue(ownerLabel: "exit.former.both") { $0.ping() }
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(Self.occurrences(of: "Schedulable: SCHEDULE_PROTECTION is no longer read", in: stderr) == 1)
            #expect(!stderr.contains("used outside its owner"))
        }
    }
}

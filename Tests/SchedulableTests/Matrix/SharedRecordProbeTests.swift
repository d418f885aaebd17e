import Schedulable
import Testing

/// Fixed-owner objects made in their owner's work, checked in `schedulable-main-probe shared-records`:
/// a process with no test bridge and no scoped handler, the only kind that takes the creation short path
/// (`ConfinementRecord.fixedInOwnersWork`, `fixedOnMain`) in a release build without the debug tier —
/// this test process always has its bridge installed, so its own objects take the full decision. Each
/// owner kind, ``matrixRepetitions`` times with a new scheduler: two objects share one record exactly
/// when the debug tier is compiled out (CI's `swift test -c release`), and either way each object is
/// isolated in its owner's work and nowhere else.
@Suite("Fixed owners made in their owner's work, outside a test process")
struct SharedRecordProbeTests {
    @Test func sharedExactlyWithoutTheDebugTierAndOwnedByTheirScheduler() throws {
        let outcome = try runMainProbe(["shared-records", "\(matrixRepetitions)"])
        #expect(outcome.exitStatus == 0, "stderr: \(outcome.standardError.suffix(2000))")
        var observed: [String: [String: Int]] = [:]
        for line in outcome.standardError.split(separator: "\n") where line.hasPrefix("shared ") {
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count == 5 else {
                Issue.record("unreadable probe line: \(line)")
                continue
            }
            observed[fields[1], default: [:]][fields[2...].joined(separator: " "), default: 0] += 1
        }
        let shares = ConfinementSystem.debugChecksCompiledIn ? "0" : "1"
        let expected = "\(shares) 1 0"  // shares, isolated in the owner's work, isolated elsewhere
        for owner in ["serialQueue", "threadScheduler", "main"] {
            #expect(observed[owner] == [expected: matrixRepetitions], "\(owner): observed \(observed[owner] ?? [:])")
        }
    }
}

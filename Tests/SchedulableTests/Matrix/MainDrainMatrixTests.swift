import Schedulable
import Testing

/// Main-owned checks in main-queue work drained under `dispatchMain()` by a worker thread, run by
/// `schedulable-main-probe main-drain` (a program whose main thread really is parked there), each cell
/// ``matrixRepetitions`` times with a new object: the main queue's drain lock settles a raw main-queue
/// block's check (and says so: the cell's `proof`), the worker's next block of another queue is refused,
/// and a raw `sync` nested in main's block answers what it answered before the drain-lock test existed.
/// With `SCHEDULABLE_DISABLE_DISPATCH_READER` the test never says yes and every answer is the old one.
@Suite("Main-queue work under dispatchMain(): the drain-lock proof")
struct MainDrainMatrixTests {
    /// One cell's line: the drain-lock test's answer in the block, the query's, the reports.
    private struct Answer: Hashable, CustomStringConvertible {
        var proof: Int
        var yes: Int
        var reports: Int
        var description: String { "proof \(proof), isolated \(yes), reports \(reports)" }
    }

    /// Runs the probe and collects its answers per cell.
    private static func run(environment: [String]) throws -> [String: [Answer: Int]] {
        let outcome = try runMainProbe(["main-drain", "\(matrixRepetitions)"], environment: environment)
        #expect(outcome.exitStatus == 0, "stderr: \(outcome.standardError.suffix(2000))")
        #expect(!outcome.standardError.contains("ThreadSanitizer"))
        var observed: [String: [Answer: Int]] = [:]
        for line in outcome.standardError.split(separator: "\n") where line.hasPrefix("drain ") {
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count == 5, let proof = Int(fields[2]), let yes = Int(fields[3]), let reports = Int(fields[4]) else {
                Issue.record("unreadable probe line: \(line)")
                continue
            }
            observed[fields[1], default: [:]][Answer(proof: proof, yes: yes, reports: reports), default: 0] += 1
        }
        return observed
    }

    /// A refused access: the query says no, and the debug tier (where compiled in) reports once.
    private static let refusedReports = ConfinementSystem.debugChecksCompiledIn ? 1 : 0

    @Test func theDrainLockSettlesMainQueueWorkAndNothingElse() throws {
        let observed = try Self.run(environment: [])
        // Where the reader is confirmed (Linux) the proof answers; elsewhere the old path does.
        let proof = PlatformInternals.dispatchReaderConfirmed ? 1 : 0
        let expected: [String: Answer] = [
            "mainQueueBlock": Answer(proof: proof, yes: 1, reports: 0),
            "poolAfterDrain": Answer(proof: 0, yes: 0, reports: Self.refusedReports),
            // As before: libdispatch's drain lock was already the last word here (`isHeldInDispatch`).
            "rawSyncInMainBlock": Answer(proof: proof, yes: proof, reports: proof == 1 ? 0 : Self.refusedReports),
        ]
        for (cell, answer) in expected {
            #expect(observed[cell] == [answer: matrixRepetitions], "\(cell): expected \(answer), observed \(observed[cell] ?? [:])")
        }
    }

    @Test func withTheReaderSwitchedOffTheOldPathAnswers() throws {
        let observed = try Self.run(environment: ["SCHEDULABLE_DISABLE_DISPATCH_READER=1"])
        let expected: [String: Answer] = [
            // The queue-specific read still finds main's context.
            "mainQueueBlock": Answer(proof: 0, yes: 1, reports: 0),
            "poolAfterDrain": Answer(proof: 0, yes: 0, reports: Self.refusedReports),
            // Nothing but the drain lock shows main's queue under the raw `sync` (ThreadingModel.md's
            // footnote on platforms without the reader).
            "rawSyncInMainBlock": Answer(proof: 0, yes: 0, reports: Self.refusedReports),
        ]
        for (cell, answer) in expected {
            #expect(observed[cell] == [answer: matrixRepetitions], "\(cell): expected \(answer), observed \(observed[cell] ?? [:])")
        }
    }
}

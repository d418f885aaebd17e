// The probe's "main-drain <repetitions>" mode: main-owned objects checked from work that reaches the
// main queue through raw libdispatch while the main thread is parked in dispatchMain() — the queue is
// drained by a worker thread, whose check misses the fast path and is settled by the main queue's drain
// lock (`csched_runs_main_queue_work`). One line per repetition on standard error, judged by
// MainQueueDrainTests:
//
//     drain <cell> <proof> <queries that said yes> <reports>
//
// `proof` is what the drain-lock test answers in the cell's block (1 yes, 0 no): in the raw main-queue
// block it is the path the check took. Cells: `mainQueueBlock` (DispatchQueue.main.async), `poolAfterDrain`
// (a block of another queue run next on the very worker that just drained main's block: must be
// refused), `rawSyncInMainBlock` (a raw `DispatchQueue.sync` nested in main's block).

import CSchedulableContext
import Dispatch
import Foundation
import Schedulable

/// What one block saw.
private struct DrainObservation: Sendable {
    var thread: UInt64
    var proof: Bool
    var isolated: Bool
}

private func drainLine(_ cell: String, _ seen: DrainObservation, reports: Int) {
    StandardError.write("drain \(cell) \(seen.proof ? 1 : 0) \(seen.isolated ? 1 : 0) \(reports)\n")
}

/// The drain-lock test in this block (`csched_runs_main_queue_work`), checked against the inline test
/// the checks' slow-path entry asks (`csched_runs_main_queue_work_settled`, settled by the first call):
/// the process exits with status 31 if they ever disagree.
private func drainProof() -> Bool {
    let proof = csched_runs_main_queue_work()
    if csched_runs_main_queue_work_settled() != proof { exit(31) }
    return proof
}

/// Runs `body` as one block of `queue` and waits for its answer (call from a thread that is not
/// `queue`'s).
private func observe(on queue: DispatchQueue, _ body: @escaping @Sendable () -> DrainObservation) -> DrainObservation {
    let result = LockedValue<DrainObservation?>(nil)
    let done = DispatchSemaphore(value: 0)
    queue.async {
        result.withLock { $0 = body() }
        done.signal()
    }
    done.wait()
    return result.withLock { $0! }
}

/// Runs blocks of new serial queues until one runs on `worker`, holding each other worker they land on
/// until then, and returns what that block saw; `nil` if none did within 1,024 blocks (`worker` has
/// exited: libdispatch ends a worker idle for 5 s).
private func observeNextBlock(onWorker worker: UInt64, of subject: ProbeSubject) -> DrainObservation? {
    let landed = LockedValue<DrainObservation?>(nil)
    let started = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    var held = 0
    defer { for _ in 0..<held { release.signal() } }
    for index in 0..<1024 {
        DispatchQueue(label: "probe.drain.other.\(index)").async {
            let thread = csched_os_thread_id()
            guard thread == worker else {
                started.signal()
                release.wait()
                return
            }
            landed.withLock { $0 = DrainObservation(thread: thread, proof: drainProof(), isolated: subject.access()) }
            started.signal()
        }
        started.wait()
        if let seen = landed.withLock({ $0 }) { return seen }
        held += 1
    }
    return nil
}

/// A new settled object owned by the main thread, with its recorder.
private func mainOwnedSubject() -> (ProbeSubject, ProbeRecorder) {
    let recorder = ProbeRecorder()
    let subject = withConfinementViolationHandler(recorder) {
        ProbeSubject(Confinement(owner: MainThreadScheduler.shared))
    }
    subject.confinement.endConstruction()
    return (subject, recorder)
}

/// Schedules the cells from a plain thread, parks the main thread in dispatchMain(), and exits when done
/// (status 30: no other queue's block landed on the worker that drained main's block; 31: the inline
/// drain-lock test disagreed with the full one).
func runMainDrainCells(repetitions: Int) -> Never {
    let driver = Thread {
        for _ in 0..<repetitions {
            let (subject, recorder) = mainOwnedSubject()
            let seen = observe(on: .main) {
                DrainObservation(thread: csched_os_thread_id(), proof: drainProof(), isolated: subject.access())
            }
            drainLine("mainQueueBlock", seen, reports: recorder.count)

            let (poolSubject, poolRecorder) = mainOwnedSubject()

            // The worker that drained main's block runs another queue's block next. Which idle worker
            // takes a block is libdispatch's choice, so each block that lands elsewhere keeps its worker
            // until one lands on `worker`: every new block then goes to another idle worker (or a new
            // thread), and once the others are held, to `worker`. Serial queues, because main's queue
            // drains on the default-QoS overcommit root queue's threads, as theirs do (a global queue's
            // blocks run on the non-overcommit root queue's threads; the old loop, which alternated
            // the two and gave up after 2,000 blocks, failed once under load).
            let landed = observeNextBlock(onWorker: seen.thread, of: poolSubject)
            guard let landed else { exit(30) }
            drainLine("poolAfterDrain", landed, reports: poolRecorder.count)

            let (nestedSubject, nestedRecorder) = mainOwnedSubject()
            let raw = DispatchQueue(label: "probe.drain.raw")
            let nested = observe(on: .main) {
                raw.sync {
                    DrainObservation(thread: csched_os_thread_id(), proof: drainProof(), isolated: nestedSubject.access())
                }
            }
            drainLine("rawSyncInMainBlock", nested, reports: nestedRecorder.count)
        }
        exit(0)
    }
    driver.start()
    dispatchMain()
}

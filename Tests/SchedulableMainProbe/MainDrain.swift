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
/// (status 30: a pool block never landed on the worker that drained main's block; 31: the inline
/// drain-lock test disagreed with the full one).
func runMainDrainCells(repetitions: Int) -> Never {
    let driver = Thread {
        for _ in 0..<repetitions {
            let (subject, recorder) = mainOwnedSubject()
            let seen = observe(on: .main) {
                DrainObservation(thread: csched_os_thread_id(), proof: drainProof(), isolated: subject.access())
            }
            drainLine("mainQueueBlock", seen, reports: recorder.count)

            // The worker that drained main's block runs another queue's block next: keep submitting
            // until one lands on it (a global queue's and a plain serial queue's blocks alternately).
            let worker = seen.thread
            let (poolSubject, poolRecorder) = mainOwnedSubject()
            let other = DispatchQueue(label: "probe.drain.other")
            var landed: DrainObservation?
            for attempt in 0..<2000 where landed == nil {
                let queue = attempt.isMultiple(of: 2) ? DispatchQueue.global() : other
                let next = observe(on: queue) {
                    let thread = csched_os_thread_id()
                    guard thread == worker else { return DrainObservation(thread: thread, proof: false, isolated: false) }
                    return DrainObservation(thread: thread, proof: drainProof(), isolated: poolSubject.access())
                }
                if next.thread == worker { landed = next }
            }
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

// The probe's "shared-records <repetitions>" mode: fixed-owner objects made in their owner's work, in a
// process with no test bridge and no scoped handler. Only such a process takes the short path of
// `ConfinementRecord.fixedInOwnersWork` / `fixedOnMain` in a release build without the debug tier (a
// test process always has its bridge installed, so unit tests take the full decision). One line per
// owner kind and repetition on standard error, judged by SharedRecordProbeTests:
//
//     shared <owner> <two objects share a record> <isolated in the owner's work> <isolated elsewhere>
//
// Each repetition makes a new scheduler, so the first object of a scheduler fills its shared record
// (the full decision) and the second takes the short path.

import Dispatch
import Foundation
import Schedulable

private func sharedLine(_ owner: String, _ first: ProbeSubject, _ second: ProbeSubject, onOwner: Bool, elsewhere: Bool) {
    let shares = first.confinement.refersToSameRecord(as: second.confinement)
    StandardError.write("shared \(owner) \(shares ? 1 : 0) \(onOwner ? 1 : 0) \(elsewhere ? 1 : 0)\n")
}

/// Whether `body` answers yes on a new plain thread (neither main nor any scheduler's).
private func onPlainThread(_ body: @escaping @Sendable () -> Bool) -> Bool {
    let answer = LockedValue(false)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        answer.withLock { $0 = body() }
        done.signal()
    }
    thread.start()
    done.wait()
    return answer.withLock { $0 }
}

/// Runs the cells on the main thread (call it from top-level code) and exits.
func runSharedRecordCells(repetitions: Int) -> Never {
    for index in 0..<repetitions {
        let queue = SerialQueueScheduler(label: "probe.shared.queue.\(index)")
        let (a, b) = queue.sync { (ProbeSubject(Confinement(owner: queue)), ProbeSubject(Confinement(owner: queue))) }
        sharedLine(
            "serialQueue", a, b,
            onOwner: queue.sync { a.confinement.isIsolated && b.confinement.isIsolated },
            elsewhere: a.confinement.isIsolated || b.confinement.isIsolated
        )

        let thread = ThreadScheduler(label: "probe.shared.thread.\(index)")
        let (c, d) = thread.sync { (ProbeSubject(Confinement(owner: thread)), ProbeSubject(Confinement(owner: thread))) }
        sharedLine(
            "threadScheduler", c, d,
            onOwner: thread.sync { c.confinement.isIsolated && d.confinement.isIsolated },
            elsewhere: c.confinement.isIsolated || d.confinement.isIsolated
        )
        thread.shutdown()

        // On the main thread: `Confinement()` and `Confinement(owner: MainThreadScheduler.shared)`.
        let e = ProbeSubject(Confinement())
        let f = ProbeSubject(Confinement(owner: MainThreadScheduler.shared))
        sharedLine(
            "main", e, f,
            onOwner: e.confinement.isIsolated && f.confinement.isIsolated,
            elsewhere: onPlainThread { e.confinement.isIsolated || f.confinement.isIsolated }
        )
    }
    exit(0)
}

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
@_spi(Benchmarks) import Schedulable

/// Makes two objects with `make` (in their owner's work) and writes their line; `onOwner` answers in
/// the owner's work, `elsewhere` on the calling thread unless given.
private func sharedLine(
    _ owner: String,
    make: () -> (ProbeSubject, ProbeSubject),
    onOwner: (@escaping @Sendable () -> Bool) -> Bool,
    elsewhere: ((@escaping @Sendable () -> Bool) -> Bool)? = nil
) {
    let (first, second) = make()
    let isolated: @Sendable () -> Bool = { first.confinement.isIsolated && second.confinement.isIsolated }
    let isolatedEither: @Sendable () -> Bool = { first.confinement.isIsolated || second.confinement.isIsolated }
    let shares = first.confinement._recordObject === second.confinement._recordObject
    let there = onOwner(isolated)
    let here = elsewhere.map { $0(isolatedEither) } ?? isolatedEither()
    StandardError.write("shared \(owner) \(shares ? 1 : 0) \(there ? 1 : 0) \(here ? 1 : 0)\n")
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
        sharedLine(
            "serialQueue",
            make: { queue.sync { (ProbeSubject(Confinement(owner: queue)), ProbeSubject(Confinement(owner: queue))) } },
            onOwner: { queue.sync($0) }
        )

        let thread = ThreadScheduler(label: "probe.shared.thread.\(index)")
        sharedLine(
            "threadScheduler",
            make: { thread.sync { (ProbeSubject(Confinement(owner: thread)), ProbeSubject(Confinement(owner: thread))) } },
            onOwner: { thread.sync($0) }
        )
        thread.shutdown()

        // On the main thread: `Confinement()` and `Confinement(owner: MainThreadScheduler.shared)`.
        sharedLine(
            "main",
            make: { (ProbeSubject(Confinement()), ProbeSubject(Confinement(owner: MainThreadScheduler.shared))) },
            onOwner: { $0() },
            elsewhere: onPlainThread
        )
    }
    exit(0)
}

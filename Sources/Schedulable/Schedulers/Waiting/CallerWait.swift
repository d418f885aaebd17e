import CSchedulableContext

/// How a caller waits for work that another scheduler finishes — the one waiting mechanism behind
/// ``ThreadScheduler/sync(file:line:function:_:)`` and ``ScheduledFuture/present(file:line:)``.
///
/// - A thread scheduler's own event keeps its loop turning while it waits (events queued to it meanwhile
///   still run, one at a time and in order, nested in the wait), so work it waits for may call back into
///   it synchronously: the POS Assembly cycle completes instead of deadlocking. Its chain is *not*
///   lent: it keeps doing other work, so its objects must not pass checks elsewhere.
/// - Any other caller truly blocks, so its context chain is lent to the work it waits for (see
///   ``ExecutionContext/run(onBehalfOf:_:)``): exclusion holds, the caller can do nothing meanwhile.
enum CallerWait {
    /// Starts something with `start` and returns once it has called `wake`.
    ///
    /// While it waits, the caller lends its QoS to `target`'s thread when that is higher (Darwin:
    /// `pthread_override_qos_class_start_np`), so a user-interactive caller does not wait at a utility
    /// thread's pace — what libdispatch does for `DispatchQueue.sync`. Linux has no QoS to lend: the
    /// thread keeps its own nice value while the caller waits.
    ///
    /// - Parameter target: The thread scheduler loop that runs the work, when there is one.
    /// - Parameter start: Sets the work off. It receives the blocked caller's token — `nil` when the
    ///   caller pumps its loop instead of blocking, and then nothing may run on its behalf — and the
    ///   closure to call (once, from any thread) when the work is done. The token is valid until
    ///   `wake` is called, never after: work must stop using it before it wakes the caller.
    static func wait(
        lendingQoSTo target: ThreadSchedulerLoop? = nil,
        _ start: (_ blockedCaller: BlockedCallerToken?, _ wake: @escaping @Sendable () -> Void) -> Void
    ) {
        // Not into a loop that was shut down: its thread may be gone, and with it the handle.
        let qosOverride = target.flatMap { $0.isShutDown ? nil : csched_qos_override_start(uintptr_t($0.threadHandle)) }
        defer { csched_qos_override_end(qosOverride) }
        if let callerLoop = ThreadSchedulerLoop.current, case .frame(let innermost, _) = CurrentExecution.innermost,
            innermost.id == callerLoop.context.id
        {
            // The caller is the loop's own event, as the resolver sees it (not code that pushed some
            // other context on top, nor a raw `queue.sync {}` inside it, whose queue the loop's other
            // events must not run in): keep the loop turning.
            let completion = Completion()
            start(nil) { completion.complete(waking: callerLoop) }
            callerLoop.pump(until: completion)
        } else {
            BlockedCallerToken.withCurrent { caller in
                let completion = Completion()
                start(caller) { completion.complete() }
                completion.wait()
            }
        }
    }
}

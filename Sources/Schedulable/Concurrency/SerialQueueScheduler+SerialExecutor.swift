import CSchedulableContext

/// A queue scheduler can run an actor: return its executor from the actor's `unownedExecutor`.
///
/// The actor's jobs run as blocks on the scheduler's queue, so a tree's actor and the tree's protected
/// objects (and those of its branches' work, which drains through the tree) see each other as "on the
/// owner". `assumeIsolated` and `preconditionIsolated` work on Linux: they answer from the library's
/// context token and fall back to `dispatchPrecondition` when the token cannot tell.
///
/// Needs macOS 14, iOS 17, tvOS 17, watchOS 10 (or visionOS 1): `ExecutorJob`, the job type executors
/// receive, arrived there; `checkIsolated()` needs the releases of 2024 (macOS 15, iOS 18).
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
extension SerialQueueScheduler: SerialExecutor {
    /// Runs `job` on the queue.
    ///
    /// - Parameter job: The job to run.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        let context = executionContext
        csched_note_publication()   // a hand-off: it ends this thread's construction windows
        queue.async { context.run { job.runSynchronously(on: executor) } }
    }

    /// The executor reference an actor returns from `unownedExecutor`.
    ///
    /// - Returns: This scheduler as an unowned serial executor.
    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Returns when the calling code runs on this queue (or on a queue that targets it, or inside a
    /// synchronous call made from it); otherwise reports the failure, printed in full, and stops the
    /// process.
    ///
    /// It is decided like every other check: libdispatch's drain lock counts where it can be read; where
    /// it cannot, and the calling code may run inside dispatch work the library cannot account for (a raw
    /// `sync`), `dispatchPrecondition(condition: .onQueue(queue))`, which knows every case, has the last
    /// word — with the report armed to print first, since a failure there stops the process silently
    /// on Linux.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    public func checkIsolated() {
        checkExecutorIsolation(executionContext, member: "checkIsolated()")
    }

    /// `true` when the library's token shows the calling code on this queue; `nil` otherwise, because
    /// work can reach a queue in ways the token cannot see (the runtime then asks ``checkIsolated()``).
    ///
    /// - Returns: `true` or `nil`, never a false "no".
    @available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *)
    public func isIsolatingCurrentContext() -> Bool? {
        isIsolated ? true : nil
    }
}

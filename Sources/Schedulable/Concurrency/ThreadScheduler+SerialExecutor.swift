/// A thread scheduler can run an actor: return its executor from the actor's `unownedExecutor`.
///
/// ```swift
/// actor Inbox {
///     let scheduler: ThreadScheduler
///     nonisolated var unownedExecutor: UnownedSerialExecutor { scheduler.asUnownedSerialExecutor() }
/// }
/// ```
///
/// The actor's jobs then run as the scheduler's events, interleaved in FIFO order with its other work,
/// so the actor's code and the scheduler's protected objects see each other as "on the owner". The
/// isolation checks answer from the library's context token, so `assumeIsolated` and
/// `preconditionIsolated` work on Linux too — both inside the actor's jobs and in plain events of the
/// scheduler. The actor must keep the scheduler alive (store it), and the scheduler must not be shut
/// down while the actor can still receive calls: a job it rejects is reported, not dropped.
///
/// Needs macOS 14, iOS 17, tvOS 17, watchOS 10 (or visionOS 1): `ExecutorJob`, the job type executors
/// receive, arrived there; `checkIsolated()` needs the releases of 2024 (macOS 15, iOS 18).
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
extension ThreadScheduler: SerialExecutor {
    /// Runs `job` as one of the scheduler's events.
    ///
    /// - Parameter job: The job to run.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        schedule { job.runSynchronously(on: executor) }
    }

    /// The executor reference an actor returns from `unownedExecutor`.
    ///
    /// - Returns: This scheduler as an unowned serial executor.
    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Returns when the calling code runs on this scheduler; otherwise reports a
    /// ``ConfinementViolation/Kind/wrongContext`` violation and stops the process (the report is printed
    /// first — on Linux the runtime's own failure message says nothing about where the code ran).
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    public func checkIsolated() {
        checkExecutorIsolation(executionContext, member: "checkIsolated()")
    }

    /// Whether the calling code runs on this scheduler: exact for a thread scheduler, whose work only
    /// ever runs on its own thread inside its context (or on behalf of it while it is blocked).
    ///
    /// - Returns: `true` on this scheduler, `false` elsewhere.
    @available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *)
    public func isIsolatingCurrentContext() -> Bool? {
        isIsolated
    }
}

/// An executor's `checkIsolated()`: the verdict on `context` as a fixed owner; a refusal is reported
/// as an isolation failure, and the process stops.
func checkExecutorIsolation(_ context: ExecutionContext, member: String) {
    context.checkUse(.accessor("checkIsolated()")) { owner in
        PendingReport(.isolationFailure(owner, member: member), objectHandler: nil)
    }
}

import Dispatch

/// Work that a scheduler runs later — at a deadline, or every interval — until it runs or is cancelled.
///
/// The handle comes from ``SerialScheduler/schedule(after:file:line:_:)``,
/// ``SerialScheduler/schedule(at:file:line:_:)``, ``SerialScheduler/scheduleRepeating(every:file:line:_:)``
/// and their `try` forms. The work runs as an event of its scheduler, inside the scheduler's
/// ``ExecutionContext``, exactly like work given to ``SerialScheduler/trySchedule(_:)``: objects the
/// scheduler owns pass their checks in it.
///
/// ```swift
/// let timeout = uploads.schedule(after: .seconds(30)) { connection.abort() }
/// …
/// timeout.cancel()                      // the reply came first: the abort never runs
/// ```
///
/// Each run starts only after an atomic test that the handle is not cancelled, so ``cancel()`` is
/// exact: once it has returned, the work never starts again. Cancelling from the scheduler itself
/// (inside one of its events) stops work that is already due but has not started.
///
/// The handle need not be kept: work that was scheduled runs (and a timer keeps firing) whether or not
/// anything refers to its handle.
public final class ScheduledWork: Sendable {
    /// What runs; a repeating timer's body receives the handle so that it can cancel itself.
    typealias Body = @Sendable (ScheduledWork) -> Void
    /// Called once when the work is cancelled, to let the scheduler forget it (remove it from a
    /// deadline store, cancel a dispatch source).
    typealias CancellationHook = @Sendable (ScheduledWork) -> Void

    /// The first deadline.
    let deadline: DispatchTime
    /// The period of a repeating timer in nanoseconds; `nil` for one-shot work.
    let intervalNanoseconds: UInt64?
    /// Where the work was scheduled, for reports.
    let createdAt: CodeLocation
    /// Where the work was scheduled, as its scheduler publishes it while the work runs.
    let site: WorkSite
    /// The handler in scope when the work was scheduled: a report about the work (cancelled at
    /// shutdown) goes where reports of the code that scheduled it go.
    let capturedHandler: (any ConfinementViolationHandler)?

    private enum Phase {
        /// Waiting for its deadline; a timer stays armed between firings.
        case armed
        /// One-shot work that has started (it runs, or ran).
        case started
        case cancelled
    }

    private struct State {
        var phase = Phase.armed
        /// Released once the work can no longer run, so that what it captured does not outlive it.
        var body: Body?
        var cancellationHook: CancellationHook?
    }

    private let state: LockedValue<State>

    init(
        deadline: DispatchTime, intervalNanoseconds: UInt64?, createdAt: CodeLocation,
        site: WorkSite = .unrecorded, handler: (any ConfinementViolationHandler)?, body: @escaping Body
    ) {
        self.site = site
        self.deadline = deadline
        self.intervalNanoseconds = intervalNanoseconds
        self.createdAt = createdAt
        self.capturedHandler = handler
        self.state = LockedValue(State(body: body))
    }

    // MARK: Public

    /// Stops the work: it never starts after this call returns.
    ///
    /// One-shot work that has not started never runs. A repeating timer fires no more; a firing that
    /// is running on another thread right now finishes. Cancelling work that already ran, or was
    /// cancelled (by this call, or by its scheduler's shutdown), does nothing.
    ///
    /// - Returns: Whether this call stopped something: one-shot work before it started, or a timer
    ///   that was still armed. `false` when the work had started (one-shot) or was already cancelled.
    @discardableResult
    public func cancel() -> Bool {
        let (cancelled, hook) = state.withLock { state -> (Bool, CancellationHook?) in
            guard case .armed = state.phase else { return (false, nil) }
            state.phase = .cancelled
            state.body = nil
            return (true, state.cancellationHook.take())
        }
        // Outside the lock: the hook takes the scheduler's own lock.
        hook?(self)
        return cancelled
    }

    /// Whether the work was cancelled before it could (run again): by ``cancel()``, or by the
    /// scheduler's shutdown.
    public var isCancelled: Bool {
        state.withLock { state in
            if case .cancelled = state.phase { return true }
            return false
        }
    }

    // MARK: Running (module)

    /// Whether this is a repeating timer.
    var isRepeating: Bool { intervalNanoseconds != nil }

    /// Whether the work may still run: not cancelled, and for one-shot work not started.
    var isArmed: Bool {
        state.withLock { state in
            if case .armed = state.phase { return true }
            return false
        }
    }

    /// Runs the work once if it is still armed; call it inside the scheduler's context.
    ///
    /// One-shot work is marked started under the lock before it runs, so a concurrent ``cancel()``
    /// either wins (the work never runs) or returns `false`.
    ///
    /// - Returns: Whether the work ran.
    @discardableResult
    func run() -> Bool {
        let body = state.withLock { state -> Body? in
            guard case .armed = state.phase else { return nil }
            if isRepeating { return state.body }
            state.phase = .started
            // Nothing is left to cancel: let go of the scheduler's bookkeeping with the body.
            state.cancellationHook = nil
            return state.body.take()
        }
        guard let body else { return false }
        body(self)
        return true
    }

    /// Registers what cancelling must undo in the scheduler; runs it at once when the work was cancelled
    /// before the scheduler got this far, and drops it when one-shot work already started.
    func setCancellationHook(_ hook: @escaping CancellationHook) {
        let runsNow = state.withLock { state -> Bool in
            switch state.phase {
            case .armed:
                state.cancellationHook = hook
                return false
            case .cancelled:
                return true
            case .started:
                return false
            }
        }
        if runsNow { hook(self) }
    }

    /// Cancels the work because its scheduler stopped, and reports that as a note: work is never
    /// dropped silently. Does nothing when the work had already started or been cancelled.
    ///
    /// Call it without holding the scheduler's lock: the cancellation hook may take it.
    ///
    /// - Parameters:
    ///   - owner: The scheduler's description, for the report.
    ///   - reason: Why the scheduler stopped, for the report.
    func cancelBecauseSchedulerStopped(owner: String, reason: String) {
        guard cancel() else { return }
        let what = isRepeating ? "a repeating timer" : "delayed work that was not yet due"
        ConfinementReporting.report(
            ConfinementViolation(
                kind: .cancelledAtShutdown,
                tier: .note,
                member: isRepeating ? "scheduleRepeating(every:)" : "schedule(at:)",
                expectedOwner: owner,
                actualContext: CurrentExecution.description,
                callSite: createdAt,
                detail: "\(what), scheduled at \(createdAt), was cancelled and will not run: \(reason); cancel "
                    + "delayed work and timers before shutdown() when they are no longer needed"
            ).capturingAccessSite(),
            objectHandler: capturedHandler
        )
    }
}

extension SerialScheduler {
    /// Makes the handle for work on this scheduler, capturing the handler in scope.
    func makeScheduledWork(
        deadline: DispatchTime, intervalNanoseconds: UInt64?, file: StaticString, line: UInt,
        _ body: @escaping ScheduledWork.Body
    ) -> ScheduledWork {
        ScheduledWork(
            deadline: deadline, intervalNanoseconds: intervalNanoseconds, createdAt: CodeLocation(file: file, line: line),
            site: WorkSite(location: PackedCodeLocation(file: file, line: line), function: nil),
            handler: ConfinementSystem.scopedHandler, body: body
        )
    }
}

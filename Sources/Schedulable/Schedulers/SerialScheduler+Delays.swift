import CSchedulableContext
import Dispatch

/// Work after a delay, at a deadline and every interval, on any scheduler — run inside the
/// scheduler's context like everything else it runs, and cancellable through its ``ScheduledWork``.
///
/// The library's schedulers keep the deadlines themselves (a ``ThreadScheduler`` in its own loop, the
/// queue and main schedulers with a libdispatch timer on their queue). Any other scheduler's deadlines
/// are kept on a private queue that submits the work through ``SerialScheduler/trySchedule(_:)`` when it
/// is due.
extension SerialScheduler {
    /// Runs `work` on this scheduler once `delay` has passed; a rejection is reported, never dropped
    /// silently.
    ///
    /// The work is an event of the scheduler, run inside its ``executionContext`` — objects the
    /// scheduler owns pass their checks in it — never before its deadline (`.now() + delay`, taken when
    /// this is called). The ordering guarantees are in the Schedulers article ("Delays, timers and
    /// cancellation").
    ///
    /// ```swift
    /// let timeout = scheduler.schedule(after: .seconds(30)) { connection.abort() }
    /// ```
    ///
    /// A scheduler that no longer accepts work reports a ``ConfinementViolation/Kind/rejectedWork``
    /// violation (see ``SerialScheduler/schedule(_:file:line:function:)``); use ``trySchedule(at:file:line:_:)``
    /// to handle the rejection yourself.
    ///
    /// - Parameters:
    ///   - delay: How long to wait; `.never` waits until the work is cancelled.
    ///   - file: The call site, for reports.
    ///   - line: The call site, for reports.
    ///   - work: The work to run.
    /// - Returns: The handle that cancels the work.
    @discardableResult
    public func schedule(
        after delay: DispatchTimeInterval, file: StaticString = #fileID, line: UInt = #line,
        _ work: @escaping @Sendable () -> Void
    ) -> ScheduledWork {
        let scheduled = makeScheduledWork(deadline: .now() + delay, intervalNanoseconds: nil, file: file, line: line) { _ in work() }
        return armReportingRejection(scheduled, member: "schedule(after:_:)", file: file, line: line)
    }

    /// Runs `work` on this scheduler once `deadline` has passed; a rejection is reported, never
    /// dropped silently.
    ///
    /// Like ``schedule(after:file:line:_:)``, for a deadline computed elsewhere — for example one shared by
    /// several pieces of work.
    ///
    /// - Parameters:
    ///   - deadline: When the work may run at the earliest; a deadline in the past means now;
    ///     `.distantFuture` waits until the work is cancelled.
    ///   - file: The call site, for reports.
    ///   - line: The call site, for reports.
    ///   - work: The work to run.
    /// - Returns: The handle that cancels the work.
    @discardableResult
    public func schedule(
        at deadline: DispatchTime, file: StaticString = #fileID, line: UInt = #line,
        _ work: @escaping @Sendable () -> Void
    ) -> ScheduledWork {
        let scheduled = makeScheduledWork(deadline: deadline, intervalNanoseconds: nil, file: file, line: line) { _ in work() }
        return armReportingRejection(scheduled, member: "schedule(at:_:)", file: file, line: line)
    }

    /// Runs `work` on this scheduler every `interval`, starting one interval from now, until the
    /// returned handle (which `work` also receives) is cancelled; a rejection is reported, never
    /// dropped silently.
    ///
    /// Each firing is an event of the scheduler, run inside its ``executionContext``. Firings are
    /// due at `start + k × interval`; one that comes due while the previous one has not run yet is
    /// merged into it (no burst to catch up, never two firings at once).
    ///
    /// ```swift
    /// scheduler.scheduleRepeating(every: .seconds(1)) { timer in
    ///     if inbox.poll() { timer.cancel() }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - interval: The period; it must be positive and not `.never` (checked always).
    ///   - file: The call site, for reports.
    ///   - line: The call site, for reports.
    ///   - work: The work to run at each firing; it receives the timer's handle, to cancel it.
    /// - Returns: The handle that cancels the timer.
    @discardableResult
    public func scheduleRepeating(
        every interval: DispatchTimeInterval, file: StaticString = #fileID, line: UInt = #line,
        _ work: @escaping @Sendable (ScheduledWork) -> Void
    ) -> ScheduledWork {
        let scheduled = makeRepeatingWork(every: interval, member: "scheduleRepeating(every:_:)", file: file, line: line, work)
        return armReportingRejection(scheduled, member: "scheduleRepeating(every:_:)", file: file, line: line)
    }

    /// Runs `work` on this scheduler once `deadline` has passed, or throws when the scheduler does not
    /// accept it.
    ///
    /// See ``schedule(at:file:line:_:)``. A ``ThreadScheduler`` rejects work after its
    /// ``ThreadScheduler/shutdown()``; the queue and main schedulers never reject. A custom scheduler
    /// is asked when the work comes due: if it rejects the work then, the work is cancelled and a
    /// ``ConfinementViolation/Kind/cancelledAtShutdown`` note is reported.
    ///
    /// - Parameters:
    ///   - deadline: When the work may run at the earliest.
    ///   - file: The call site, for reports.
    ///   - line: The call site, for reports.
    ///   - work: The work to run.
    /// - Returns: The handle that cancels the work.
    /// - Throws: ``ScheduleRejection`` when the scheduler no longer accepts work.
    @discardableResult
    public func trySchedule(
        at deadline: DispatchTime, file: StaticString = #fileID, line: UInt = #line,
        _ work: @escaping @Sendable () -> Void
    ) throws(ScheduleRejection) -> ScheduledWork {
        let scheduled = makeScheduledWork(deadline: deadline, intervalNanoseconds: nil, file: file, line: line) { _ in work() }
        try arm(scheduled)
        return scheduled
    }

    /// Runs `work` on this scheduler every `interval` until the handle is cancelled, or throws when the
    /// scheduler does not accept it.
    ///
    /// See ``scheduleRepeating(every:file:line:_:)`` and, for rejections, ``trySchedule(at:file:line:_:)``.
    ///
    /// - Parameters:
    ///   - interval: The period; it must be positive and not `.never` (checked always).
    ///   - file: The call site, for reports.
    ///   - line: The call site, for reports.
    ///   - work: The work to run at each firing; it receives the timer's handle, to cancel it.
    /// - Returns: The handle that cancels the timer.
    /// - Throws: ``ScheduleRejection`` when the scheduler no longer accepts work.
    @discardableResult
    public func tryScheduleRepeating(
        every interval: DispatchTimeInterval, file: StaticString = #fileID, line: UInt = #line,
        _ work: @escaping @Sendable (ScheduledWork) -> Void
    ) throws(ScheduleRejection) -> ScheduledWork {
        let scheduled = makeRepeatingWork(every: interval, member: "tryScheduleRepeating(every:_:)", file: file, line: line, work)
        try arm(scheduled)
        return scheduled
    }

    // MARK: Arming

    private func makeRepeatingWork(
        every interval: DispatchTimeInterval, member: String, file: StaticString, line: UInt,
        _ work: @escaping @Sendable (ScheduledWork) -> Void
    ) -> ScheduledWork {
        let now = DispatchTime.now()
        let first = now + interval
        // A period of zero would fire in a busy loop, `.never` never: refuse both, in every build.
        precondition(
            interval != .never && first > now,
            "SerialScheduler.\(member) at \(CodeLocation(file: file, line: line)): the interval must be positive "
                + "and not .never, e.g. .milliseconds(100)"
        )
        return makeScheduledWork(
            deadline: first, intervalNanoseconds: first.uptimeNanoseconds - now.uptimeNanoseconds, file: file, line: line, work
        )
    }

    private func armReportingRejection(_ work: ScheduledWork, member: String, file: StaticString, line: UInt) -> ScheduledWork {
        do {
            try arm(work)
        } catch {
            // The handle says the work will never run; the report says why (the handler decides
            // whether that stops the process, as for `schedule`).
            work.cancel()
            ConfinementReporting.report(
                .rejectedWork(
                    member: member, owner: executionContext.description,
                    callSite: CodeLocation(file: file, line: line), detail: error.description
                ),
                objectHandler: nil
            )
        }
        return work
    }

    /// Hands `work` to the scheduler's own deadlines, or to the generic timer for other schedulers.
    private func arm(_ work: ScheduledWork) throws(ScheduleRejection) {
        csched_note_publication()   // a hand-off: it ends this thread's construction windows
        if let scheduler = self as? any DeadlineScheduling {
            try scheduler.armDeadline(work)
        } else {
            armThroughTrySchedule(work)
        }
    }

    /// The generic path: deadlines kept for every other scheduler on one private queue, which submits
    /// each due piece of work with `trySchedule`, so it runs wherever and however the scheduler runs
    /// work (in deadline order, as the scheduler runs what it accepts in order).
    private func armThroughTrySchedule(_ work: ScheduledWork) {
        // A firing submitted but not yet run: a later one merges into it, as the library schedulers'
        // timers do, instead of queueing a second one behind it.
        let firingPending = LockedValue(false)
        genericDeadlines.arm(work) { work in
            let submits = firingPending.withLock { pending -> Bool in
                if pending { return false }
                pending = true
                return true
            }
            guard submits else { return }
            do {
                try self.trySchedule {
                    firingPending.withLock { $0 = false }
                    work.run()
                }
            } catch {
                work.cancelBecauseSchedulerStopped(
                    owner: self.executionContext.description, reason: "the scheduler rejected it when it came due: \(error)"
                )
            }
        }
    }
}

/// The deadlines of schedulers that keep none themselves (custom schedulers).
private let genericDeadlines = DispatchDeadlines(queue: DispatchQueue(label: "org.schedulable.deadlines"))

/// A library scheduler that keeps deadlines itself, where its work runs — not through the generic timer
/// that submits work with ``SerialScheduler/trySchedule(_:)`` when it comes due.
protocol DeadlineScheduling: SerialScheduler {
    /// Arms `work`: runs it (inside the scheduler's context, through ``ScheduledWork/run()``) once its
    /// deadline has passed, and a repeating timer every interval after that, until it is cancelled.
    ///
    /// - Parameter work: The work and its deadline.
    /// - Throws: ``ScheduleRejection`` when the scheduler no longer accepts work.
    func armDeadline(_ work: ScheduledWork) throws(ScheduleRejection)
}

import CSchedulableContext
/// Something that runs work in one execution context: the main thread, a serial queue, a dedicated thread.
///
/// Objects are bound to a scheduler and checked against it.
///
/// ## Implementation requirements
/// - ``executionContext`` identifies the scheduler for checks and never changes. A custom scheduler
///   makes it with a ``ExecutionContext/Runner`` that it keeps private, and publishes the runner's
///   context.
/// - Every piece of work the scheduler runs executes inside the runner's `run { … }`, and no two
///   pieces ever run at the same time (exclusion is what confinement means; a concurrent queue can
///   never be a scheduler). A branch runner's work also never overlaps with its parent's.
/// - ``trySchedule(_:)`` either accepts the work (it will run exactly once) or throws; it never drops
///   work silently.
///
/// A report made while a custom scheduler's work runs says the owner runs work without naming where
/// it was scheduled: the library's own schedulers receive the scheduling site with the work, and
/// ``trySchedule(_:)`` carries only the closure.
public protocol SerialScheduler: AnyObject, Sendable {
    /// A human-readable name used in reports (`com.app.uploads`, "main thread").
    var label: String { get }

    /// The identity that checks compare against.
    var executionContext: ExecutionContext { get }

    /// Submits `work` to run later on this scheduler, in FIFO order.
    ///
    /// - Parameter work: The work to run.
    /// - Throws: ``ScheduleRejection`` when the scheduler no longer accepts work (it was shut down).
    func trySchedule(_ work: @escaping @Sendable () -> Void) throws(ScheduleRejection)
}

extension SerialScheduler {
    /// Whether the calling code runs on this scheduler right now.
    ///
    /// Never a false "yes". The verdict on ``executionContext``, the same as for every object bound to
    /// this scheduler: not a requirement, so a scheduler cannot answer differently from its objects (a
    /// custom scheduler tells the library where its work runs through its ``ExecutionContext/Runner``).
    @inlinable
    public var isIsolated: Bool { executionContext.isIsolated }

    /// Submits `work` to run later on this scheduler; a rejection is reported, never dropped silently.
    ///
    /// A scheduler that was shut down rejects work: the rejection goes to the violation handler as a
    /// ``ConfinementViolation/Kind/rejectedWork`` report, with the call site, and the handler decides —
    /// a `trap` level (the debug default) stops the process; a warning level (the release default)
    /// reports it and the work is dropped, so tearing down never crashes a release build unless asked
    /// to. Use ``trySchedule(_:)`` to handle the rejection yourself.
    ///
    /// - Parameters:
    ///   - work: The work to run.
    ///   - file: The call site, for the report.
    ///   - line: The call site, for the report.
    ///   - function: The calling function: with `file` and `line`, what a report made while the work
    ///     runs says the owner was running.
    public func schedule(
        _ work: @escaping @Sendable () -> Void, file: StaticString = #fileID, line: UInt = #line,
        function: StaticString = #function
    ) {
        submit(member: "schedule(_:)", file: file, line: line, function: function, work)
    }

    /// Submits `work`, reporting a rejection as a ``ConfinementViolation/Kind/rejectedWork`` violation
    /// made by `member` at the call site, at `tier` (see `ConfinementViolation.rejectedWork`). The call
    /// site (and `function`, where the caller knows it) travels with the work to a library scheduler
    /// (``trySchedule(_:site:)``).
    package func submit(
        member: String, file: StaticString, line: UInt, function: StaticString? = nil,
        tier: ConfinementViolation.Tier = .assert, _ work: @escaping @Sendable () -> Void
    ) {
        csched_note_publication()   // a hand-off: it ends this thread's construction windows
        do {
            try trySchedule(work, site: WorkSite(location: PackedCodeLocation(file: file, line: line), function: function))
        } catch {
            ConfinementReporting.report(
                .rejectedWork(
                    member: member, owner: executionContext.description,
                    callSite: CodeLocation(file: file, line: line), detail: error.description, tier: tier
                ),
                objectHandler: nil
            )
        }
    }
}

extension SerialScheduler {
    /// Submits `work` with its scheduling site: to a library scheduler with the work, which publishes
    /// the site while the work runs (the owner's side of reports); to any other through its public
    /// ``trySchedule(_:)``, so a custom scheduler has nothing to know about and its work runs without a
    /// site ("unrecorded").
    ///
    /// The library's schedulers are final classes, so comparing the dynamic type finds them exactly; a
    /// cast to a protocol would look the conformance up on every hop.
    @inline(__always)
    package func trySchedule(_ work: @escaping @Sendable () -> Void, site: WorkSite) throws(ScheduleRejection) {
        let type = ObjectIdentifier(Swift.type(of: self))
        if type == ObjectIdentifier(SerialQueueScheduler.self) {
            unsafeDowncast(self, to: SerialQueueScheduler.self).trySchedule(work, recording: site)
        } else if type == ObjectIdentifier(ThreadScheduler.self) {
            try unsafeDowncast(self, to: ThreadScheduler.self).trySchedule(work, recording: site)
        } else if type == ObjectIdentifier(MainThreadScheduler.self) {
            unsafeDowncast(self, to: MainThreadScheduler.self).trySchedule(work, recording: site)
        } else {
            try trySchedule(work)
        }
    }
}

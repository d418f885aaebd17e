import CSchedulableContext
import Dispatch

/// The one entry point every violation goes through.
package enum ScheduleReporting {
    /// Delivers `violation` to the first handler that applies: the object's captured handler, the
    /// scope's, else the process-wide one. Precondition-tier violations then trap, after printing.
    ///
    /// - Parameters:
    ///   - violation: What happened.
    ///   - objectHandler: The handler the object captured at creation, if any.
    ///   - owner: The owner the check failed for; a queue owner lets libdispatch arbitrate first when
    ///     the outcome would be a trap anyway.
    package static func report(
        _ violation: ScheduleViolation, objectHandler: (any ScheduleViolationHandler)?, owner: ScheduleContext? = nil
    ) {
        guard csched_reporting_enter() else {
            // A handler touched a protected object from the wrong context. Delivering this would
            // re-enter the handler (possibly forever); printing it loses nothing.
            StandardError.write(
                "Schedulable: violation raised inside a violation handler (not delivered again):\n"
                    + violation.description + "\n"
            )
            if violation.tier == .precondition { trap(violation) }
            return
        }
        let handler = objectHandler ?? ScheduleProtectionSystem.scopedHandler ?? ScheduleProtectionSystem.handler
        if let queue = owner?.queue, violation.tier != .note,
            violation.tier == .precondition || handler is TrapViolationHandler,
            dispatchHoldsQueue(queue, elseTrapPrinting: violation)
        {
            csched_reporting_leave()
            return
        }
        handler.handle(violation)
        csched_reporting_leave()
        if violation.tier == .precondition {
            StandardError.write(violation.description + "\n")
            trap(violation)
        }
    }

    /// Asks libdispatch whether this thread holds `queue`. It knows about one case the library cannot
    /// see without trapping: raw `someQueue.sync {}` called from raw work on `queue`. Its answer is a
    /// trap when "no", so this is used only when the outcome would be a trap anyway; the report is
    /// armed first, because a failing `dispatchPrecondition` prints nothing on Linux.
    ///
    /// - Returns: `true` when the thread holds the queue (no violation); otherwise it does not return.
    private static func dispatchHoldsQueue(_ queue: DispatchQueue, elseTrapPrinting violation: ScheduleViolation) -> Bool {
        let report = violation.description + "\n"
        return report.withCString { text in
            csched_arm_trap_report(text)
            defer { csched_disarm_trap_report() }
            dispatchPrecondition(condition: .onQueue(queue))
            return true
        }
    }

    private static func trap(_ violation: ScheduleViolation) -> Never {
        fatalError("Schedulable: \(violation.qualifiedMember): precondition-tier violation (report above)")
    }
}

import CSchedulableContext

/// The one entry point every violation goes through.
package enum ScheduleReporting {
    /// Delivers `violation` to the first handler that applies: the object's captured handler, the
    /// scope's, else the process-wide one. Precondition-tier violations then trap, after printing.
    ///
    /// - Parameters:
    ///   - violation: What happened.
    ///   - objectHandler: The handler the object captured at creation, if any.
    package static func report(_ violation: ScheduleViolation, objectHandler: (any ScheduleViolationHandler)?) {
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
        handler.handle(violation)
        csched_reporting_leave()
        if violation.tier == .precondition {
            StandardError.write(violation.description + "\n")
            trap(violation)
        }
    }

    private static func trap(_ violation: ScheduleViolation) -> Never {
        fatalError("Schedulable: \(violation.qualifiedMember): precondition-tier violation (report above)")
    }
}

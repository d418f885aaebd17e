import CSchedulableContext

/// Delivery: the one path every violation takes to a handler, and the trap that follows for the
/// precondition tier. It decides nothing about ownership — the layers that detect a violation have
/// decided that before they call here.
package enum ScheduleReporting {
    /// The handler a violation goes to: the one the object captured at creation, else the scope's,
    /// else the process-wide one.
    ///
    /// - Parameter objectHandler: The handler the object captured, if any.
    /// - Returns: The handler that applies.
    package static func handler(objectHandler: (any ConfinementViolationHandler)?) -> any ConfinementViolationHandler {
        objectHandler ?? ConfinementSystem.scopedHandler ?? ConfinementSystem.handler
    }

    /// Whether delivering `violation` to `handler` ends with the process stopped: the precondition
    /// tier always does, and so do the trap handler and a policy's `trap` level for anything but a note.
    package static func endsInTrap(_ violation: ConfinementViolation, handledBy handler: any ConfinementViolationHandler) -> Bool {
        if violation.tier == .precondition { return true }
        if violation.tier == .note { return false }
        if handler is TrapViolationHandler { return true }
        if let policyHandler = handler as? PolicyViolationHandler { return policyHandler.level(for: violation) == .trap }
        return false
    }

    /// Whether a violation is being delivered on this thread right now (a handler runs).
    package static var isDeliveringOnThisThread: Bool { csched_is_reporting() }

    /// Delivers `violation` to the handler that applies (see ``handler(objectHandler:)``).
    ///
    /// - Parameters:
    ///   - violation: What happened.
    ///   - objectHandler: The handler the object captured at creation, if any.
    package static func report(_ violation: ConfinementViolation, objectHandler: (any ConfinementViolationHandler)?) {
        report(violation, to: handler(objectHandler: objectHandler))
    }

    /// Delivers `violation` to `handler`; a precondition-tier violation then prints and traps.
    ///
    /// - Parameters:
    ///   - violation: What happened.
    ///   - handler: Where it goes.
    package static func report(_ violation: ConfinementViolation, to handler: any ConfinementViolationHandler) {
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
        if let sink = JSONLinesViolationHandler.process, sink !== handler as AnyObject {
            sink.append(violation, level: (handler as? PolicyViolationHandler)?.level(for: violation))
        }
        handler.handle(violation)
        csched_reporting_leave()
        if violation.tier == .precondition {
            StandardError.write(violation.description + "\n")
            trap(violation)
        }
    }

    private static func trap(_ violation: ConfinementViolation) -> Never {
        fatalError("Schedulable: \(violation.qualifiedMember): precondition-tier violation (report above)")
    }
}

import CSchedulableContext

/// Delivery: the one path every violation takes to a handler, and the trap that follows for the
/// precondition tier. It decides nothing about ownership and never cancels a report: whether an access
/// is reported (libdispatch's last word included) is the verdict's, `Checking.verdict`.
package enum ConfinementReporting {
    /// The handler `violation` goes to. What the code configured wins over a test's automatic handler
    /// (``AutomaticTestReporting``):
    ///
    /// 1. the handler the object captured from a ``withConfinementViolationHandler(_:operation:)``
    ///    scope, else the scope the violation is raised in;
    /// 2. the test the object captured, else the test of the code raising the violation — unless the
    ///    process-wide handler was configured (bootstrap, `SCHEDULABLE_CONFINEMENT`): then that handler,
    ///    except that a violation it puts at ``ConfinementLevel/failTest`` goes to the test. A note
    ///    goes to the test too (which records it without failing): in a test run it belongs to the
    ///    test that caused it, not to the console;
    /// 3. the process-wide handler.
    ///
    /// - Parameters:
    ///   - violation: The violation.
    ///   - objectHandler: The handler the object (or work, or future) captured, if any.
    /// - Returns: The handler that applies.
    package static func handler(
        for violation: ConfinementViolation, objectHandler: (any ConfinementViolationHandler)?
    ) -> any ConfinementViolationHandler {
        let capturedTest = objectHandler as? any AutomaticTestHandler
        if let objectHandler, capturedTest == nil { return objectHandler }
        if let scoped = ConfinementSystem.explicitScopedHandler { return scoped }
        let processWide = ConfinementSystem.handler
        guard let test = capturedTest ?? AutomaticTestReporting.current else { return processWide }
        guard ConfinementSystem.isExplicitlyConfigured else { return test }
        if violation.tier != .note, let policy = processWide as? PolicyViolationHandler,
            policy.level(for: violation) == .failTest
        {
            return test
        }
        return processWide
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

    /// Whether delivering `violation` to `handler` records a step of observation instead of printing it:
    /// a policy's ``ConfinementLevel/observe`` level, for a use outside the owner. The delivery (in the
    /// Checking layer, above Observation) records the step; the handler prints nothing for it.
    package static func observes(_ violation: ConfinementViolation, handledBy handler: any ConfinementViolationHandler) -> Bool {
        guard violation.kind == .wrongContext, let policyHandler = handler as? PolicyViolationHandler else { return false }
        return policyHandler.level(for: violation) == .observe
    }

    /// Whether a violation is being delivered on this thread right now (a handler runs).
    package static var isDeliveringOnThisThread: Bool { csched_is_reporting() }

    /// Delivers `violation` to the handler that applies (see ``handler(for:objectHandler:)``).
    ///
    /// - Parameters:
    ///   - violation: What happened.
    ///   - objectHandler: The handler the object captured at creation, if any.
    package static func report(_ violation: ConfinementViolation, objectHandler: (any ConfinementViolationHandler)?) {
        report(violation, to: handler(for: violation, objectHandler: objectHandler))
    }

    /// Delivers `violation` to `handler`; a precondition-tier violation then prints and traps.
    ///
    /// - Parameters:
    ///   - violation: What happened.
    ///   - handler: Where it goes.
    package static func report(_ violation: ConfinementViolation, to handler: any ConfinementViolationHandler) {
        guard csched_reporting_enter() else {
            // A handler touched a protected object from the wrong context. Delivering this would
            // re-enter the handler (possibly forever); printing it loses nothing. The reports waiting
            // on the reporting thread first (unless this is that thread), as before any trap.
            if violation.tier == .precondition { ReportWriter.flush() }
            StandardError.write(
                "Schedulable: violation raised inside a violation handler (not delivered again):\n"
                    + violation.description + "\n"
            )
            if violation.tier == .precondition { trap(violation) }
            return
        }
        if let sink = JSONLinesViolationHandler.process, sink !== handler as AnyObject {
            let level = handler is any AutomaticTestHandler && violation.tier != .note
                ? .failTest : (handler as? PolicyViolationHandler)?.level(for: violation)
            sink.append(violation, level: level)
        }
        TestFrameworkHint.printOnceIfNeeded(for: violation)
        handler.handle(violation)
        csched_reporting_leave()
        if violation.tier == .precondition {
            StandardError.write(reportBeforeTrap(violation))
            trap(violation)
        }
    }

    /// The text to print for `violation` just before the process may stop, once every report handed to
    /// the reporting thread is written (so the trap's report comes last).
    package static func reportBeforeTrap(_ violation: ConfinementViolation) -> String {
        ReportWriter.flush()
        return violation.description + "\n"
    }

    private static func trap(_ violation: ConfinementViolation) -> Never {
        fatalError(violation.trapMessage)
    }
}

extension ScheduleReporting {
    /// Reports an access made outside `owner` — after asking libdispatch, for a queue owner, when the
    /// outcome would be a trap anyway and the library has no evidence of its own
    /// (``CurrentExecution/mayHoldQueuesUnseen``).
    ///
    /// libdispatch alone sees raw `someQueue.sync {}` nested in raw work on the owner's queue; its "yes"
    /// means the access was legitimate after all, and nothing is reported. Everywhere else the report
    /// is delivered without asking, so it is printed before anything traps (a debugger stops at
    /// libdispatch's trap before a report armed for it prints). The question is never asked
    /// while a handler runs on this thread: a violation raised there is printed, not trapped on (see
    /// ``report(_:to:)``).
    ///
    /// - Parameters:
    ///   - violation: A ``ConfinementViolation/Kind/wrongContext`` violation.
    ///   - owner: The owner the access should have run in.
    ///   - objectHandler: The handler the object captured at creation, if any.
    package static func reportWrongContext(
        _ violation: ConfinementViolation, owner: ExecutionContext, objectHandler: (any ConfinementViolationHandler)?
    ) {
        let handler = handler(for: violation, objectHandler: objectHandler)
        if !isDeliveringOnThisThread, endsInTrap(violation, handledBy: handler),
            CurrentExecution.mayHoldQueuesUnseen,
            owner.confirmedByDispatch(elseTrapPrinting: violation.description + "\n")
        {
            return
        }
        report(violation, to: handler)
    }
}

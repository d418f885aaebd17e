/// The check verbs on schedulers, shaped like Swift's actor checks and named as on confined objects and
/// boxes: ``SerialScheduler/isIsolated`` asks, `assertIsolated()` reports in debug builds,
/// `preconditionIsolated()` reports and stops in every build, `assumeIsolated { }` checks like
/// `preconditionIsolated()` and then runs its body.
extension SerialScheduler {
    /// Reports a violation when the calling code does not run on this scheduler — debug tier: compiled
    /// out of release builds unless the `ReleaseChecks` trait is on.
    ///
    /// - Parameters:
    ///   - message: Added to the report's detail line.
    ///   - file: The call site, for the report.
    ///   - line: The call site, for the report.
    public func assertIsolated(
        _ message: @autoclosure () -> String = String(), file: StaticString = #fileID, line: UInt = #line
    ) {
        #if SCHEDULABLE_CHECKS
        checkIsolation("assertIsolated()", tier: .assert, message, file, line)
        #endif
    }

    /// Reports a violation and stops the process when the calling code does not run on this scheduler —
    /// always on, in every build.
    ///
    /// - Parameters:
    ///   - message: Added to the report's detail line.
    ///   - file: The call site, for the report.
    ///   - line: The call site, for the report.
    public func preconditionIsolated(
        _ message: @autoclosure () -> String = String(), file: StaticString = #fileID, line: UInt = #line
    ) {
        checkIsolation("preconditionIsolated()", tier: .precondition, message, file, line)
    }

    /// Runs `body` after checking, in every build, that the calling code runs on this scheduler — the
    /// escape hatch `MainActor.assumeIsolated` is for actors: a violation is reported and the process
    /// stops before `body` runs.
    ///
    /// - Parameters:
    ///   - file: The call site, for the report.
    ///   - line: The call site, for the report.
    ///   - body: The code that needs the scheduler.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public func assumeIsolated<T, E: Error>(
        file: StaticString = #fileID, line: UInt = #line, _ body: () throws(E) -> T
    ) throws(E) -> T {
        checkIsolation("assumeIsolated(_:)", tier: .precondition, { String() }, file, line)
        return try body()
    }

    /// The one implementation behind the verbs (also of the same verbs on a scheduler that is an actor's
    /// executor). `message` is evaluated only for a report.
    package func checkIsolation(
        _ member: StaticString, tier: ConfinementViolation.Tier, _ message: () -> String, _ file: StaticString,
        _ line: UInt
    ) {
        let member = ConfinedMemberReference.method(member, callSite: PackedCodeLocation(file: file, line: line))
        executionContext.checkUse(member) { owner in
            var violation = ConfinementViolation.wrongContext(
                member: member, tier: tier, owner: owner, boundAt: nil, object: nil
            )
            violation.addDetail(message())
            return PendingReport(violation, objectHandler: nil)
        }
    }
}

/// What happens to a violation, from the quietest to the loudest — the stages of adopting the checks
/// in an existing codebase.
///
/// Precondition-tier violations (``ConfinementViolation/Tier/precondition``) stop the process whatever
/// the level: a level may raise them, never lower them below "stop".
public enum ConfinementLevel: String, Sendable, CaseIterable, Comparable {
    /// Ignore the violation.
    case off
    /// Record instead of report: a use outside the owner is not printed but recorded — which contexts
    /// used each type and member, kept in memory and written to an observation file at exit (see
    /// ``ConfinementObservations``), to propose owners from a run. Any other violation is printed as at
    /// ``warnOnce``.
    case observe
    /// Print the report the first time a call site violates (a new site of an object already reported
    /// from the same context: one line), then count repeats.
    case warnOnce = "warn-once"
    /// Print the report every time.
    case warn
    /// Fail the test that caused the violation (in a test binary that links SchedulableTesting, from
    /// any thread); outside a test, print it every time.
    case failTest = "fail-test"
    /// Print the report, then stop the process.
    case trap

    /// Orders levels from ``off`` to ``trap``.
    ///
    /// - Parameters:
    ///   - lhs: A level.
    ///   - rhs: Another level.
    /// - Returns: Whether `lhs` is quieter than `rhs`.
    public static func < (lhs: ConfinementLevel, rhs: ConfinementLevel) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

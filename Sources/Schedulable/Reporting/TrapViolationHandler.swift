/// Prints the whole report to standard error, then stops the process.
///
/// The report is printed first because on Linux a failing `dispatchPrecondition` or `precondition`
/// in an optimized build prints nothing at all.
package struct TrapViolationHandler: ConfinementViolationHandler {
    /// Creates the handler.
    package init() {}

    /// Prints `violation` and traps; a ``ConfinementViolation/Tier/note`` is printed and nothing more.
    ///
    /// - Parameter violation: What happened.
    package func handle(_ violation: ConfinementViolation) {
        // Reports handed to the reporting thread before this one are written first.
        ReportWriter.flush()
        StandardError.write(violation.description + "\n")
        // A note reports nothing wrong (a future that had to be waited for): stopping the process
        // for it would turn a performance hint into a crash.
        if violation.tier == .note { return }
        fatalError(violation.trapMessage)
    }
}

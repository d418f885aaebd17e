/// Ignores debug-tier violations.
///
/// Precondition-tier violations still print and trap: they guard memory safety, not style.
package struct IgnoreViolationHandler: ConfinementViolationHandler {
    /// Creates the handler.
    package init() {}

    /// Does nothing.
    ///
    /// - Parameter violation: What happened.
    package func handle(_ violation: ConfinementViolation) {}
}

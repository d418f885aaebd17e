/// Ignores debug-tier violations.
///
/// Precondition-tier violations still print and trap: they guard memory safety, not style.
public struct IgnoreViolationHandler: ConfinementViolationHandler {
    /// Creates the handler.
    public init() {}

    /// Does nothing.
    ///
    /// - Parameter violation: What happened.
    public func handle(_ violation: ConfinementViolation) {}
}

extension ConfinementViolationHandler where Self == IgnoreViolationHandler {
    /// Ignore debug-tier violations.
    public static var off: Self { IgnoreViolationHandler() }
}

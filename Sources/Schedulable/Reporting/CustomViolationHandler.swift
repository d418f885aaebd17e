/// Calls a closure for each violation.
package struct CustomViolationHandler: ConfinementViolationHandler {
    private let body: @Sendable (ConfinementViolation) -> Void

    /// Creates a handler from a closure.
    ///
    /// - Parameter body: Called for each violation, on the thread that detected it.
    package init(_ body: @escaping @Sendable (ConfinementViolation) -> Void) {
        self.body = body
    }

    /// Calls the closure.
    ///
    /// - Parameter violation: What happened.
    package func handle(_ violation: ConfinementViolation) { body(violation) }
}

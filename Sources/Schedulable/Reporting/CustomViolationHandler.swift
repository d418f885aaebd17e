/// Calls a closure for each violation.
public struct CustomViolationHandler: ConfinementViolationHandler {
    private let body: @Sendable (ConfinementViolation) -> Void

    /// Creates a handler from a closure.
    ///
    /// - Parameter body: Called for each violation, on the thread that detected it.
    public init(_ body: @escaping @Sendable (ConfinementViolation) -> Void) {
        self.body = body
    }

    /// Calls the closure.
    ///
    /// - Parameter violation: What happened.
    public func handle(_ violation: ConfinementViolation) { body(violation) }
}

extension ConfinementViolationHandler where Self == CustomViolationHandler {
    /// Call `body` for each violation.
    ///
    /// - Parameter body: Called for each violation, on the thread that detected it.
    /// - Returns: The handler.
    public static func custom(_ body: @escaping @Sendable (ConfinementViolation) -> Void) -> Self {
        CustomViolationHandler(body)
    }
}

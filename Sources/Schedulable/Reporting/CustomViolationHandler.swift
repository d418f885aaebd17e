/// Calls a closure for each violation.
public struct CustomViolationHandler: ScheduleViolationHandler {
    private let body: @Sendable (ScheduleViolation) -> Void

    /// Creates a handler from a closure.
    ///
    /// - Parameter body: Called for each violation, on the thread that detected it.
    public init(_ body: @escaping @Sendable (ScheduleViolation) -> Void) {
        self.body = body
    }

    /// Calls the closure.
    ///
    /// - Parameter violation: What happened.
    public func handle(_ violation: ScheduleViolation) { body(violation) }
}

extension ScheduleViolationHandler where Self == CustomViolationHandler {
    /// Call `body` for each violation.
    ///
    /// - Parameter body: Called for each violation, on the thread that detected it.
    /// - Returns: The handler.
    public static func custom(_ body: @escaping @Sendable (ScheduleViolation) -> Void) -> Self {
        CustomViolationHandler(body)
    }
}

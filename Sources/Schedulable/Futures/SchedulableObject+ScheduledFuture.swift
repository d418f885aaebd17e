extension SchedulableObject {
    /// Starts `body` with the wrapped value on ``scheduler`` and returns its future at once — STMQ's
    /// `[object future]`.
    ///
    /// The body runs after the work already submitted to the scheduler; the futures of one scheduler run
    /// in the order they were made. Violations and notes about the future go to the handler the wrapped
    /// value's record captured.
    ///
    /// ```swift
    /// let count = queue.future { $0.pending.count }
    /// print(try count.present())
    /// ```
    ///
    /// - Parameters:
    ///   - file: Where the future is made, for reports.
    ///   - line: Where the future is made, for reports.
    ///   - body: The work, given the value in place. It may throw: ``ScheduledFuture/present(file:line:)``
    ///     rethrows.
    /// - Returns: The future of the body's value.
    public func future<Value: Sendable>(
        file: StaticString = #fileID, line: UInt = #line, _ body: @escaping @Sendable (inout Object) throws -> Value
    ) -> ScheduledFuture<Value> {
        ScheduledFuture.make(
            on: scheduler, handler: capturedHandler ?? ConfinementSystem.scopedHandler,
            file: file, line: line, body: { try self.withStorage(body) }
        )
    }
}

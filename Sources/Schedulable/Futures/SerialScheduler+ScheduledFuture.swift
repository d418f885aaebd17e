extension SerialScheduler {
    /// Starts `body` on this scheduler and returns its future at once: the body runs after the work
    /// already submitted here (futures of one scheduler run in the order they were made).
    ///
    /// ```swift
    /// let checksum = io.future { try computeChecksum(of: path) }
    /// …
    /// let value = try checksum.present()
    /// ```
    ///
    /// A scheduler that was shut down does not run the body; the future completes with
    /// ``FutureError/Reason/rejected``. At entanglement level 0 (``FutureSystem/defaultEntanglementLevel``) the body has
    /// run by the time this returns.
    ///
    /// - Parameters:
    ///   - file: Where the future is made, for reports.
    ///   - line: Where the future is made, for reports.
    ///   - body: The work. It may throw: ``ScheduledFuture/present(file:line:)`` rethrows the error.
    /// - Returns: The future of the body's value.
    public func future<Value: Sendable>(
        file: StaticString = #fileID, line: UInt = #line, _ body: @escaping @Sendable () throws -> Value
    ) -> ScheduledFuture<Value> {
        ScheduledFuture.make(
            on: self, handler: ConfinementSystem.scopedHandler,
            file: file, line: line, body: body
        )
    }
}

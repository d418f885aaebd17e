extension SerialScheduler {
    /// Runs `body` on this scheduler and returns its result, suspending the calling task — never
    /// blocking a thread — until it has run.
    ///
    /// Called from code that already runs on this scheduler, `body` runs inline. From anywhere else it
    /// is an event of the scheduler, after the work already submitted there, run inside its
    /// ``executionContext``: objects the scheduler owns pass their checks in it.
    ///
    /// ```swift
    /// let pending = await uploads.run { queue.pendingCount }
    /// let receipt = try await uploads.run { () throws(UploadError) -> Receipt in try queue.commit() }
    /// ```
    ///
    /// The work runs even if the calling task is cancelled meanwhile: it was already submitted. A
    /// scheduler that no longer accepts work reports a ``ConfinementViolation/Kind/rejectedWork``
    /// violation at the precondition tier (see ``SerialScheduler/schedule(_:file:line:function:)``): there is
    /// no result to return.
    ///
    /// - Parameters:
    ///   - file: The call site, for a rejection report.
    ///   - line: The call site, for a rejection report.
    ///   - function: The calling function, for reports made while the work runs.
    ///   - body: The work to run.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, with its type.
    public func run<T: Sendable, E: Error>(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        _ body: @escaping @Sendable () throws(E) -> T
    ) async throws(E) -> T {
        try await runInlineOrHop(file: file, line: line, function: function, body)
    }
}

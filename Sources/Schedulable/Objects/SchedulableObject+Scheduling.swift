// The pattern's second rule: from anywhere else, schedule the work on the owner. Each verb hands its
// call site (file, line, function) to the work item it creates, so a report made while that work runs
// says what the owner was running.
extension SchedulableObject {
    /// Runs `work` with the value on ``scheduler``, later.
    ///
    /// A scheduler that rejects the work (shut down) reports it as ``ConfinementViolation/Kind/rejectedWork``.
    ///
    /// - Parameters:
    ///   - file: The call site, for a rejection report.
    ///   - line: The call site, for a rejection report.
    ///   - function: The calling function: with `file` and `line`, what a report made while the work
    ///     runs says the owner was running.
    ///   - work: The work, given the value in place.
    public func schedule(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        _ work: @escaping @Sendable (inout Object) -> Void
    ) {
        scheduler.submit(member: "schedule(_:)", file: file, line: line, function: function) {
            self.withStorage { work(&$0) }
        }
    }

    /// Runs `work` with the value now when the calling code runs on ``scheduler``, otherwise schedules
    /// it (see ``schedule(file:line:function:_:)``).
    ///
    /// - Parameters:
    ///   - file: The call site, for a rejection report.
    ///   - line: The call site, for a rejection report.
    ///   - function: The calling function, for reports made while the work runs (when it is scheduled).
    ///   - work: The work, given the value in place.
    public func perform(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        _ work: @escaping @Sendable (inout Object) -> Void
    ) {
        scheduler.performInlineOrSchedule(file: file, line: line, function: function) {
            self.withStorage { work(&$0) }
        }
    }

    /// Runs `body` with the value on ``scheduler`` and returns its result: inline when the calling code
    /// already runs there, otherwise after a hop.
    ///
    /// The work runs even if the calling task is cancelled meanwhile.
    ///
    /// - Parameters:
    ///   - file: The call site, for a rejection report.
    ///   - line: The call site, for a rejection report.
    ///   - function: The calling function, for reports made while the work runs (when it hops).
    ///   - body: The work, given the value in place.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public func run<T: Sendable, E: Error>(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        _ body: @escaping @Sendable (inout Object) throws(E) -> T
    ) async throws(E) -> T {
        try await scheduler.runInlineOrHop(file: file, line: line, function: function) { () throws(E) -> T in
            try self.withStorage(body)
        }
    }
}

/// The pattern's two interaction rules in one place: on the same scheduler, a direct call; from
/// anywhere else, an event on the scheduler.
extension SerialScheduler {
    /// Runs `work` now when the calling code runs on this scheduler, otherwise schedules it (a
    /// rejection is reported, see ``SerialScheduler/schedule(_:file:line:function:)``).
    ///
    /// - Parameters:
    ///   - file: The call site, for a rejection report.
    ///   - line: The call site, for a rejection report.
    ///   - work: The work to run.
    package func performInlineOrSchedule(
        file: StaticString, line: UInt, function: StaticString? = nil, _ work: @escaping @Sendable () -> Void
    ) {
        if isIsolated {
            work()
        } else {
            submit(member: "schedule(_:)", file: file, line: line, function: function, work)
        }
    }

    /// Runs `body` now when the calling code runs on this scheduler, otherwise suspends until the
    /// scheduler has run it, and returns its result. The work runs even if the calling task is
    /// cancelled meanwhile: it was already submitted.
    ///
    /// - Parameters:
    ///   - file: The call site, for a rejection report.
    ///   - line: The call site, for a rejection report.
    ///   - body: The work to run.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    package func runInlineOrHop<T: Sendable, E: Error>(
        file: StaticString, line: UInt, function: StaticString? = nil, _ body: @escaping @Sendable () throws(E) -> T
    ) async throws(E) -> T {
        if isIsolated { return try body() }
        let result: Result<T, E> = await withCheckedContinuation { continuation in
            // No result without the work: a rejection stops the process (precondition tier) rather than
            // leave the task suspended forever.
            submit(member: "run(_:)", file: file, line: line, function: function, tier: .precondition) {
                do throws(E) {
                    continuation.resume(returning: .success(try body()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }
}

/// The check verbs of a scheduler that is also an actor's executor (``SerialQueueScheduler``,
/// ``ThreadScheduler``, or a custom scheduler conforming to `SerialExecutor`).
///
/// `SerialExecutor` has `assertIsolated` and `preconditionIsolated` of its own, with the same
/// signatures; these members are the more specific ones, so `scheduler.preconditionIsolated()` means
/// the library's check on every scheduler, decided from the library's context first. They forward to
/// the one implementation behind every scheduler's verbs (`SerialScheduler+Isolation.swift`).
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
extension SerialScheduler where Self: SerialExecutor {
    /// Reports a violation when the calling code does not run on this scheduler — debug tier: the same
    /// check as on every ``SerialScheduler``.
    ///
    /// - Parameters:
    ///   - message: Added to the report's detail line; evaluated only for a report.
    ///   - file: The call site, for the report.
    ///   - line: The call site, for the report.
    public func assertIsolated(
        _ message: @autoclosure () -> String = String(), file: StaticString = #fileID, line: UInt = #line
    ) {
        #if SCHEDULABLE_CHECKS
        checkIsolation("assertIsolated()", tier: .assert, message, file, line)
        #endif
    }

    /// Reports a violation and stops the process when the calling code does not run on this scheduler —
    /// always on: the same check as on every ``SerialScheduler``.
    ///
    /// - Parameters:
    ///   - message: Added to the report's detail line; evaluated only for a report.
    ///   - file: The call site, for the report.
    ///   - line: The call site, for the report.
    public func preconditionIsolated(
        _ message: @autoclosure () -> String = String(), file: StaticString = #fileID, line: UInt = #line
    ) {
        checkIsolation("preconditionIsolated()", tier: .precondition, message, file, line)
    }
}

/// A scheduler that can also be an actor's executor: ``SerialQueueScheduler`` and ``ThreadScheduler``.
///
/// `SerialExecutor` has check members of its own with the names of the library's check verbs
/// (`assertIsolated`, `preconditionIsolated`); the members below answer for both, from the library's
/// context first, so `scheduler.preconditionIsolated()` means one thing on every scheduler.
public protocol ExecutorScheduler: SerialScheduler, SerialExecutor {}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
extension ExecutorScheduler {
    /// Reports a violation when the calling code does not run on this scheduler — debug tier (see
    /// ``SerialScheduler/assertIsolated(_:file:line:)``).
    ///
    /// - Parameters:
    ///   - message: Added to the report's detail line.
    ///   - file: The call site, for the report.
    ///   - line: The call site, for the report.
    public func assertIsolated(
        _ message: @autoclosure () -> String = String(), file: StaticString = #fileID, line: UInt = #line
    ) {
        #if SCHEDULABLE_CHECKS
        checkIsolation("assertIsolated()", tier: .assert, message(), file, line)
        #endif
    }

    /// Reports a violation and stops the process when the calling code does not run on this scheduler
    /// (see ``SerialScheduler/preconditionIsolated(_:file:line:)``).
    ///
    /// - Parameters:
    ///   - message: Added to the report's detail line.
    ///   - file: The call site, for the report.
    ///   - line: The call site, for the report.
    public func preconditionIsolated(
        _ message: @autoclosure () -> String = String(), file: StaticString = #fileID, line: UInt = #line
    ) {
        checkIsolation("preconditionIsolated()", tier: .precondition, message(), file, line)
    }
}

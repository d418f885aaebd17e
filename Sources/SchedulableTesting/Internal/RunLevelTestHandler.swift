import Schedulable
import Testing

/// Where a failed Swift isolation check goes when no test can be told from the thread that made it:
/// in a Swift Testing run, a GCD worker running a completion handler carries none of the test's
/// task-locals (XCTest's running test is always known). Recorded as an issue of no test: Swift Testing
/// lists it after the tests and fails the run, with the site and the tests with `.confinementChecked`
/// running then (``RunningTestScopes``), so the run goes on and is never silent.
final class RunLevelTestHandler: AutomaticTestHandler {
    static let shared = RunLevelTestHandler()

    /// A place in no test, for an issue that has no site of its own.
    private static let noTest = Testing.SourceLocation(fileID: "SchedulableTesting/RunLevelTestHandler.swift", filePath: #filePath, line: #line, column: 1)

    func handle(_ violation: ConfinementViolation) {
        guard violation.tier != .note else { return }
        let location = Testing.SourceLocation(bestFor: violation, near: Self.noTest)
        TestIssueRecording.record(
            violation.description + "\n  detected:        on a thread no test can be told from (no Swift Testing "
                + "task-local reaches a GCD worker): an issue of the run\n" + RunningTestScopes.line,
            at: location
        )
    }
}

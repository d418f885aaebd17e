import Schedulable
import Testing

/// Where the code that made a wrong-context access ran, seen from the Swift Testing test case that
/// records the failure: in that test's task tree or not.
///
/// What it rests on: Swift Testing's `Test.current` is a task-local, read on the violating thread when
/// the violation is detected. Task-locals are inherited by child tasks (`async let`, task groups) and by
/// `Task {}`, not by `Task.detached`, threads or dispatch queues. Swift has no API to ask a task for its
/// parent, so this cannot tell the test's own task from a child task or from a `Task {}` made in them,
/// nor a detached task from a task made outside any test; and it says nothing under XCTest, which has
/// no task-local test.
package enum IntruderTestTree: Sendable, Hashable {
    /// `Test.current` was the recording test case: the test's task, a child task, or a `Task {}` made
    /// in them.
    case thisTest
    /// `Test.current` was another test (or another case of a parameterized test), named here.
    case anotherTest(String)
    /// In a task that carries no test: `Task.detached`, or a task made outside every test.
    case taskOutsideTests
    /// Not in a task: a thread or a dispatch queue (a completion handler, a scheduler's work).
    case noTask

    /// Reads where the calling code runs, relative to `recording`. Call it on the violating thread,
    /// while the violation is being handled (the handler runs there).
    ///
    /// - Parameters:
    ///   - recording: The test case that records the failure.
    ///   - intruder: The violation's intruder side (whether the access ran in a task).
    /// - Returns: Where the access ran.
    static func here(recording: TestCaseKey, intruder: ConfinementViolation.Intruder) -> Self {
        guard let test = Test.current else { return intruder.inTask ? .taskOutsideTests : .noTask }
        let current = TestCaseKey(current: test)
        return current == recording ? .thisTest : .anotherTest(test.name)
    }

    /// Reads where the calling code runs when the violation has an intruder side (a wrong-context
    /// access) and a test case records it; `nil` otherwise.
    ///
    /// - Parameters:
    ///   - violation: The violation being handled.
    ///   - recording: The test case that records the failure, if any.
    /// - Returns: Where the access ran, or `nil`.
    static func here(for violation: ConfinementViolation, recording: TestCaseKey?) -> Self? {
        guard let recording, let intruder = violation.intruder else { return nil }
        return here(recording: recording, intruder: intruder)
    }

    /// `text`, then the line of `tree` when there is one.
    static func appending(_ tree: Self?, to text: String) -> String {
        guard let tree else { return text }
        return text + "\n" + tree.line
    }

    /// The failure's line, aligned with the report's.
    var line: String {
        let label = "  intruder's test: "
        switch self {
        case .thisTest:
            return label + "this test: it ran in the test's task tree (the test's task, a child task, or a Task {} "
                + "made in them)"
        case .anotherTest(let name):
            return label + "another, \(name): it ran in that test's task tree, not in this test's"
        case .taskOutsideTests:
            return label + "none: a task outside the test's task tree (Task.detached, or made outside the test)"
        case .noTask:
            return label + "none: no task (a thread or a dispatch queue), so outside the test's task tree"
        }
    }
}

import Schedulable
import XCTest

/// An `XCTestCase` whose tests fail, instead of stopping the test process, when their protected objects
/// are used from the wrong context — from any thread.
///
/// ```swift
/// final class UploadTests: ConfinementCheckedTestCase {
///     func testUploadsFinishOnTheUploadQueue() { … }
/// }
/// ```
///
/// Protected objects created while a test runs (in `setUp`, the test method, or `tearDown`) report to
/// that test. Each violation becomes one failure, recorded when the test method and `tearDown` have
/// finished — XCTest's failure recording is not safe to call from the background thread that detected
/// it — with the whole report as its description and the call site (else the owner's bind site) as
/// its location. Async test methods are covered: the task XCTest runs them in inherits the test's scope.
///
/// A violation of a test's object that arrives after the test ended (a late completion handler) is
/// printed to standard error with the test's name; it is not recorded on whichever test runs then.
///
/// Precondition-tier checks (`preconditionIsolated()`, `SchedulerBound`) still stop the process.
open class ConfinementCheckedTestCase: XCTestCase {
    /// Runs the test (with `setUp` and `tearDown`) in its own violation scope, then records the
    /// violations it caused as failures.
    open override func invokeTest() {
        let testName = name
        let collector = ConfinementViolationCollector(
            scopeDescription: "test \(testName)",
            reportLate: { violation in
                StandardError.write(
                    "Schedulable: violation of an object created by test \(testName), detected after that "
                        + "test ended (it cannot fail that test any more):\n" + violation.description + "\n"
                )
            }
        )
        collector.withScope { super.invokeTest() }
        for violation in collector.finish() {
            let location = ViolationIssueLocation(violation)
            recordFailure(
                withDescription: violation.xctestFailureDescription(),
                inFile: location?.filePath ?? "<unknown>",
                atLine: location?.line ?? 0,
                expected: true
            )
        }
    }
}

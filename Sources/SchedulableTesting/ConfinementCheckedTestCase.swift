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
/// that test. The violations of one object from one wrong context are one failure (one bug: a wrong
/// call, then the properties it touched), recorded when the test method and `tearDown` have finished —
/// XCTest's failure recording is not safe to call from the background thread that detected it — with
/// the report and every access in order as its description, located at the first violation's failure
/// site: for a method guard the line that called the method, for a property the access site. Async test methods are covered: the task XCTest runs them in inherits the test's scope.
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
        for failure in GroupedFailure.grouping(collector.finishNotingWhere()) {
            recordConfinementFailure(failure.description(detectedElsewhere: nil), at: failure.location)
        }
    }
}

extension XCTestCase {
    /// Records `description` as a failure of this test at `location` (an assertion failure).
    ///
    /// Apple's XCTest deprecates `recordFailure(withDescription:inFile:atLine:expected:)` for
    /// `record(_: XCTIssue)`; swift-corelibs-XCTest (Linux, Windows) has no `XCTIssue`, only the former.
    func recordConfinementFailure(_ description: String, at location: ViolationIssueLocation?) {
        #if canImport(ObjectiveC)
        var issue = XCTIssue(type: .assertionFailure, compactDescription: description)
        if let location {
            issue.sourceCodeContext = XCTSourceCodeContext(
                location: XCTSourceCodeLocation(filePath: location.filePath, lineNumber: location.line)
            )
        }
        record(issue)
        #else
        recordFailure(
            withDescription: description, inFile: location?.filePath ?? "<unknown>", atLine: location?.line ?? 0,
            expected: true
        )
        #endif
    }
}

import Dispatch
import Schedulable
import Testing

/// A Swift Testing trait that turns schedule violations into issues of the test that caused them.
///
/// Apply it to a test or a suite (every test of the suite, and of its nested suites, gets it):
///
/// ```swift
/// @Test(.confinementChecked)
/// func uploadsFinishOnTheUploadQueue() async throws { … }
///
/// @Suite(.confinementChecked)
/// struct UploadTests { … }
/// ```
///
/// For each test case, protected objects created while it runs report to that test case, from any
/// thread. The process keeps running. Violations are held and recorded from the test's task when the
/// test case ends, one issue per bug: the violations of one object from one wrong context (a wrong
/// call, then the properties it touched, then a read in an `#expect`) are one issue, whose comment is
/// the first report followed by every access in order, and whose source location is the first
/// violation's failure site — for a method guard the line that called the method, for a property the
/// access site (else the guard, else where the owner was bound).
///
/// - Recording at the end is what lets one issue list every access. It also means a `withKnownIssue`
///   around the offending line does not see it: assert on expected violations with
///   `expectConfinementViolation` or `collectConfinementViolations`.
/// - Swift Testing attributes an issue recorded off the test's task to no test at all (swift-testing
///   issue #480), so recording from the test's task is also what makes a test whose background work
///   touched its objects wrongly fail — and no other test running in parallel.
/// - A violation of the test's objects that arrives after the test case ended (a late completion
///   handler) is printed to standard error with the test's name and recorded as an issue of no
///   test, which fails the run.
/// - An issue of the run (a failed Swift isolation check on a GCD worker, which no test's task-local
///   reaches; a late violation) names the test cases with this trait running at that moment: Swift
///   Testing has no list of running tests, so tests without the trait are not named.
/// - Objects created outside the test (globals, shared fixtures) did not capture the test, so their
///   violations are the test's only when detected on the test's own task; elsewhere they go to the
///   process-wide handler.
/// - Precondition-tier checks (`preconditionIsolated()`, `SchedulerBound`) still stop the process:
///   they guard memory safety. Test them with exit tests.
/// - Notes (a `present()` that had to wait, work cancelled at shutdown) become warnings of the test
///   case, which fail nothing.
public struct ConfinementCheckedTrait: TestTrait, SuiteTrait, TestScoping {
    /// Creates the trait.
    ///
    /// Spell it `.confinementChecked`.
    public init() {}

    /// `true`: on a suite, the trait reaches the tests of nested suites too.
    public var isRecursive: Bool { true }

    /// A scope around each test case (each argument of a parameterized test), never one around a
    /// whole suite or test function, so that every test case has its own collector.
    ///
    /// - Parameters:
    ///   - test: The test or suite.
    ///   - testCase: The test case, or `nil` for the suite or function as a whole.
    /// - Returns: The trait for a test case, else `nil`.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    /// Runs one test case with its own collector, then records what the collector held.
    ///
    /// - Parameters:
    ///   - test: The test.
    ///   - testCase: The test case.
    ///   - function: The test case's body (and the scopes of the traits inside this one).
    /// - Throws: What `function` throws.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await Self.withTestScope(
            testName: "test \(test.name) at \(test.sourceLocation.fileID):\(test.sourceLocation.line)",
            testLocation: test.sourceLocation,
            function
        )
    }

    /// The scope itself, apart from the `Test` value it needs only for names and locations (exit tests
    /// run it directly: in their child process there is no current test). `package`, so the
    /// package's tests reach it without `@testable` (release test builds are not testable).
    ///
    /// - Parameters:
    ///   - testName: Names the test in notes about late violations.
    ///   - testLocation: The test's location: the fallback location of issues, and the source of a full
    ///     path for locations in the test's own file.
    ///   - function: The test case's body.
    package static func withTestScope(
        testName: String, testLocation: Testing.SourceLocation,
        _ function: @Sendable () async throws -> Void
    ) async throws {
        let collector = ConfinementViolationCollector(
            scopeDescription: testName,
            reportLate: { violation in
                reportAfterTestEnded(violation, testName: testName, testLocation: testLocation)
            }
        )
        // Recorded at the end, grouped (one object from one wrong context is one bug, one issue), and
        // even when the body throws: those violations happened in this test.
        defer {
            for failure in GroupedFailure.grouping(collector.finishNotingWhere()) {
                TestIssueRecording.record(
                    failure.description(detectedElsewhere: "off the test's task; recorded when the test case ended"),
                    at: Testing.SourceLocation(bestFor: failure.group.first, near: testLocation)
                )
            }
        }
        try await RunningTestScopes.running(testName) { try await collector.withScope(function) }
    }
}

extension Trait where Self == ConfinementCheckedTrait {
    /// Makes schedule violations of the test's objects fail that test (from any thread), instead of stopping
    /// the test process.
    ///
    /// See ``ConfinementCheckedTrait``.
    public static var confinementChecked: Self { ConfinementCheckedTrait() }
}

/// A violation of a test's object after the test ended cannot fail that test any more. It must not fail
/// whichever test runs now either, so it is printed with the finished test's name and recorded as an
/// issue of no test, which fails the run.
private func reportAfterTestEnded(
    _ violation: ConfinementViolation, testName: String, testLocation: Testing.SourceLocation
) {
    let note = "Schedulable: violation of an object created by \(testName), detected after that test ended"
    StandardError.write(note + ":\n" + violation.description + "\n")
    let comment = note + "\n" + violation.description + "\n" + RunningTestScopes.line
    let location = Testing.SourceLocation(bestFor: violation, near: testLocation)
    if Test.current == nil {
        // Off every test's task (the usual case: a GCD thread): recorded here, it belongs to no test.
        TestIssueRecording.record(comment, at: location)
    } else {
        // On another test's task, recording here would fail that test; a GCD thread carries no
        // test's task-local context.
        DispatchQueue.global().async {
            TestIssueRecording.record(comment, at: location)
        }
    }
}

import Schedulable
import Testing

/// One Swift Testing test case, as SchedulableTesting attributes issues: the test and, for a
/// parameterized test, its arguments. The issues of one test case are recorded on it alone.
package struct TestCaseKey: Hashable, Sendable {
    /// The test.
    package var test: Test.ID
    /// The test case's arguments as Swift Testing describes them; `nil` for a test without any.
    package var testCase: String?

    /// The test case the calling task runs in, or `nil` off every test (a GCD thread, a task
    /// made outside tests).
    package static var current: TestCaseKey? { Test.current.map(TestCaseKey.init(current:)) }

    /// The key of `test` and the current test case.
    ///
    /// - Parameter test: The current test.
    init(current test: Test) {
        self.test = test.id
        self.testCase = Test.Case.current.flatMap { $0.isParameterized ? String(reflecting: $0) : nil }
    }
}

/// The one place SchedulableTesting records a Swift Testing issue: a violation, a note (as a
/// warning), a helper whose body caused none.
///
/// Why one place: so that this package's own tests of the recording paths can capture what a test
/// would get (``TestIssueCapture``) and assert on it, instead of wrapping the code in
/// `withKnownIssue` — which Swift Testing prints, report and all, in every green run, so a real
/// report could not be told from the expected ones. Users capture the violations they expect with
/// `expectConfinementViolation`, `collectConfinementViolations` and the XCTest assertions, which
/// record nothing.
package enum TestIssueRecording {
    /// Records `comment` as an issue of the current test case — or hands it to the capture that
    /// claims that test case (or, off every test, the issues of no test).
    ///
    /// - Parameters:
    ///   - comment: The issue's text.
    ///   - severity: `.error` fails the test; `.warning` (notes) does not.
    ///   - location: Where the issue points.
    static func record(_ comment: String, severity: TestIssueSeverity = .error, at location: Testing.SourceLocation) {
        if TestIssueCapture.claim(comment, severity: severity, at: location) { return }
        #if compiler(>=6.3)
        // `Issue.Severity` and this overload are public from Swift Testing 6.3 (ST-0013), where the
        // overload without a severity is deprecated.
        Issue.record(Comment(rawValue: comment), severity: severity == .error ? .error : .warning, sourceLocation: location)
        #else
        // Swift 6.2 (Xcode 26.0–26.3) has severities only as `@_spi(Experimental)`: a failure is
        // recorded as one, a warning is printed, so it fails nothing, as it would not on 6.3.
        switch severity {
        case .error: Issue.record(Comment(rawValue: comment), sourceLocation: location)
        case .warning: StandardError.write("warning: \(location.fileID):\(location.line): \(comment)\n")
        }
        #endif
    }
}

/// How much an issue SchedulableTesting records weighs: Swift Testing's `Issue.Severity`, which is
/// public only from Swift 6.3, so the package's own spelling of it works on 6.2 too.
package enum TestIssueSeverity: Sendable, Hashable {
    /// A note that fails nothing.
    case warning
    /// A failure of the test.
    case error
}

/// Captures the issues SchedulableTesting would record on one test case (or on no test), for this
/// package's tests of the recording paths. Attribution is Swift Testing's own: an issue is captured
/// when it is recorded in the context of the capturing test case — the same task-locals that
/// `Issue.record` reads — so a capture also proves which test an issue would have failed.
package final class TestIssueCapture: Sendable {
    /// One captured issue.
    package struct Recorded: Sendable {
        /// The issue's text.
        package var comment: String
        /// Whether it would fail the test.
        package var severity: TestIssueSeverity
        /// Where it points.
        package var sourceLocation: Testing.SourceLocation
    }

    /// The captures running now, by test case; `nil` is the capture of issues of no test.
    private static let active = LockedValue<[TestCaseKey?: TestIssueCapture]>([:])
    private let recorded = LockedValue<[Recorded]>([])

    private init() {}

    /// Runs `body` and returns the issues SchedulableTesting recorded on the calling test case while
    /// it ran (from any thread), instead of recording them. Captures do not nest for one test case.
    ///
    /// - Parameters:
    ///   - isolation: The caller's isolation, kept for `body`.
    ///   - body: The code whose issues to capture; it gets the capture, to look at what was recorded
    ///     so far.
    /// - Returns: The issues, in the order they were recorded.
    package static func capturing(
        isolation: isolated (any Actor)? = #isolation, _ body: (TestIssueCapture) async throws -> Void
    ) async rethrows -> [Recorded] {
        try await capturing(key: TestCaseKey.current, body)
    }

    /// Runs `body` and returns the issues SchedulableTesting recorded on no test while it ran (a
    /// violation detected after its test ended), instead of recording them.
    ///
    /// - Parameters:
    ///   - isolation: The caller's isolation, kept for `body`.
    ///   - body: The code whose issues to capture; it gets the capture.
    /// - Returns: The issues, in the order they were recorded.
    package static func capturingIssuesOfNoTest(
        isolation: isolated (any Actor)? = #isolation, _ body: (TestIssueCapture) async throws -> Void
    ) async rethrows -> [Recorded] {
        try await capturing(key: nil, body)
    }

    private static func capturing(
        isolation: isolated (any Actor)? = #isolation, key: TestCaseKey?, _ body: (TestIssueCapture) async throws -> Void
    ) async rethrows -> [Recorded] {
        let capture = TestIssueCapture()
        active.withLock { active in
            precondition(active[key] == nil, "TestIssueCapture.capturing: captures do not nest for one test case")
            active[key] = capture
        }
        defer { _ = active.withLock { $0.removeValue(forKey: key) } }
        try await body(capture)
        return capture.all
    }

    /// The synchronous form of ``capturing(isolation:_:)``.
    ///
    /// - Parameter body: The code whose issues to capture; it gets the capture.
    /// - Returns: The issues, in the order they were recorded.
    package static func capturing(_ body: (TestIssueCapture) throws -> Void) rethrows -> [Recorded] {
        let key = TestCaseKey.current
        let capture = TestIssueCapture()
        active.withLock { active in
            precondition(active[key] == nil, "TestIssueCapture.capturing: captures do not nest for one test case")
            active[key] = capture
        }
        defer { _ = active.withLock { $0.removeValue(forKey: key) } }
        try body(capture)
        return capture.all
    }

    /// The issues captured so far (a test may look while its capture runs).
    package var all: [Recorded] { recorded.withLock { $0 } }

    /// Hands an issue to the capture of the current test case, if one runs. Returns whether it did.
    static func claim(_ comment: String, severity: TestIssueSeverity, at location: Testing.SourceLocation) -> Bool {
        let key = TestCaseKey.current
        guard let capture = active.withLock({ $0[key] }) else { return false }
        capture.recorded.withLock { $0.append(Recorded(comment: comment, severity: severity, sourceLocation: location)) }
        return true
    }
}

import Dispatch
import Schedulable
import SchedulableTesting
import Testing

/// Attribution under parallel tests: a violation caused by one test's objects fails that test and
/// never another, even when it is detected on a GCD thread while the other tests run.
///
/// Each test case below uses the real `.confinementChecked` trait and causes violations of its own
/// objects on GCD threads, interleaved with every other case. Around the trait, ``OwnViolationsOnly``
/// captures the issues the trait records in this case's context (the task-locals Swift Testing
/// attributes an issue by) and expects exactly this case's own: a violation of another case's object
/// attributed here, or a missing one, fails this case. An issue attributed to no test is not captured
/// and fails the whole run. Nothing is printed: the issues never reach Swift Testing's output.
@Suite struct ParallelAttributionTests {
    static let caseCount = 32
    static let violationsPerCase = 4

    // Swift Testing nests trait scopes in the order the traits are written: `.ownViolationsOnly` must
    // enclose `.confinementChecked`, whose issues are recorded as its scope ends. (Swap them and every
    // case fails: the issues are then recorded outside the capture.)
    @Test(.requiresDebugChecks, .ownViolationsOnly, .confinementChecked, arguments: 0..<caseCount)
    func eachParallelTestFailsOnlyForItsOwnBackgroundViolations(_ index: Int) async throws {
        let probe = try #require(OwnViolationsOnly.Probe.current, "OwnViolationsOnly must wrap the trait")
        let owner = SerialQueueScheduler(label: OwnViolationsOnly.Probe.ownerLabel(index))
        probe.expect(owner: owner.label, violations: Self.violationsPerCase)

        AttributionStatistics.shared.caseStarted()
        defer { AttributionStatistics.shared.caseEnded() }
        // Give the other cases a chance to be running too, so that detections interleave.
        await AttributionStatistics.shared.waitForCompany(atLeast: 2, timeout: .seconds(2))
        for _ in 0..<Self.violationsPerCase {
            // A counter per violation: one object from one context is one issue (one bug), and two
            // uses of one counter may land on one pool thread or on two.
            let counter = Counter(owner: owner)
            await onBackgroundThread {
                counter.increment()
                AttributionStatistics.shared.violationDetected(index: index)
            }
            try await Task.sleep(for: .milliseconds(Int.random(in: 1...15)))
        }
        probe.note(AttributionStatistics.shared.summary(index: index))
    }
}

/// Wraps a test case so that the issues recorded inside it are expected, but only the ones that name
/// the case's own owner, and exactly as many as the case caused. Test-only.
struct OwnViolationsOnly: TestTrait, TestScoping {
    final class Probe: Sendable {
        @TaskLocal static var current: Probe?

        static func ownerLabel(_ index: Int) -> String { "attribution.case\(index)." }

        private struct Expectation: Sendable {
            var owner: String?
            var violations = 0
            var statistics = ""
        }

        private let state = LockedValue(Expectation())

        func expect(owner: String, violations: Int) {
            state.withLock {
                $0.owner = owner
                $0.violations = violations
            }
        }

        /// How the case interleaved with the others, named in a failure.
        func note(_ statistics: String) {
            state.withLock { $0.statistics = statistics }
        }

        /// Whether an issue is one of this case's own violations. The label ends with a dot, so
        /// "case1." never matches "case12.".
        func isOwn(_ issue: TestIssueCapture.Recorded) -> Bool {
            state.withLock { state in
                guard let owner = state.owner else { return false }
                return issue.severity == .error && issue.comment.contains("expected owner:  queue \"\(owner)\"")
            }
        }

        var expected: Int { state.withLock { $0.violations } }
        var statistics: String { state.withLock { $0.statistics } }
    }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let probe = Probe()
        // Each case causes violations of its own objects on purpose: captured, not printed.
        let issues = try await TestIssueCapture.capturing { _ in
            try await Probe.$current.withValue(probe) { try await function() }
        }
        let foreign = issues.filter { !probe.isOwn($0) }
        #expect(foreign.isEmpty, "only this case's own violations are attributed to it: \(foreign.map(\.comment))")
        #expect(
            issues.count == probe.expected,
            "every violation this case caused is recorded on it, once (\(probe.statistics))"
        )
    }
}

extension Trait where Self == OwnViolationsOnly {
    static var ownViolationsOnly: Self { OwnViolationsOnly() }
}

/// How much the attribution cases overlapped: evidence that detections happened while other cases ran.
final class AttributionStatistics: Sendable {
    static let shared = AttributionStatistics()

    private struct State: Sendable {
        var running = 0
        var maxRunning = 0
        var othersRunningAtDetection: [Int: [Int]] = [:]
    }

    private let state = LockedValue(State())

    func caseStarted() {
        state.withLock {
            $0.running += 1
            $0.maxRunning = max($0.maxRunning, $0.running)
        }
    }

    func caseEnded() { state.withLock { $0.running -= 1 } }

    func waitForCompany(atLeast count: Int, timeout: Duration) async {
        let deadline = ContinuousClock.now + timeout
        while state.withLock({ $0.running }) < count, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Called on the GCD thread, right after the violation was detected there.
    func violationDetected(index: Int) {
        state.withLock { $0.othersRunningAtDetection[index, default: []].append($0.running - 1) }
    }

    func summary(index: Int) -> String {
        state.withLock {
            "attribution case \(index): \($0.othersRunningAtDetection[index, default: []].count) violations detected "
                + "on GCD threads while \($0.othersRunningAtDetection[index, default: []]) other cases were running "
                + "(at most \($0.maxRunning) cases at once so far)"
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Schedulable
import XCTest

/// The automatic handler of one XCTest test: a violation of the test's objects (or of work the test
/// handed off) fails that test, from any thread, with no base class.
///
/// XCTest runs one test at a time in a process, so the test that is running is the one to capture. An
/// observer registered when the test binary loads makes a handler as each test starts and adds a
/// teardown block to the test. Violations are held and recorded by that block, on the test's thread,
/// after the test method: XCTest's failure recording is not safe to call from another thread, and one
/// bug is one failure — the violations of one object from one wrong context (a wrong call, then the
/// properties it touched, then the test's assertion reading one) become a single failure listing every
/// access, located at the first one's failure site (for a method guard, the line that called it).
///
/// A violation that arrives after the teardown block ran cannot fail its test any more, and recording
/// it on whichever test runs now would blame the wrong one: it is printed with the test's name, and the
/// test process exits with a failure status at its end (``LateTestViolations``).
final class XCTestTestHandler: AutomaticTestHandler {
    private enum Phase {
        case running(held: [HeldViolation])
        case ended
    }

    /// The handler of the test that is running, if any.
    static var running: XCTestTestHandler? { current.withLock { $0 } }
    private static let current = LockedValue<XCTestTestHandler?>(nil)

    // XCTest's objects are not Sendable; the test case is used only on its own thread (the teardown
    // block, and violations detected there).
    nonisolated(unsafe) private let testCase: XCTestCase
    private let testThread: pthread_t
    private let testName: String
    private let phase = LockedValue(Phase.running(held: []))

    private init(testCase: XCTestCase) {
        self.testCase = testCase
        self.testThread = pthread_self()
        self.testName = testCase.name
    }

    /// Registers the observer that gives every test its handler; called once, when the binary loads.
    static func startObserving() {
        XCTestObservationCenter.shared.addTestObserver(Observer())
    }

    func handle(_ violation: ConfinementViolation) {
        // A note reports nothing wrong, and XCTest has no issue that fails nothing: it stays out of
        // the test's output (collect it with withConfinementViolationHandler to look at it).
        if violation.tier == .note { return }
        // A helper running in this test claims what reaches the test off every task (RunningHelpers).
        if let helper = RunningHelpers.claimant(for: self) {
            return helper.receive(violation, allowsDelegation: true)
        }
        // The process stops after this handler: XCTest will print neither the failure nor its summary.
        if violation.tier == .precondition {
            StandardError.write(AlwaysOnTierNote.text(for: violation, in: "test \(testName)"))
        }
        let elsewhere = pthread_equal(pthread_self(), testThread) == 0
        let isLate = phase.withLock { phase -> Bool in
            guard case .running(var held) = phase else { return true }
            held.append(HeldViolation(violation, elsewhere: elsewhere))
            phase = .running(held: held)
            return false
        }
        if isLate { LateTestViolations.report(violation, testName: testName) }
    }

    /// Records what was held, one failure per object and wrong context, on the test's thread; from now
    /// on violations are late.
    private func endAndRecordHeld() {
        let held = phase.withLock { phase -> [HeldViolation] in
            defer { phase = .ended }
            if case .running(let held) = phase { return held }
            return []
        }
        for failure in GroupedFailure.grouping(held) {
            let location = failure.location
            testCase.recordFailure(
                withDescription: failure.description(
                    detectedElsewhere: "off the test's thread; recorded when the test method ended"
                ),
                inFile: location?.filePath ?? "<unknown>",
                atLine: location?.line ?? 0,
                expected: true
            )
        }
    }

    #if canImport(ObjectiveC)
    private typealias ObserverBase = NSObject
    #else
    private class ObserverBase {}
    #endif

    private final class Observer: ObserverBase, XCTestObservation {
        func testCaseWillStart(_ testCase: XCTestCase) {
            let handler = XCTestTestHandler(testCase: testCase)
            XCTestTestHandler.current.withLock { $0 = handler }
            testCase.addTeardownBlock { handler.endAndRecordHeld() }
        }

        func testCaseDidFinish(_ testCase: XCTestCase) {
            let handler = XCTestTestHandler.current.withLock { $0.take() }
            // Normally the teardown block ended it; a test that was skipped before running ends here.
            handler?.phase.withLock { $0 = .ended }
        }
    }
}

// The handler holds a non-Sendable XCTestCase, touched only on the test's thread (see above); its own
// state is behind a lock.
extension XCTestTestHandler: @unchecked Sendable {}

/// Violations that arrived after their test ended: each is printed with the test's name at once, and
/// the process's exit status becomes a failure when it exits, so the run fails without blaming the
/// test that happens to be running.
enum LateTestViolations {
    private static let tests = LockedValue<[String]>([])

    static func report(_ violation: ConfinementViolation, testName: String) {
        StandardError.write(
            "Schedulable: violation of an object of test \(testName), detected after that test ended (it "
                + "cannot fail that test any more; the test run will exit with a failure):\n"
                + violation.description + "\n"
        )
        let isFirst = tests.withLock { tests -> Bool in
            tests.append(testName)
            return tests.count == 1
        }
        if isFirst { ProcessExitHook.add(.testRun) { LateTestViolations.failTheRun() } }
    }

    /// At exit: the run's own status said nothing of these violations, so it is replaced.
    private static func failTheRun() {
        let names = tests.withLock { $0 }
        StandardError.write(
            "Schedulable: \(names.count) \(names.count == 1 ? "violation" : "violations") arrived after "
                + "their test ended (\(Set(names).sorted().joined(separator: ", "))); exiting with a failure\n"
        )
        fflush(nil)
        _exit(EXIT_FAILURE)
    }
}

extension Optional {
    /// Returns the value and leaves `nil`.
    fileprivate mutating func take() -> Wrapped? {
        defer { self = nil }
        return self
    }
}

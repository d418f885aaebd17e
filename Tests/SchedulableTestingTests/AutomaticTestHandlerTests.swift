import Dispatch
import Schedulable
import SchedulableTesting
import Testing
import XCTest

/// The automatic handlers in this process (it links SchedulableTesting), with no trait: the failures
/// they record are caught here so that the tests can count them. Which tests fail in a real run is
/// checked in child processes by ``AutomaticTestFailureTests``.
@Suite struct AutomaticTestHandlerTests {
    static let repetitions = 200

    /// Each off-task violation is on the test before the detecting thread goes on, every time. The
    /// capture claims only issues recorded in this test case's context, so it also proves that each
    /// one is attributed to this test. A counter per run: each is a bug of its own, one failure.
    @Test(.requiresDebugChecks) func offTaskViolationsAreRecordedOnTheTestBeforeTheDetectingThreadGoesOn() async {
        let owner = SerialQueueScheduler(label: "automatic.off-task.")
        let countsAfterEachDetection = LockedValue<[Int]>([])
        let issues = await TestIssueCapture.capturing { capture in
            #expect(ConfinementSystem.scopedHandler is any AutomaticTestHandler)
            for _ in 0..<Self.repetitions {
                let counter = Counter(owner: owner)
                await onBackgroundThread {
                    counter.increment()
                    let recorded = capture.all.count
                    countsAfterEachDetection.withLock { $0.append(recorded) }
                }
            }
        }
        #expect(issues.count == Self.repetitions)
        #expect(countsAfterEachDetection.withLock { $0 } == Array(1...Self.repetitions))
        #expect(issues.allSatisfy { $0.severity == .error })
        #expect(issues.allSatisfy { $0.comment.contains("expected owner:  queue \"automatic.off-task.\"") })
        #expect(issues.allSatisfy { $0.comment.contains("detected:        off the test's task (test offTaskViolations") })
    }

    /// On the test's own task the issue is recorded in place — before the offending line returns, so
    /// a `withKnownIssue` around that line sees it — even though the object was created outside.
    @Test(.requiresDebugChecks) func aViolationOnTheTestsOwnTaskIsRecordedInPlace() {
        let counter = Counter(owner: SerialQueueScheduler(label: "automatic.own-task."))
        let issues = TestIssueCapture.capturing { capture in
            counter.increment()
            #expect(capture.all.count == 1, "recorded before the offending line returned")
        }
        #expect(issues.count == 1)
        #expect(issues.first?.comment.contains("detected:        off the test's task") == false)
    }

    /// A note (here: a `present()` that had to wait) goes to the test that caused it as a warning —
    /// never a failure, never a line on the console.
    @Test func aNoteBecomesAWarningOfTheTestNotAFailureOrOutput() throws {
        let worker = ThreadScheduler(label: "automatic.note.worker")
        defer { worker.shutdown() }
        let release = DispatchSemaphore(value: 0)
        let issues = try TestIssueCapture.capturing { _ in
            let future = worker.future { () -> Int in
                release.wait()
                return 1
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { release.signal() }
            let value = try future.present()
            #expect(value == 1)
        }
        #expect(issues.count == 1)
        #expect(issues.first?.severity == .warning)
        #expect(issues.first?.comment.hasPrefix("Schedulable: note: ScheduledFuture<Int>.present() had to wait") == true)
    }

    /// An explicit scope wins over the test's automatic handler, for objects created before it too.
    @Test(.requiresDebugChecks) func anExplicitScopeWinsOverTheAutomaticHandler() {
        let counter = Counter(owner: SerialQueueScheduler(label: "automatic.explicit."))
        let violations = collectConfinementViolations { counter.increment() }
        #expect(violations.count == 1)
    }
}

/// XCTest: a violation detected on another thread is held and recorded on the test's thread by the
/// teardown block the observer added; `tearDown()` runs after it and checks what was recorded.
final class AutomaticXCTestHandlerTests: XCTestCase {
    private var recorded: [String] = []
    private var expectsHeldFailures = 0

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if expectsHeldFailures > 0, description.contains("automatic.xctest.") {
            recorded.append(description)
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    override func tearDown() {
        if expectsHeldFailures > 0 {
            XCTAssertEqual(recorded.count, expectsHeldFailures)
            XCTAssertTrue(recorded.allSatisfy { $0.contains("off the test's thread; recorded when the test method ended") })
            // XCTest has no task-local test: its failures cannot say whether the intruder ran in the test's tasks.
            XCTAssertFalse(recorded.contains { $0.contains("intruder's test:") })
        }
        super.tearDown()
    }

    func testViolationsOnOtherThreadsFailTheTestAfterItsMethod() throws {
        try XCTSkipUnless(ConfinementSystem.debugChecksCompiledIn, "the debug-tier checks are compiled out of this build")
        let owner = SerialQueueScheduler(label: "automatic.xctest.")
        XCTAssertTrue(ConfinementSystem.scopedHandler is any AutomaticTestHandler)
        expectsHeldFailures = AutomaticTestHandlerTests.repetitions
        // A counter per run: one object from one context is one failure.
        for _ in 0..<AutomaticTestHandlerTests.repetitions {
            let counter = Counter(owner: owner)
            onBackgroundThread { counter.increment() }
        }
        // Held, not yet recorded: XCTest's recording is not safe off the test's thread.
        XCTAssertEqual(recorded.count, 0)
    }
}

import Dispatch
import Schedulable
import SchedulableTesting
import Testing
#if !canImport(ObjectiveC)
import XCTest
#endif

/// What stops the process, checked in child processes (exit tests) with the report matched on stderr.
@Suite struct ProcessExitTests {
    /// Without SchedulableTesting, a violation in a debug build reaches the default handler, which
    /// prints the whole report and stops the process — in a test run, the whole run.
    @Test(.exitTest, .enabled(
        if: ConfinementSystem.debugChecksCompiledIn && ConfinementSystem.handler is TrapViolationHandler,
        "the default handler traps only in debug builds (and without SCHEDULABLE_CONFINEMENT)"
    ))
    func withoutTheHelpersTheDefaultHandlerPrintsTheReportAndStopsTheProcess() async throws {
        let result = try await #require(
            processExitsWith: .failure, observing: [\.standardErrorContent]
        ) {
            let owner = SerialQueueScheduler(label: "exit-tests.default")
            let counter = Counter(owner: owner)
            onBackgroundThread { counter.increment() }
            // Not reached: the default handler traps on the GCD thread.
            print("still running")
        }
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("Schedulable: Counter.increment() used outside its owner"))
        #expect(stderr.contains("expected owner:  queue \"exit-tests.default\""))
        #expect(stderr.contains("call site:       SchedulableTestingTests/Fixtures.swift:\(Counter.incrementGuardLine)"))
    }

    /// The precondition tier guards memory safety: it stops the process even inside the trait's scope,
    /// after printing the report. (For a queue owner the core lets `dispatchPrecondition` decide before
    /// any handler runs, so the collector's own note may not appear; the report always does.)
    @Test(.exitTest) func thePreconditionTierStopsTheProcessEvenUnderTheTrait() async throws {
        let result = try await #require(
            processExitsWith: .failure, observing: [\.standardErrorContent]
        ) {
            // The child process has no current test, so the trait's scope is entered directly.
            try await ConfinementCheckedTrait.withTestScope(testName: "test preconditionChild", testLocation: #_sourceLocation) {
                let owner = SerialQueueScheduler(label: "exit-tests.precondition")
                let counter = Counter(owner: owner)
                await onBackgroundThread { counter.incrementOrStop() }
            }
        }
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("Schedulable: Counter.incrementOrStop() used outside its owner"))
        #expect(stderr.contains("expected owner:  queue \"exit-tests.precondition\""))
    }

    /// Swift Testing: before the always-on tier stops the process, a note names the test, the object
    /// and member, the line, and why (the `Sendable` promise); then the report follows.
    @Test(.exitTest) func aSwiftTestingTestStoppedByTheAlwaysOnTierSaysWhichTestAndWhy() async throws {
        let result = try await #require(
            processExitsWith: .failure, observing: [\.standardErrorContent]
        ) {
            try await ConfinementCheckedTrait.withTestScope(testName: "test handleChild()", testLocation: #_sourceLocation) {
                let owner = SerialQueueScheduler(label: "exit-tests.handle")
                let handle = SchedulableObject(Tally(), on: owner)
                // Off the test's task, so the child records no issue of its own before it stops.
                await onBackgroundThread { handle.object.add() }
            }
        }
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains(
            "Schedulable: SchedulableObject<Tally>.object used outside its owner in test handleChild() at "
        ), "\(stderr)")
        #expect(stderr.contains("ProcessExitTests.swift:"))
        #expect(stderr.contains("the process stops here, even in a test"))
        #expect(stderr.contains("shared across threads as Sendable: going on would be a data race"))
        #expect(stderr.contains("expected owner:  queue \"exit-tests.handle\""))
    }

    /// A violation of a test's object after the test ended cannot fail that test. It is printed with
    /// the test's name, and recorded as an issue of no test so that the run fails. The child captures
    /// that issue (instead of forwarding it here, where Swift Testing would print it) and writes what
    /// it captured to its standard error.
    @Test(.exitTest, .requiresDebugChecks) func aViolationAfterTheTestEndedIsPrintedWithTheTestsName() async throws {
        let result = try await #require(
            processExitsWith: .success, observing: [\.standardErrorContent]
        ) {
            let issues = try await TestIssueCapture.capturingIssuesOfNoTest { _ in
                nonisolated(unsafe) var escaped: Counter?
                try await ConfinementCheckedTrait.withTestScope(testName: "test lateChild()", testLocation: #_sourceLocation) {
                    escaped = Counter(owner: SerialQueueScheduler(label: "exit-tests.late"))
                }
                let counter = try #require(escaped)
                // Late for its own test, and made while another test with the trait runs: the issue names it.
                try await ConfinementCheckedTrait.withTestScope(testName: "test stillRunning()", testLocation: #_sourceLocation) {
                    await onBackgroundThread { counter.increment() }
                }
            }
            for issue in issues {
                StandardError.write("captured issue of no test (\(issue.severity)):\n\(issue.comment)\n")
            }
        }
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.components(separatedBy: "captured issue of no test (error):\n").count == 2, "\(stderr)")
        #expect(stderr.contains(
            "captured issue of no test (error):\n"
                + "Schedulable: violation of an object created by test lateChild(), detected after that test ended\n"
                + "Schedulable: Counter.increment() used outside its owner"
        ))
        #expect(stderr.contains("\n  while running:   test stillRunning()\n"), "\(stderr)")
        #expect(stderr.contains(
            "Schedulable: violation of an object created by test lateChild(), detected after that test ended:\n"
                + "Schedulable: Counter.increment() used outside its owner"
        ))
    }

    #if !canImport(ObjectiveC)
    /// XCTest: the same note, from the automatic handler of a test run by XCTest itself (`run()` posts
    /// the observations that give each test its handler); XCTest prints nothing once the process stops.
    @Test(.exitTest) func anXCTestTestStoppedByTheAlwaysOnTierSaysWhichTestAndWhy() async throws {
        let result = try await #require(
            processExitsWith: .failure, observing: [\.standardErrorContent]
        ) {
            let test = XCTestCase(name: "testUsesTheHandleOffItsOwner") { _ in
                let handle = SchedulableObject(Tally(), on: SerialQueueScheduler(label: "exit-tests.xctest-handle"))
                handle.object.add()
            }
            test.run()
        }
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains(
            "Schedulable: SchedulableObject<Tally>.object used outside its owner in test "
        ), "\(stderr)")
        #expect(stderr.contains("testUsesTheHandleOffItsOwner"))
        #expect(stderr.contains("ProcessExitTests.swift:"))
        #expect(stderr.contains("the process stops here, even in a test"))
        #expect(stderr.contains("expected owner:  queue \"exit-tests.xctest-handle\""))
    }

    /// XCTest has no run-level failure, and recording on whichever test runs now would blame the wrong
    /// test, so a late violation of an XCTest test's object is printed with that test's name.
    @Test(.exitTest, .requiresDebugChecks) func aLateViolationOfAnXCTestTestsObjectIsPrintedWithItsName() async throws {
        let result = try await #require(
            processExitsWith: .success, observing: [\.standardErrorContent]
        ) {
            let fixture = FailureKeepingFixture(name: "testLeaksItsCounter") { _ in }
            fixture.invokeTest()
            let counter = try #require(fixture.counter)
            onBackgroundThread { counter.increment() }
            #expect(fixture.failures.isEmpty)
        }
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains(
            "Schedulable: violation of an object created by test FailureKeepingFixture.testLeaksItsCounter, "
                + "detected after that test ended (it cannot fail that test any more):\n"
                + "Schedulable: Counter.increment() used outside its owner"
        ), "\(stderr)")
    }
    #endif
}

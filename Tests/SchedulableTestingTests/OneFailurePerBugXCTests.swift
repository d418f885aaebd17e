import Schedulable
import SchedulableTesting
import XCTest

/// One bug, one failure, at the line that made it, in XCTest with no base class (the automatic
/// handler): failures are recorded by the teardown block, so `tearDown()` checks what each test got.
/// Each run's object is freed before the next is made, so its address is often reused: still two
/// objects, two failures.
final class OneFailurePerBugXCTests: XCTestCase {
    private var recorded: [RecordedFailure] = []
    private var expected: (count: Int, line: Int, members: [String])?
    private static let owner = SerialQueueScheduler(label: "one-failure.xctest.")

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if self.expected != nil, description.contains("one-failure.xctest.") {
            recorded.append(RecordedFailure(description: description, file: filePath, line: lineNumber))
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    override func tearDown() {
        if let expected {
            XCTAssertEqual(recorded.count, expected.count)
            for failure in recorded {
                XCTAssertTrue(failure.file.hasSuffix("OneFailurePerBugXCTests.swift") || failure.file.hasSuffix("OneFailurePerBugTests.swift"), failure.file)
                #if SCHEDULABLE_DEBUG_BUILD
                XCTAssertEqual(failure.file, #filePath)
                #endif
                XCTAssertEqual(failure.line, expected.line, failure.description)
                XCTAssertEqual(accessLines(failure.description).map(\.member), expected.members, failure.description)
            }
        }
        super.tearDown()
    }

    /// (a) A wrong call from the test's thread, then `XCTAssertTrue` reading a property: one failure per
    /// run, at the calling line, listing the guard, the toggle and the read.
    func testAWrongCallThenAReadIsOneFailureAtTheCallingLine() throws {
        try XCTSkipUnless(ConfinementSystem.debugChecksCompiledIn, "the debug-tier checks are compiled out of this build")
        let repetitions = OneFailurePerBugTests.repetitions
        expected = (repetitions, #line + 3, ["togglePause()", "isPaused", "isPaused"])
        for _ in 0..<repetitions {
            let service = PausableService(owner: Self.owner)
            service.togglePause()
            XCTAssertTrue(service.isPaused)
        }
        XCTAssertEqual(recorded.count, 0, "recorded when the test method ends, with the whole group")
    }

    /// (b) A callback on a global queue touching two properties: one failure per run, both sites
    /// listed in order, located at the first.
    func testACallbackTouchingTwoPropertiesIsOneFailure() throws {
        try XCTSkipUnless(ConfinementSystem.debugChecksCompiledIn, "the debug-tier checks are compiled out of this build")
        let repetitions = OneFailurePerBugTests.repetitions
        expected = (repetitions, callbackFailureLine(#line + 4), ["pending", "isPaused"])
        for _ in 0..<repetitions {
            let service = PausableService(owner: Self.owner)
            runOnGlobalQueue {
                service.pending = 1
                service.isPaused = true
            }
        }
    }
}

// `init(name:testClosure:)` is swift-corelibs-xctest's (see ConfinementCheckedTestCaseTests).
#if !canImport(ObjectiveC)

/// The base class: each run is a test of its own, so each run's failures are counted exactly.
final class OneFailurePerBugBaseClassTests: XCTestCase {
    final class Fixture: ConfinementCheckedTestCase {
        var failures: [RecordedFailure] = []
        override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
            failures.append(RecordedFailure(description: description, file: filePath, line: lineNumber))
        }
    }

    private static let owner = SerialQueueScheduler(label: "one-failure.base.")

    /// Runs `body` as a test of the base class, `OneFailurePerBugTests.repetitions` times, and checks
    /// that each run fails once, at `line` of this file, listing `members` in order.
    private func expectOneFailurePerRun(
        at line: Int, members: [String], _ body: @escaping (PausableService) -> Void
    ) -> [RecordedFailure] {
        var failures: [RecordedFailure] = []
        for run in 0..<OneFailurePerBugTests.repetitions {
            let fixture = Fixture(name: "testRun") { _ in body(PausableService(owner: Self.owner)) }
            fixture.invokeTest()
            XCTAssertEqual(fixture.failures.count, 1, "run \(run)")
            guard let failure = fixture.failures.first else { continue }
            #if SCHEDULABLE_DEBUG_BUILD
            XCTAssertEqual(failure.file, #filePath, "run \(run)")
            #endif
            XCTAssertEqual(failure.line, line, "run \(run)")
            XCTAssertEqual(accessLines(failure.description).map(\.member), members, "run \(run)")
            failures.append(failure)
        }
        return failures
    }

    func testAWrongCallThenAReadIsOneFailureAtTheCallingLine() throws {
        try XCTSkipUnless(ConfinementSystem.debugChecksCompiledIn, "the debug-tier checks are compiled out of this build")
        _ = expectOneFailurePerRun(at: #line + 1, members: ["togglePause()", "isPaused", "isPaused"]) { service in
            service.togglePause()
            XCTAssertTrue(service.isPaused)
        }
    }

    func testACallbackTouchingTwoPropertiesIsOneFailure() throws {
        try XCTSkipUnless(ConfinementSystem.debugChecksCompiledIn, "the debug-tier checks are compiled out of this build")
        let firstLine = #line + 3
        let failures = expectOneFailurePerRun(at: callbackFailureLine(firstLine), members: ["pending", "isPaused"]) { service in
            runOnGlobalQueue {
                service.pending = 1
                service.isPaused = true
            }
        }
        for failure in failures {
            XCTAssertEqual(accessLines(failure.description).map(\.line), callbackAccessLines([firstLine, firstLine + 1]))
        }
    }
}
#endif

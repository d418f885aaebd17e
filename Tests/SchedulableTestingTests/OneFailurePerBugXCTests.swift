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
                XCTAssertEqual(failure.file, #filePath)
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
        expected = (repetitions, #line + 4, ["pending", "isPaused"])
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

    func testAWrongCallThenAReadIsOneFailureAtTheCallingLine() throws {
        try XCTSkipUnless(ConfinementSystem.debugChecksCompiledIn, "the debug-tier checks are compiled out of this build")
        let callLine = #line + 4
        for run in 0..<OneFailurePerBugTests.repetitions {
            let fixture = Fixture(name: "testWrongCall") { _ in
                let service = PausableService(owner: Self.owner)
                service.togglePause()
                XCTAssertTrue(service.isPaused)
            }
            fixture.invokeTest()
            XCTAssertEqual(fixture.failures.count, 1, "run \(run)")
            XCTAssertEqual(fixture.failures.first?.file, #filePath, "run \(run)")
            XCTAssertEqual(fixture.failures.first?.line, callLine, "run \(run)")
            XCTAssertEqual(accessLines(fixture.failures.first?.description ?? "").map(\.member), ["togglePause()", "isPaused", "isPaused"])
        }
    }

    func testACallbackTouchingTwoPropertiesIsOneFailure() throws {
        try XCTSkipUnless(ConfinementSystem.debugChecksCompiledIn, "the debug-tier checks are compiled out of this build")
        let firstLine = #line + 5
        for run in 0..<OneFailurePerBugTests.repetitions {
            let fixture = Fixture(name: "testCallback") { _ in
                let service = PausableService(owner: Self.owner)
                runOnGlobalQueue {
                    service.pending = 1
                    service.isPaused = true
                }
            }
            fixture.invokeTest()
            XCTAssertEqual(fixture.failures.count, 1, "run \(run)")
            XCTAssertEqual(fixture.failures.first?.file, #filePath, "run \(run)")
            XCTAssertEqual(fixture.failures.first?.line, firstLine, "run \(run)")
            let accesses = accessLines(fixture.failures.first?.description ?? "")
            XCTAssertEqual(accesses.map(\.member), ["pending", "isPaused"], "run \(run)")
            XCTAssertEqual(accesses.map(\.line), [firstLine, firstLine + 1], "run \(run)")
        }
    }
}
#endif

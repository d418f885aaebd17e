import Schedulable
import SchedulableTesting
import XCTest

/// Failure descriptions start with "failed - ": that is how `XCTFail`, which the helpers use to record
/// on the current test case, words every failure.
final class XCTAssertConfinementViolationTests: FailureCapturingTestCase {
    let owner = SerialQueueScheduler(label: "xctest-helpers.owner")

    override func setUpWithError() throws {
        try super.setUpWithError()
        try XCTSkipUnless(ConfinementSystem.debugChecksCompiledIn, "the debug-tier checks are compiled out of this build")
    }

    func testNoViolationAssertionPassesForCleanCodeAndReturnsTheResult() {
        let owner = self.owner
        var result = 0
        let failures = expectFailures {
            result = XCTAssertNoConfinementViolation {
                let counter = Counter(owner: owner)
                owner.sync { counter.increment() }
                return 42
            }
        }
        XCTAssertEqual(failures, [])
        XCTAssertEqual(result, 42)
    }

    func testNoViolationAssertionFailsOncePerViolationAtTheAssertion() {
        let owner = self.owner
        let line = #line + 2
        let failures = expectFailures {
            XCTAssertNoConfinementViolation("uploads must stay on their queue") {
                let counter = Counter(owner: owner)
                onBackgroundThread { counter.increment() }
                onBackgroundThread { counter.value = 1 }
            }
        }
        XCTAssertEqual(failures.count, 2)
        XCTAssertEqual(failures.map(\.file), [#filePath, #filePath])
        XCTAssertEqual(failures.map(\.line), [line, line])
        XCTAssertTrue(failures[0].description.hasPrefix(
            "failed - XCTAssertNoConfinementViolation: Schedulable: Counter.increment() used outside its owner\n"
        ), failures[0].description)
        XCTAssertTrue(failures[0].description.hasSuffix(" - uploads must stay on their queue"))
        XCTAssertTrue(failures[1].description.hasPrefix(
            "failed - XCTAssertNoConfinementViolation: Schedulable: Counter.value used outside its owner\n"
        ), failures[1].description)
    }

    func testViolationAssertionPassesAndReturnsTheViolations() {
        let owner = self.owner
        var violations: [ConfinementViolation] = []
        let failures = expectFailures {
            violations = XCTAssertConfinementViolation {
                let counter = Counter(owner: owner)
                onBackgroundThread { counter.increment() }
            }
        }
        XCTAssertEqual(failures, [])
        XCTAssertEqual(violations.map(\.qualifiedMember), ["Counter.increment()"])
        XCTAssertEqual(violations.first?.expectedOwner, "queue \"xctest-helpers.owner\"")
    }

    /// The helper claims the test's earlier objects too, detected on a GCD thread: the test made the
    /// counter, so it captured the test's handler, which hands the violation to the running helper.
    func testViolationAssertionClaimsAnObjectTheTestMadeBefore() {
        let counter = Counter(owner: owner)
        for run in 0..<100 {
            var violations: [ConfinementViolation] = []
            let failures = expectFailures {
                violations = XCTAssertConfinementViolation { onBackgroundThread { counter.increment() } }
            }
            XCTAssertEqual(failures, [], "run \(run)")
            XCTAssertEqual(violations.map(\.qualifiedMember), ["Counter.increment()"], "run \(run)")
        }
    }

    func testViolationAssertionFailsAtTheAssertionWhenThereIsNone() {
        let line = #line + 2
        let failures = expectFailures {
            XCTAssertConfinementViolation("the guard is missing") {}
        }
        XCTAssertEqual(failures, [
            RecordedFailure(
                description: "failed - XCTAssertConfinementViolation: the body caused no schedule violation - the guard is missing",
                file: #filePath, line: line
            ),
        ])
    }

    func testAsyncAssertionsBehaveTheSame() async {
        let owner = self.owner
        var violations: [ConfinementViolation] = []
        let passing = await expectFailures {
            violations = await XCTAssertConfinementViolation {
                let counter = Counter(owner: owner)
                await onBackgroundThread { counter.increment() }
            }
        }
        XCTAssertEqual(passing, [])
        XCTAssertEqual(violations.count, 1)

        let failing = await expectFailures {
            await XCTAssertNoConfinementViolation {
                let counter = Counter(owner: owner)
                await onBackgroundThread { counter.increment() }
            }
            await XCTAssertConfinementViolation { await Task.yield() }
        }
        XCTAssertEqual(failing.count, 2)
        XCTAssertTrue(failing[0].description.hasPrefix("failed - XCTAssertNoConfinementViolation: Schedulable: Counter.increment()"))
        XCTAssertEqual(failing[1].description, "failed - XCTAssertConfinementViolation: the body caused no schedule violation")
    }
}

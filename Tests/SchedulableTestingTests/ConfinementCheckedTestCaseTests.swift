import Schedulable
import SchedulableTesting
import XCTest

// The fixtures are run with `invokeTest()` directly: that is the method the base class overrides, and
// unlike `run()` it leaves XCTest's "current test case" (this test) alone. The fixture's failures
// land in the fixture's own `recordFailure`, which keeps them for the test to check.
// `init(name:testClosure:)` is swift-corelibs-xctest's initializer (Linux and other non-Apple
// platforms); Apple's XCTest builds test cases from selectors instead.
#if !canImport(ObjectiveC)

/// A test case that keeps its failures instead of reporting them.
class FailureKeepingFixture: ConfinementCheckedTestCase {
    var failures: [RecordedFailure] = []
    var counter: Counter?
    static let owner = SerialQueueScheduler(label: "xctest-base.owner")

    override func setUp() {
        super.setUp()
        counter = Counter(owner: Self.owner)
    }

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        failures.append(RecordedFailure(description: description, file: filePath, line: lineNumber))
    }
}

final class ConfinementCheckedTestCaseTests: XCTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try XCTSkipUnless(ConfinementSystem.debugChecksCompiledIn, "the debug-tier checks are compiled out of this build")
    }

    func testABackgroundViolationFailsTheTestWithTheReportAtTheCallingLine() {
        let callLine = #line + 3
        let fixture = FailureKeepingFixture(name: "testWrongQueue") { test in
            let counter = (test as! FailureKeepingFixture).counter!
            runOnGlobalQueue { counter.increment() }
        }
        fixture.invokeTest()
        XCTAssertEqual(fixture.failures.count, 1)
        // A method guard's failure is at the line that called the method, with the full path the debug
        // information gives, so the IDE opens it; the report keeps the guard's line as its call site.
        // An optimized build keeps no line for a call in a callback libdispatch calls: the guard's line,
        // with the full path where the debug information places the guarded method's frame (Linux, as
        // measured with the ReleaseChecks trait), else its file ID.
        #if SCHEDULABLE_DEBUG_BUILD
        XCTAssertEqual(fixture.failures.first?.file, #filePath)
        XCTAssertEqual(fixture.failures.first?.line, callLine)
        #else
        _ = callLine
        let file = fixture.failures.first?.file ?? ""
        #if os(Linux)
        XCTAssertTrue(file.hasPrefix("/") && file.hasSuffix("/Tests/SchedulableTestingTests/Support/Fixtures.swift"), file)
        #else
        XCTAssertTrue(file == "SchedulableTestingTests/Fixtures.swift" || file.hasSuffix("/Support/Fixtures.swift"), file)
        #endif
        XCTAssertEqual(fixture.failures.first?.line, Counter.incrementGuardLine)
        #endif
        let description = fixture.failures.first?.description ?? ""
        // The report itself, once: no extra prefix before its own "Schedulable:".
        XCTAssertTrue(description.hasPrefix("Schedulable: Counter.increment() used outside its owner\n"), description)
        XCTAssertEqual(description.components(separatedBy: "Schedulable:").count, 2, description)
        XCTAssertTrue(description.contains("expected owner:  queue \"xctest-base.owner\""), description)
    }

    func testAPropertyViolationPointsAtTheAccessSite() {
        let accessLine = #line + 3
        let fixture = FailureKeepingFixture(name: "testWrongQueue") { test in
            let counter = (test as! FailureKeepingFixture).counter!
            onBackgroundThread { counter.value = 2 }
        }
        fixture.invokeTest()
        XCTAssertEqual(fixture.failures.count, 1)
        // The line that set the property, with this file's full path (from the debug information). On
        // Linux in an optimized build too, where the closure is inlined: its call site is read from DWARF
        // (`InlinedCallSites`). Elsewhere an optimized build may have no line for it (the Runtime's
        // lookup of inlined frames): then the bind site, in setUp.
        #if SCHEDULABLE_DEBUG_BUILD || os(Linux)
        XCTAssertEqual(fixture.failures.first?.file, #filePath)
        XCTAssertEqual(fixture.failures.first?.line, accessLine)
        #else
        _ = accessLine
        XCTAssertEqual(fixture.failures.first?.file, "SchedulableTestingTests/ConfinementCheckedTestCaseTests.swift")
        #endif
    }

    /// One failure per object and wrong context, listing each use: here the test's own thread and
    /// one callback on a global queue.
    func testEveryViolationIsRecorded() {
        let fixture = FailureKeepingFixture(name: "testWrongQueue") { test in
            let counter = (test as! FailureKeepingFixture).counter!
            runOnGlobalQueue {
                counter.increment()
                counter.increment()
            }
            counter.increment()  // on the test's own thread, which is not the owner either
        }
        fixture.invokeTest()
        XCTAssertEqual(fixture.failures.count, 2)
        XCTAssertTrue(fixture.failures.first?.description.contains("accesses:        2,") == true)
        XCTAssertFalse(fixture.failures.last?.description.contains("accesses:") == true)
    }

    func testACleanTestRecordsNothing() {
        let fixture = FailureKeepingFixture(name: "testRightQueue") { test in
            let counter = (test as! FailureKeepingFixture).counter!
            FailureKeepingFixture.owner.sync { counter.increment() }
        }
        fixture.invokeTest()
        XCTAssertEqual(fixture.failures, [])
    }

    func testAsyncTestMethodsRunInTheTestsScope() {
        let callLine = #line + 6
        // corelibs XCTest runs an async test method in a `Task` created inside `invokeTest()`; the task
        // inherits the scope, so objects created there report to the test.
        let asyncMethod: (FailureKeepingFixture) -> () async throws -> Void = { _ in
            {
                let counter = Counter(owner: FailureKeepingFixture.owner)
                await onBackgroundThread { counter.increment() }
            }
        }
        let run = asyncTest(asyncMethod)
        let fixture = FailureKeepingFixture(name: "testAsync") { test in
            try run(test as! FailureKeepingFixture)()
        }
        fixture.invokeTest()
        XCTAssertEqual(fixture.failures.count, 1)
        // An optimized build inlines the closure into the helper that runs it: the helper's line.
        #if SCHEDULABLE_DEBUG_BUILD
        XCTAssertEqual(fixture.failures.first?.line, callLine)
        #else
        XCTAssertTrue(fixture.failures.first?.file.hasSuffix("Fixtures.swift") == true)
        #endif
    }
}

#endif

/// The base class used the ordinary way.
final class ConfinementCheckedTestCaseUsageTests: ConfinementCheckedTestCase {
    var counter: Counter!

    override func setUp() {
        super.setUp()
        counter = Counter(owner: SerialQueueScheduler(label: "xctest-usage.owner"))
    }

    func testEachTestRunsInItsOwnScope() {
        XCTAssertTrue(ConfinementSystem.scopedHandler is ConfinementViolationCollector)
    }

    func testAsyncTestsRunInTheScopeToo() async {
        XCTAssertTrue(ConfinementSystem.scopedHandler is ConfinementViolationCollector)
    }

    /// The assertion claims the violation of an object the test created in `setUp`, even though it is
    /// detected on a GCD thread; otherwise this test would fail for the violation it asserts.
    func testAnAssertionClaimsViolationsOfTheTestsObjects() throws {
        try XCTSkipUnless(ConfinementSystem.debugChecksCompiledIn, "the debug-tier checks are compiled out of this build")
        let counter = self.counter!
        let violations = XCTAssertConfinementViolation { onBackgroundThread { counter.increment() } }
        XCTAssertEqual(violations.count, 1)
    }
}

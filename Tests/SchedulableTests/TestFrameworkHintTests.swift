import CSchedulableContext
import Testing

@testable import Schedulable

/// Tests that run without SchedulableTesting get one line saying why violations do not fail them.
@Suite("The hint for tests without SchedulableTesting")
struct TestFrameworkHintTests {
    @Test func thisProcessIsSeenRunningSwiftTesting() {
        #expect(csched_test_frameworks_loaded() & CSCHED_TEST_FRAMEWORK_SWIFT_TESTING != 0)
    }

    @Test func theHintNamesTheFrameworksAndTheFix() throws {
        let both = CSCHED_TEST_FRAMEWORK_SWIFT_TESTING | CSCHED_TEST_FRAMEWORK_XCTEST
        let hint = try #require(TestFrameworkHint.message(bridgeInstalled: false, frameworks: both))
        #expect(hint.hasPrefix("Schedulable: note: Swift Testing and XCTest run in this process"))
        #expect(hint.contains("add the SchedulableTesting product to the test target's dependencies"))
        #expect(hint.hasSuffix("\n") && hint.dropLast().contains("\n") == false)
        #expect(TestFrameworkHint.message(bridgeInstalled: false, frameworks: CSCHED_TEST_FRAMEWORK_XCTEST)?
            .hasPrefix("Schedulable: note: XCTest runs in this process") == true)
    }

    @Test func noHintWithoutATestFrameworkOrWithTheBridge() {
        #expect(TestFrameworkHint.message(bridgeInstalled: false, frameworks: 0) == nil)
        #expect(TestFrameworkHint.message(bridgeInstalled: true, frameworks: CSCHED_TEST_FRAMEWORK_SWIFT_TESTING) == nil)
    }
}

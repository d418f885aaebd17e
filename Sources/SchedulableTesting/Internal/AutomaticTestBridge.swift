import Schedulable

/// Called once, by the load-time constructor in `CSchedulableTesting`, in every binary that links
/// SchedulableTesting: installs the bridge through which the core finds the current test, and starts
/// observing XCTest so that every XCTest test has a handler from its first line.
@_cdecl("schedulable_testing_install")
func installAutomaticTestBridge() {
    AutomaticTestReporting.install(TestFrameworks())
    XCTestTestHandler.startObserving()
    SwiftIsolationHook.installForTests()
}

/// Swift Testing first (its task-locals name the test exactly, even under parallel tests), then the
/// XCTest test that is running (XCTest runs one test at a time in a process).
struct TestFrameworks: TestFrameworkBridge {
    func handlerForCurrentTest() -> (any AutomaticTestHandler)? {
        SwiftTestingTestHandler.forCurrentTestCase() ?? XCTestTestHandler.running
    }

    func handlerOfTheRun() -> (any AutomaticTestHandler)? { RunLevelTestHandler.shared }
}

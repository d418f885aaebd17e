import Schedulable

/// The helpers (`expectConfinementViolation`, `collectConfinementViolations`, and XCTest's
/// `XCTAssertConfinementViolation`) whose bodies run now in each test, by the test's automatic
/// handler: where that handler sends a violation it receives off every task.
///
/// Why: an object the test made before calling a helper captured the test's automatic handler, and a
/// violation of it detected on a GCD thread reaches that handler, not the helper — no task-local
/// travels there. While a helper's body runs, what runs off every task in that test is the body's
/// work, so the helper claims it, as a test scope (``ConfinementCheckedTrait``) lets a helper nested in
/// it claim it. Detected on a task, the task-local scope routes a violation by itself.
enum RunningHelpers {
    private static let byTest = LockedValue<[ObjectIdentifier: [ConfinementViolationCollector]]>([:])

    /// Records that `helper`'s body runs in the test whose automatic handler is `test`.
    static func started(_ helper: ConfinementViolationCollector, in test: any AutomaticTestHandler) {
        byTest.withLock { $0[ObjectIdentifier(test as AnyObject), default: []].append(helper) }
    }

    /// Records that `helper`'s body returned (or threw).
    static func finished(_ helper: ConfinementViolationCollector, in test: any AutomaticTestHandler) {
        byTest.withLock { helpers in
            let key = ObjectIdentifier(test as AnyObject)
            helpers[key]?.removeAll { $0 === helper }
            if helpers[key]?.isEmpty == true { helpers[key] = nil }
        }
    }

    /// The helper that claims a violation `test`'s automatic handler received on this thread: the
    /// innermost one running in that test, when the violation was detected off every helper's task.
    static func claimant(for test: any AutomaticTestHandler) -> ConfinementViolationCollector? {
        guard ConfinementViolationCollector.current == nil else { return nil }
        return byTest.withLock { $0[ObjectIdentifier(test as AnyObject)]?.last }
    }
}

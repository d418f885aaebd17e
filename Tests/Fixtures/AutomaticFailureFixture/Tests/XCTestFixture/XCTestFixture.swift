// An XCTest target with no base class and no SchedulableTesting import: it only links
// SchedulableTesting. AutomaticTestFailureTests runs it in a child `swift test` and checks exactly which
// tests fail: those whose name contains "Fails".
import Dispatch
import Schedulable
import XCTest

final class XCounter: ConfinedObject, @unchecked Sendable {
    let confinement: Confinement
    init(owner: SerialQueueScheduler) {
        confinement = Confinement(owner: owner)
        owner.sync { self.preconditionIsolated() }
    }
    func increment() { assertIsolated() }
}

func onGCDThreadAndWait(_ body: @escaping @Sendable () -> Void) {
    let done = DispatchGroup()
    DispatchQueue.global().async(group: done, execute: body)
    done.wait()
}

nonisolated(unsafe) var xLeaked: XCounter?

final class XCTestAutomaticFailures: XCTestCase {
    func test1PassesWithoutViolations() {
        let owner = SerialQueueScheduler(label: "xfixture.clean")
        let counter = XCounter(owner: owner)
        owner.sync { counter.increment() }
    }

    func test2FailsOnItsOwnThread() {
        XCounter(owner: SerialQueueScheduler(label: "xfixture.own-thread")).increment()
    }

    func test3FailsOnAGCDThread() {
        let counter = XCounter(owner: SerialQueueScheduler(label: "xfixture.gcd"))
        onGCDThreadAndWait { counter.increment() }
    }

    /// Passes while it runs; its object is used wrongly after it ended, while the next test runs.
    func test4LeavesACounterBehind() {
        xLeaked = XCounter(owner: SerialQueueScheduler(label: "xfixture.late"))
    }

    func test5PassesWhileAnotherTestsObjectIsMisusedLater() throws {
        let counter = try XCTUnwrap(xLeaked)
        onGCDThreadAndWait { counter.increment() }
    }
}

// A test target with no trait, no base class and no SchedulableTesting import: it only links
// SchedulableTesting. AutomaticTestFailureTests runs it in a child `swift test` and checks exactly
// which tests fail. Tests whose name starts with "fails" must fail; every other test must pass.
import Dispatch
import Schedulable
import Testing

final class Counter: ConfinedObject, @unchecked Sendable {
    let confinement: Confinement
    init(owner: SerialQueueScheduler) {
        confinement = Confinement(owner: owner)
        // The owner's use ends the creating thread's construction window, so a later use elsewhere is
        // reported every time.
        owner.sync { self.preconditionIsolated() }
    }
    func increment() { assertIsolated() }
}

func onGCDThread(_ body: @escaping @Sendable () -> Void) async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        DispatchQueue.global().async { body(); done.resume() }
    }
}

/// Created outside every test: it captured no test.
let globalCounter = Counter(owner: SerialQueueScheduler(label: "fixture.global"))

@Suite struct AutomaticFailures {
    @Test func passesWithoutViolations() async {
        let owner = SerialQueueScheduler(label: "fixture.clean")
        let counter = Counter(owner: owner)
        await owner.run { counter.increment() }
    }

    @Test func failsOnItsOwnTask() {
        Counter(owner: SerialQueueScheduler(label: "fixture.own-task")).increment()
    }

    @Test func failsOnAGCDThread() async {
        let counter = Counter(owner: SerialQueueScheduler(label: "fixture.gcd"))
        await onGCDThread { counter.increment() }
    }

    /// A global object used in work this test handed to another scheduler: the work carries the test.
    @Test func failsInWorkItHandedOff() async {
        let elsewhere = SerialQueueScheduler(label: "fixture.elsewhere")
        await elsewhere.run { globalCounter.increment() }
    }

    /// Even cases violate on GCD threads while the others run: exactly they fail.
    @Test(arguments: 0..<32) func parallelCase(_ index: Int) async throws {
        let owner = SerialQueueScheduler(label: "fixture.parallel.\(index)")
        for _ in 0..<3 {
            // A counter per use: one object from one context is one failure, and three uses of one
            // counter may land on one GCD thread or on three.
            let counter = Counter(owner: owner)
            if index % 2 == 0 { await onGCDThread { counter.increment() } }
            try await Task.sleep(for: .milliseconds(Int.random(in: 1...10)))
        }
    }
}

nonisolated(unsafe) var leaked: Counter?

@Suite(.serialized) struct LateViolation {
    /// Passes while it runs; its object is used wrongly after it ended.
    @Test func leavesACounterBehind() {
        leaked = Counter(owner: SerialQueueScheduler(label: "fixture.late"))
    }

    @Test func passesWhileAnotherTestsObjectIsMisusedLater() async throws {
        let counter = try #require(leaked)
        await onGCDThread { counter.increment() }
    }
}

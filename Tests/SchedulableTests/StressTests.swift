import Dispatch
import Schedulable
import Testing

/// Many schedulers checking at once: every legitimate access passes, every cross access is reported
/// exactly once, and the bookkeeping (binding, windows, hand-offs) holds up under ThreadSanitizer.
@Suite("Stress")
struct StressTests {
    @Test func concurrentOwnersAndCrossAccessesAreCountedExactly() {
        let recorder = ViolationRecorder()
        let schedulers = (0..<8).map { SerialQueueScheduler(label: "stress.\($0)") }
        let counters = schedulers.map { owner in settledCounter(owner: owner, recorder: recorder) }
        let rounds = 2_000
        let crossEvery = 50
        let group = DispatchGroup()
        for (index, scheduler) in schedulers.enumerated() {
            let mine = counters[index]
            let neighbour = counters[(index + 1) % counters.count]
            scheduler.queue.async(group: group) {
                for round in 1...rounds {
                    mine.increment()
                    if round % crossEvery == 0 { neighbour.ping() }
                }
            }
        }
        group.wait()
        for (scheduler, counter) in zip(schedulers, counters) {
            #expect(scheduler.sync { counter.count } == rounds)
        }
        #expect(recorder.count == expectedDebugTier(schedulers.count * rounds / crossEvery))
    }

    @Test func handOffsUnderLoadNeverLetTwoOwnersPass() {
        let recorder = ViolationRecorder()
        let a = SerialQueueScheduler(label: "stress.handoff.a")
        let b = SerialQueueScheduler(label: "stress.handoff.b")
        let counter = settledCounter(owner: a, recorder: recorder, transferable: true)
        let passes = ManagedCounter()
        let group = DispatchGroup()
        // Ping-pong ownership 500 times; between hand-offs the other side probes and must fail.
        @Sendable func step(_ remaining: Int, on current: SerialQueueScheduler, other: SerialQueueScheduler) {
            guard remaining > 0 else { return group.leave() }
            current.schedule {
                counter.increment()
                other.sync { if counter.isIsolated { passes.add() } }   // other side while we hold it
                counter.handOff(to: other)
                step(remaining - 1, on: other, other: current)
            }
        }
        group.enter()
        step(500, on: a, other: b)
        group.wait()
        #expect(passes.value == 500)   // inside `other.sync` the blocked owner's chain is lent
        #expect(recorder.count == 0)
        #expect(b.sync { counter.isIsolated } || a.sync { counter.isIsolated })
        #expect(b.sync { counter.count } == 500 || a.sync { counter.count } == 500)
    }

    @Test func manyDetachedObjectsBindToTheirFirstUsersConcurrently() {
        let recorder = ViolationRecorder()
        let schedulers = (0..<4).map { SerialQueueScheduler(label: "stress.detached.\($0)") }
        let objects = withConfinementViolationHandler(recorder) { (0..<400).map { _ in Counter(confinement: .detached()) } }
        DispatchQueue.concurrentPerform(iterations: objects.count) { index in
            schedulers[index % schedulers.count].sync { objects[index].increment() }
        }
        #expect(recorder.count == 0)
        if ConfinementSystem.debugChecksCompiledIn {
            for (index, object) in objects.enumerated() {
                #expect(object.confinement.owner?.label == "stress.detached.\(index % schedulers.count)")
            }
        }
    }
}

import Dispatch
import Testing

@testable import Schedulable

/// A protected service with one checked property and one guarded method.
///
/// `@unchecked Sendable` so that tests can hand the reference to other threads: every member is
/// checked (tests build with the debug-tier checks on), which is what these tests exercise.
private final class ScheduledCounter: ConfinedObject, @unchecked Sendable {
    let confinement: Confinement
    @Confined var count = 0

    init(owner: some SerialScheduler) {
        confinement = Confinement(owner: owner)
    }

    init(protection: Confinement) {
        confinement = protection
    }

    func increment() {
        preconditionIsolated()
        count += 1
    }
}

/// Collects violations for one scope (objects created in it keep the handler).
private final class ViolationLog: Sendable {
    private let violations = ScheduleLock<[ConfinementViolation]>([])
    var handler: CustomViolationHandler { CustomViolationHandler { violation in self.violations.withLock { $0.append(violation) } } }
    var all: [ConfinementViolation] { violations.withLock { $0 } }
}

@Suite("Scheduling protected objects")
struct ConfinedObjectSchedulingTests {
    @Test func scheduleHopsToTheOwnerAndNeverReportsFromElsewhere() async {
        let log = ViolationLog()
        let owner = ThreadScheduler(label: "test.objects.owner")
        defer { owner.shutdown() }
        let counter = withConfinementViolationHandler(log.handler) { ScheduledCounter(owner: owner) }
        // Submitted from a thread that is neither the owner nor the constructing thread.
        let producer = TestThread {
            for _ in 0..<1_000 {
                counter.schedule { $0.increment() }
            }
        }
        producer.join()
        #expect(await counter.run { $0.count } == 1_000)
        #expect(log.all.isEmpty)
    }

    // Guards the previous test: the handler does see violations of this object. `count` is a
    // debug-tier property, checked only where those checks are compiled in.
    @Test(.enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func aDirectAccessFromElsewhereIsStillReported() {
        let log = ViolationLog()
        let owner = ThreadScheduler(label: "test.objects.reported")
        defer { owner.shutdown() }
        let counter = withConfinementViolationHandler(log.handler) { ScheduledCounter(owner: owner) }
        counter.schedule { _ = $0.count }  // The owner's first use closes the construction window.
        owner.sync {}
        let intruder = TestThread { _ = counter.count }
        intruder.join()
        #expect(log.all.map(\.kind) == [.wrongContext])
    }

    @Test func performRunsInlineOnTheOwnerAndHopsFromElsewhere() {
        let owner = ThreadScheduler(label: "test.objects.perform")
        let counter = ScheduledCounter(owner: owner)
        let order = ScheduleLock<[String]>([])
        owner.schedule {
            counter.perform { _ in order.withLock { $0.append("inline") } }
            order.withLock { $0.append("after") }
        }
        counter.perform { counter in
            counter.increment()
            order.withLock { $0.append("hopped") }
        }
        owner.shutdown()
        #expect(order.withLock { $0 } == ["inline", "after", "hopped"])
    }

    @Test func runReturnsValuesAndErrorsFromTheOwner() async {
        struct Refused: Error, Equatable {}
        let owner = SerialQueueScheduler(label: "test.objects.run")
        let counter = ScheduledCounter(owner: owner)
        #expect(await counter.run { counter in
            counter.increment()
            return owner.isIsolated
        })
        await #expect(throws: Refused()) {
            try await counter.run { (_) throws(Refused) -> Int in throw Refused() }
        }
    }

    @Test func schedulingFollowsAHandOff() async {
        let first = ThreadScheduler(label: "test.objects.first")
        let second = ThreadScheduler(label: "test.objects.second")
        defer {
            first.shutdown()
            second.shutdown()
        }
        let counter = ScheduledCounter(owner: first)
        await counter.run { $0.confinement.handOff(to: second) }
        #expect(await counter.run { _ in second.isIsolated && !first.isIsolated })
    }

    @Test func anObjectBoundByFirstUseOnALibrarySchedulerCanBeScheduled() async {
        let owner = SerialQueueScheduler(label: "test.objects.detached")
        let counter = ScheduledCounter(protection: .detached())
        owner.sync { counter.increment() }  // Binds to `owner`.
        #expect(counter.confinement.ownerScheduler === owner)
        #expect(await counter.run { $0.count } == 1)
    }

    @Test func schedulingADetachedObjectIsReported() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let counter = ScheduledCounter(protection: .detached())
            counter.schedule { $0.increment() }
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("the object is detached"))
        #expect(stderr.contains("ScheduledCounter.schedule(_:)"))
    }
}

@Suite("SchedulableObject")
struct SchedulableObjectTests {
    /// A type that cannot adopt ConfinedObject (a struct from elsewhere).
    struct Tally {
        var values: [Int] = []
    }

    @Test func scheduleMutatesTheValueInPlaceOnTheScheduler() async {
        let scheduler = ThreadScheduler(label: "test.aggregate")
        defer { scheduler.shutdown() }
        let tally = SchedulableObject(Tally(), on: scheduler)
        for value in 0..<100 {
            tally.schedule { $0.values.append(value) }
        }
        #expect(await tally.run { $0.values } == Array(0..<100))
        #expect(await tally.run { _ in scheduler.isIsolated })
    }

    @Test func objectIsDirectlyUsableOnTheScheduler() {
        let scheduler = ThreadScheduler(label: "test.aggregate.direct")
        defer { scheduler.shutdown() }
        let tally = SchedulableObject(Tally(), on: scheduler)
        let count = scheduler.sync {
            tally.object.values.append(1)
            tally.perform { $0.values.append(2) }  // Inline: already on the scheduler.
            return tally.object.values.count
        }
        #expect(count == 2)
    }

    @Test func wrappingAnObjectGraphOffItsSchedulerIsCaught() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let scheduler = ThreadScheduler(label: "test.aggregate.graph")
            _ = SchedulableObject(Tally(), onCurrent: scheduler)
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("init(_:onCurrent:)"))
    }

    @Test func objectFromElsewhereStopsTheProcessWithAReport() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let scheduler = ThreadScheduler(label: "test.aggregate.owner")
            let tally = SchedulableObject(Tally(), on: scheduler)
            _ = tally.object.values
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("expected owner:  thread scheduler \"test.aggregate.owner\""))
    }
}

import Dispatch
import Testing

@testable import Schedulable

/// A confined service with one checked property and one guarded method. Not `Sendable`: the tests
/// reach it from other threads only through a `SchedulableObject`, as a Swift 6 user must.
private final class ScheduledCounter: ConfinedObject {
    let confinement: Confinement
    @Confined var count = 0

    init(owner: some SerialScheduler) {
        confinement = Confinement(owner: owner)
    }

    init(confinement: Confinement) {
        self.confinement = confinement
    }

    func increment() {
        preconditionIsolated()
        count += 1
    }
}

/// Collects violations for one scope (objects created in it keep the handler).
private final class ViolationLog: Sendable {
    private let violations = LockedValue<[ConfinementViolation]>([])
    var handler: CustomViolationHandler { CustomViolationHandler { violation in self.violations.withLock { $0.append(violation) } } }
    var all: [ConfinementViolation] { violations.withLock { $0 } }
}

@Suite("Confined objects behind a SchedulableObject")
struct ConfinedObjectSchedulingTests {
    @Test func scheduleHopsToTheOwnerAndNeverReportsFromElsewhere() async {
        let log = ViolationLog()
        let owner = ThreadScheduler(label: "test.objects.owner")
        defer { owner.shutdown() }
        let counter = withConfinementViolationHandler(log.handler) {
            SchedulableObject(ScheduledCounter(owner: owner), on: owner)
        }
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

    @Test func theWrapperSharesTheObjectsRecordAndEndsItsConstruction() {
        let owner = ThreadScheduler(label: "test.objects.shared")
        defer { owner.shutdown() }
        for _ in 0..<200 {
            // Built here for an owner elsewhere: the object's construction window is open on this
            // thread until the object is sent into the wrapper, which ends it for good.
            let counter = SchedulableObject(ScheduledCounter(owner: owner), on: owner)
            #expect(!counter.isIsolated)
            #expect(owner.sync { counter.isIsolated && counter.assumeIsolated { $0.isIsolated } })
        }
    }

    @Test func wrappingBindsTheObjectToTheWrappersScheduler() async {
        let first = SerialQueueScheduler(label: "test.objects.first")
        let second = ThreadScheduler(label: "test.objects.second")
        defer { second.shutdown() }
        let bound = SchedulableObject(ScheduledCounter(owner: first), on: second)
        let detached = SchedulableObject(ScheduledCounter(confinement: .detached()), on: second)
        for counter in [bound, detached] {
            // The object's own always-on guard passes on the wrapper's scheduler, and only there.
            #expect(await counter.run { counter in
                counter.increment()
                return counter.confinement.ownerScheduler === second && !first.isIsolated
            })
            #expect(!first.sync { counter.isIsolated })
        }
    }

    @Test func performRunsInlineOnTheOwnerAndHopsFromElsewhere() {
        let owner = ThreadScheduler(label: "test.objects.perform")
        let counter = SchedulableObject(ScheduledCounter(owner: owner), on: owner)
        let order = LockedValue<[String]>([])
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
        let counter = SchedulableObject(ScheduledCounter(owner: owner), on: owner)
        #expect(await counter.run { counter in
            counter.increment()
            return owner.isIsolated
        })
        await #expect(throws: Refused()) {
            try await counter.run { (_) throws(Refused) -> Int in throw Refused() }
        }
    }

    @Test(.exitTest) func theObjectFromElsewhereStopsTheProcessWithAReport() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let owner = ThreadScheduler(label: "test.objects.elsewhere")
            let counter = SchedulableObject(ScheduledCounter(owner: owner), on: owner)
            _ = counter.assumeIsolated { $0.count }
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("member:          assumeIsolated(_:)"))
        #expect(stderr.contains("expected owner:  thread scheduler \"test.objects.elsewhere\""))
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

    @Test(.exitTest) func wrappingAnObjectGraphOffItsSchedulerIsCaught() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let scheduler = ThreadScheduler(label: "test.aggregate.graph")
            _ = SchedulableObject(Tally(), onCurrent: scheduler)
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("init(_:onCurrent:)"))
    }

    @Test(.exitTest) func objectFromElsewhereStopsTheProcessWithAReport() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let scheduler = ThreadScheduler(label: "test.aggregate.owner")
            let tally = SchedulableObject(Tally(), on: scheduler)
            _ = tally.object.values
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("expected owner:  thread scheduler \"test.aggregate.owner\""))
    }
}

import Dispatch
import Schedulable
import Testing

/// Checking never changes what a program does: a protected object lives exactly as long as it would
/// unprotected (ARCHITECTURE.md, "Invariants").
@Suite("Lifetime: confinement keeps nothing alive")
struct LifetimeTests {
    /// The shape seen protecting GRDB's `Database`: the object's own queue retains it (here as
    /// queue-specific data). A record that held its owner's scheduler closed the cycle queue → object
    /// → record → scheduler → queue, and neither was ever freed. libdispatch runs the destructors of a
    /// disposed queue's specific data asynchronously, so the test waits for the object's `deinit`
    /// (a bounded wait for an event that, with the cycle, never comes).
    @Test func anObjectItsOwnQueueRetainsIsFreedWithTheQueue() {
        let key = DispatchSpecificKey<Connection>()
        let freed = DispatchSemaphore(value: 0)
        weak var weakScheduler: SerialQueueScheduler?
        do {
            let scheduler = SerialQueueScheduler(label: "test.lifetime.retained-by-queue")
            let connection = Connection(owner: scheduler) { freed.signal() }
            scheduler.queue.setSpecific(key: key, value: connection)
            scheduler.sync { connection.use() }
            weakScheduler = scheduler
        }
        #expect(weakScheduler == nil)
        #expect(freed.wait(timeout: .now() + 10) == .success)
    }

    /// A record names its owner's scheduler only while that scheduler exists.
    @Test func ownerSchedulerIsNilOnceTheSchedulerIsGone() {
        var scheduler: SerialQueueScheduler? = SerialQueueScheduler(label: "test.lifetime.owner-scheduler")
        let confinement = Confinement(owner: scheduler!)
        #expect(confinement.ownerScheduler === scheduler)
        scheduler = nil
        #expect(confinement.ownerScheduler == nil)
        #expect(confinement.owner?.label == "test.lifetime.owner-scheduler")
    }

    /// Boxes hold their owner's context, not its scheduler.
    @Test func aBoxDoesNotKeepItsSchedulerAlive() {
        weak var weakScheduler: SerialQueueScheduler?
        var box: SchedulerBound<Int>?
        do {
            let scheduler = SerialQueueScheduler(label: "test.lifetime.box")
            box = SchedulerBound(1, owner: scheduler)
            weakScheduler = scheduler
        }
        #expect(weakScheduler == nil)
        #expect(box?.owner.label == "test.lifetime.box")
    }
}

/// A connection that tells when it is freed.
private final class Connection: ConfinedObject {
    let confinement: Confinement
    @Confined var uses = 0
    private let onDeinit: @Sendable () -> Void

    init(owner: some SerialScheduler, onDeinit: @escaping @Sendable () -> Void) {
        confinement = Confinement(owner: owner)
        self.onDeinit = onDeinit
    }

    func use() {
        assertIsolated()
        uses += 1
    }

    deinit { onDeinit() }
}

/// The direct read of the library's queue-specific value (one `dispatch_get_specific` and a load) is
/// only used where it agrees with `DispatchQueue.getSpecific`; on this toolchain it must, or every
/// legitimate slow path silently pays the overlay's generic call again.
@Suite("Queue-specific fast read")
struct QueueSpecificReaderTests {
    @Test func theDirectReadIsVerifiedOnThisToolchain() {
        #expect(QueueSpecificReader.isVerified)
    }

    @Test func rawWorkOnALibraryQueueIsRecognisedThroughIt() {
        let owner = SerialQueueScheduler(label: "test.specific-read")
        let branch = owner.branch("leaf")
        #expect(owner.queue.sync { owner.isIsolated })
        #expect(branch.queue.sync { owner.isIsolated && branch.isIsolated })
        #expect(owner.queue.sync { !branch.isIsolated })
        #expect(DispatchQueue(label: "test.specific-read.other").sync { !owner.isIsolated })
    }
}

/// Hops onto a queue scheduler go through `dispatch_async_f` (one allocation) wherever the
/// libdispatch queue is confirmed; on this toolchain it must be, for plain queues and branches.
@Suite("Direct dispatch")
struct DirectDispatchTests {
    @Test func queueSchedulersHopWithDispatchAsyncF() {
        let owner = SerialQueueScheduler(label: "test.direct")
        #expect(owner.hopsDispatchDirectly)
        #expect(owner.branch("leaf").hopsDispatchDirectly)
    }

    /// Every hop runs, in order, in the scheduler's context — 200 rounds of 1,000 hops.
    @Test func directHopsRunInOrderOnTheirContext() {
        let owner = SerialQueueScheduler(label: "test.direct.order")
        for _ in 0..<200 {
            let seen = LockedList<Int>()
            let outside = LockedList<Int>()
            let done = DispatchSemaphore(value: 0)
            for index in 0..<1_000 {
                owner.schedule {
                    if !owner.isIsolated { outside.append(index) }
                    seen.append(index)
                    if index == 999 { done.signal() }
                }
            }
            done.wait()
            #expect(seen.elements == Array(0..<1_000))
            #expect(outside.elements.isEmpty)
        }
    }
}

import CSchedulableContext
import Dispatch
import Foundation
import Schedulable
import Testing

/// An object owned by a raw serial queue, as existing code writes it.
private final class Storage: ConfinedObject, @unchecked Sendable {
    let confinement: Confinement
    @Confined var rows: [Int] = []

    init(owner: DispatchQueue) {
        confinement = Confinement(owner: owner)
    }

    init(confinement: Confinement) {
        self.confinement = confinement
    }

    func ping() {
        preconditionIsolated()
    }
}

/// `Confinement(owner: queue)`: a raw serial `DispatchQueue` is an owner, one identity per queue, as
/// exact as a library queue.
@Suite("Raw serial queues as owners")
struct QueueOwnerTests {
    static let repetitions = 200

    /// The queue's own work passes — raw `async`, raw `sync` from a plain thread and from another
    /// queue's work, a wrapper's `sync` — and the other queue's own work is reported, 200 times each.
    @Test func aRawQueueOwnerPassesInItsWorkAndReportsElsewhere() {
        let recorder = ViolationRecorder()
        let storageQueue = DispatchQueue(label: "test.raw-owner.storage")
        let networkQueue = DispatchQueue(label: "test.raw-owner.network")
        var answers: [String: Int] = [:]
        for _ in 0..<Self.repetitions {
            let storage = withConfinementViolationHandler(recorder) { storageQueue.sync { Storage(owner: storageQueue) } }
            let inAsync = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var asyncAnswer = false
            storageQueue.async {
                asyncAnswer = storage.confinement.isIsolated
                storage.rows.append(1)
                inAsync.signal()
            }
            inAsync.wait()
            let seen = [
                asyncAnswer,
                storageQueue.sync { storage.confinement.isIsolated },
                networkQueue.sync { storageQueue.sync { storage.confinement.isIsolated } },
                networkQueue.sync { storage.confinement.isIsolated },
                storage.confinement.isIsolated,
            ]
            answers["\(seen)", default: 0] += 1
            storageQueue.sync { storage.rows.append(2) }
            networkQueue.sync { _ = storage.rows }
        }
        #expect(answers == ["[true, true, true, false, false]": Self.repetitions])
        #expect(recorder.members == Array(repeating: "rows", count: expectedDebugTier(Self.repetitions)))
        #expect(recorder.violations.allSatisfy { $0.expectedOwner == "queue \"test.raw-owner.storage\"" })
    }

    /// However many objects and wrappers name a queue, it is one owner: the same context for all, and
    /// a library queue passed raw is its scheduler's owner.
    @Test func oneQueueIsOneOwner() throws {
        let queue = DispatchQueue(label: "test.raw-owner.identity")
        let first = Storage(owner: queue)
        let second = Storage(owner: queue)
        let wrapper = try SerialQueueScheduler(wrapping: queue)
        #expect(first.confinement.owner === second.confinement.owner)
        #expect(first.confinement.owner === wrapper.executionContext)
        let library = SerialQueueScheduler(label: "test.raw-owner.library")
        #expect(Storage(owner: library.queue).confinement.owner === library.executionContext)
        library.sync { #expect(Storage(owner: library.queue).confinement.isIsolated) }
    }

    /// Two threads naming one new queue at once get one owner, 200 times.
    @Test func namingANewQueueFromTwoThreadsAtOnceGivesOneOwner() {
        for index in 0..<Self.repetitions {
            let queue = DispatchQueue(label: "test.raw-owner.race.\(index)")
            // A slot each: the two writes touch different memory, and concurrentPerform's return is
            // the happens-before edge for the reads below.
            let owners = [ResultSlot<ExecutionContext>(), ResultSlot<ExecutionContext>()]
            DispatchQueue.concurrentPerform(iterations: 2) { slot in
                owners[slot].value = Confinement(owner: queue).owner
            }
            #expect(owners[0].value != nil && owners[0].value === owners[1].value)
        }
    }

    /// A record never keeps its owner alive: the queue of an object that outlives it is freed.
    @Test func aRecordDoesNotKeepItsQueueAlive() {
        weak var weakQueue: DispatchQueue?
        let storage: Storage = {
            let queue = DispatchQueue(label: "test.raw-owner.lifetime")
            weakQueue = queue
            return Storage(owner: queue)
        }()
        #expect(weakQueue == nil)
        #expect(storage.confinement.owner?.label == "test.raw-owner.lifetime")
    }

    /// `handOff(to:)` and `SchedulerBound` take raw queues too.
    @Test func handOffAndSchedulerBoundTakeRawQueues() {
        let first = DispatchQueue(label: "test.raw-owner.first")
        let second = DispatchQueue(label: "test.raw-owner.second")
        let storage = Storage(confinement: .transferable(owner: first))
        first.sync { storage.handOff(to: second) }
        #expect(second.sync { storage.confinement.isIsolated })
        #expect(!first.sync { storage.confinement.isIsolated })
        let bound = SchedulerBound(41, owner: second)
        #expect(second.sync { bound.value } == 41)
    }

    /// The global queues are refused at the initializer, naming the queue and the call site.
    @Test(.exitTest) func aGlobalQueueIsRefused() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Confinement(owner: DispatchQueue.global())
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(stderr.contains("Schedulable: Confinement(owner:): the global concurrent queue"))
            #expect(stderr.contains("QueueOwnerTests.swift"))
        }
    }

    /// The main queue is refused: the main thread is its own owner, `Confinement()`.
    @Test(.exitTest) func theMainQueueIsRefused() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Confinement(owner: DispatchQueue.main)
        }.map { result in
            #expect(standardErrorText(result).contains("the main queue cannot be a queue owner"))
        }
    }

    /// A concurrent queue is refused where libdispatch's width can be read.
    @Test(.exitTest, .enabled(if: csched_dispatch_reader_confirmed())) func aConcurrentQueueIsRefused() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Confinement(owner: DispatchQueue(label: "exit.raw-owner.concurrent", attributes: .concurrent))
        }.map { result in
            #expect(standardErrorText(result).contains("the concurrent queue \"exit.raw-owner.concurrent\" cannot be an owner"))
        }
    }
}

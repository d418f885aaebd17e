import CSchedulableContext
import Dispatch
import Foundation
import Schedulable
import Testing

/// The Threading Model article's opening sentence: a check passes iff the current context is the owner.
@Suite("Ownership semantics")
struct CoreSemanticsTests {
    @Test func accessOnOwnerQueueThroughSchedulerPasses() async {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "test.owner")
        let counter = settledCounter(owner: owner, recorder: recorder)
        await withCheckedContinuation { continuation in
            owner.schedule {
                counter.increment()
                counter.items.append(1)
                continuation.resume()
            }
        }
        owner.sync { counter.increment() }
        #expect(recorder.count == 0)
        #expect(owner.sync { counter.count } == 2)
    }

    @Test func rawWorkSubmittedStraightToTheQueuePasses() {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "test.raw")
        let counter = settledCounter(owner: owner, recorder: recorder)
        owner.queue.sync { counter.increment() }
        let group = DispatchGroup()
        owner.queue.async(group: group) { counter.increment() }
        group.wait()
        #expect(recorder.count == 0)
    }

    @Test func plainThreadAccessIsReported() {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "test.plain")
        let counter = settledCounter(owner: owner, recorder: recorder)
        onPlainThread { counter.ping() }
        #expect(recorder.count == expectedDebugTier(1))
        if let violation = recorder.violations.first {
            #expect(violation.kind == .wrongContext)
            #expect(violation.objectType == "Counter")
            #expect(violation.member == "ping()")
            #expect(violation.expectedOwner == "queue \"test.plain\"")
            #expect(violation.actualContext.contains("plain-thread"))
            #expect(violation.ownerBoundAt?.fileID == "SchedulableTests/ViolationRecorder.swift")
            #expect(violation.callSite?.fileID == "SchedulableTests/ViolationRecorder.swift")
            #expect(violation.objectIdentity?.hasPrefix("0x") == true)
        }
    }

    @Test func otherQueueAccessIsReportedWithThatQueueAsActualContext() {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "test.a")
        let other = SerialQueueScheduler(label: "test.b")
        let counter = settledCounter(owner: owner, recorder: recorder)
        other.sync { counter.count = 5 }
        let foreign = DispatchQueue(label: "test.foreign")
        foreign.sync { _ = counter.count }
        #expect(recorder.count == expectedDebugTier(2))
        if recorder.count == 2 {
            #expect(recorder.violations[0].actualContext.hasPrefix("queue \"test.b\""))
            #expect(recorder.violations[1].actualContext.hasPrefix("queue \"test.foreign\""))
        }
    }

    @Test func branchWorkPassesForTreeOwner() {
        let recorder = ViolationRecorder()
        let tree = SerialQueueScheduler(label: "test.tree")
        let branch = tree.branch("images")
        let deeper = branch.branch("thumbnails")
        let counter = settledCounter(owner: tree, recorder: recorder)
        branch.sync { counter.increment() }
        deeper.sync { counter.increment() }
        branch.queue.sync { counter.increment() }   // raw work: the target chain reaches the tree
        #expect(recorder.count == 0)
        #expect(branch.label == "test.tree.images")
        #expect(deeper.label == "test.tree.images.thumbnails")
    }

    @Test func branchOwnerFailsOnTreeAndSiblingPassesOnSubBranch() {
        let recorder = ViolationRecorder()
        let tree = SerialQueueScheduler(label: "test.forest")
        let images = tree.branch("images")
        let sibling = tree.branch("video")
        let sub = images.branch("cache")
        let counter = withConfinementViolationHandler(recorder) { Counter(owner: images) }
        images.sync { counter.increment() }
        sub.sync { counter.increment() }
        #expect(recorder.count == 0)
        tree.sync { counter.ping() }
        sibling.sync { counter.ping() }
        sibling.queue.sync { counter.ping() }
        #expect(recorder.count == expectedDebugTier(3))
    }

    @Test func nestedSyncFromOwnerKeepsOwnership() {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "test.nested.owner")
        let other = SerialQueueScheduler(label: "test.nested.other")
        let foreign = DispatchQueue(label: "test.nested.foreign")
        let counter = settledCounter(owner: owner, recorder: recorder)
        owner.sync {
            other.sync { counter.increment() }            // library sync: owner is blocked
            foreign.sync { counter.increment() }          // raw sync from library work
            other.sync { foreign.sync { counter.increment() } }
        }
        owner.queue.sync {
            other.sync { counter.increment() }            // raw owner work, then library sync
        }
        #expect(recorder.count == 0)
        // After the nested calls return, the other queue on its own is not the owner.
        other.sync { counter.ping() }
        #expect(recorder.count == expectedDebugTier(1))
    }

    /// Raw `sync` nested in raw work on the owner: the owner's blocked work is not reported where the
    /// outcome would be a trap either (DispatchReaderTests covers the non-trapping handlers, and the
    /// fallback where the drain lock cannot be read).
    @Test(.exitTest) func rawSyncInsideRawOwnerWorkPassesWhereChecksTrap() async {
        await #expect(processExitsWith: .success) {
            let owner = SerialQueueScheduler(label: "exit.rawraw.owner")
            let counter = Counter(owner: owner)
            owner.sync { counter.ping() }
            owner.queue.sync {
                DispatchQueue(label: "exit.rawraw.inner").sync {
                    counter.ping()                 // debug tier, default trap handler
                    counter.incrementAlways()      // precondition tier
                }
            }
        }
    }

    @Test(.exitTest) func rawSyncFromUnrelatedWorkStillTrapsWithTheReport() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let owner = SerialQueueScheduler(label: "exit.rawraw2.owner")
            let counter = Counter(owner: owner)
            owner.sync { counter.incrementAlways() }   // always-on: ends construction in every build
            DispatchQueue(label: "exit.rawraw2.unrelated").sync {
                DispatchQueue(label: "exit.rawraw2.inner").sync { counter.incrementAlways() }
            }
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(stderr.contains("Counter.incrementAlways() used outside its owner"))
            #expect(stderr.contains("actual context:  queue \"exit.rawraw2.inner\""))
        }
    }

    @Test func concurrentPerformIterationsOffTheOwnerThreadAreReported() {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "test.concurrentPerform")
        let counter = settledCounter(owner: owner, recorder: recorder)
        // Exactly the iterations that run on the owner's (blocked) thread pass; how libdispatch spreads
        // the iterations over threads varies from run to run, the answer per iteration never does.
        let (callerPasses, iterations) = owner.sync { () -> (Bool, [(onCaller: Bool, passes: Bool)]) in
            let caller = csched_os_thread_id()
            let seen = LockedList<(onCaller: Bool, passes: Bool)>()
            DispatchQueue.concurrentPerform(iterations: 64) { _ in
                seen.append((csched_os_thread_id() == caller, counter.isIsolated))
            }
            return (counter.isIsolated, seen.elements)
        }
        #expect(callerPasses)
        #expect(iterations.count == 64)
        #expect(iterations.allSatisfy { $0.onCaller == $0.passes })
    }

    @Test func mainOwnedObjectPassesOnMainActorAndFailsElsewhere() async {
        let recorder = ViolationRecorder()
        let counter = withConfinementViolationHandler(recorder) { Counter(owner: MainThreadScheduler.shared) }
        await MainActor.run { counter.increment() }
        await withCheckedContinuation { continuation in
            MainThreadScheduler.shared.schedule {
                counter.increment()
                continuation.resume()
            }
        }
        await withCheckedContinuation { continuation in
            DispatchQueue.main.async {
                counter.increment()
                continuation.resume()
            }
        }
        #expect(recorder.count == 0)
        onPlainThread { counter.ping() }
        DispatchQueue(label: "test.notMain").sync { counter.ping() }
        #expect(recorder.count == expectedDebugTier(2))
        #expect(recorder.violations.first?.expectedOwner ?? "main thread" == "main thread")
    }

    @Test func schedulerIsCurrentNeverSaysYesElsewhere() {
        let a = SerialQueueScheduler(label: "test.isIsolated.a")
        let b = a.branch("b")
        #expect(!a.isIsolated)
        #expect(a.sync { a.isIsolated })
        #expect(b.sync { a.isIsolated && b.isIsolated })
        #expect(!a.sync { b.isIsolated })
        #expect(!a.sync { MainThreadScheduler.shared.isIsolated })
    }

    /// A new thread that may reuse a dead thread's pthread_t must not pass for the dead thread.
    @Test func deadThreadIdentityIsNeverReused() {
        let recorder = ViolationRecorder()
        let counter = withConfinementViolationHandler(recorder) {
            Counter(confinement: .detached())
        }
        onPlainThread { counter.ping() }     // binds to this thread, which then exits
        #expect(recorder.count == 0)
        for _ in 0..<200 {
            onPlainThread { counter.ping() }
        }
        #expect(recorder.count == expectedDebugTier(200))
    }
}

/// A thread-safe tally for tests.
final class ManagedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var storage = 0
    func add() { lock.lock(); storage += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return storage }
}

import CSchedulableContext
import Dispatch
import Foundation
import Schedulable
import Testing

/// Debug vs release: the debug tier compiles to nothing in release, the precondition tier never does.
@Suite("Tiers")
struct TiersTests {
    @Test func wrapperLayoutMatchesBuildConfiguration() {
        if ConfinementSystem.debugChecksCompiledIn {
            // The value and an 8-byte declaration site: within the 24-byte inline value buffer, so an
            // `-Onone` read through the key path copies the wrapper without a malloc.
            #expect(MemoryLayout<Confined<Int>>.size == 16)
            #expect(MemoryLayout<Confined<[Int]>>.size == 16)
        } else {
            // Release without the ReleaseChecks trait: no stored bytes beyond the value.
            #expect(MemoryLayout<Confined<Int>>.size == 8)
            #expect(MemoryLayout<Confined<Int>>.stride == 8)
        }
    }

    /// The always-on box, in every build: the value, the owner's context and the bind site packed in
    /// one word — no allocation, and 16 bytes beside the value (24 while the site took two words).
    @Test func schedulerBoundKeepsItsOwnerAndBindSiteInTwoWords() {
        #expect(MemoryLayout<SchedulerBound<Int>>.size == MemoryLayout<Int>.size + 16)
        #expect(MemoryLayout<SchedulerBound<(Int, Int)>>.size == MemoryLayout<(Int, Int)>.size + 16)
    }

    @Test func debugTierRunsNoCheckInReleaseBuilds() {
        // Bind the object to a queue, then use it from another one: only a build with the debug tier
        // compiled in can notice. (The detached binding would need a check to happen at all.)
        let recorder = ViolationRecorder()
        let counter = withConfinementViolationHandler(recorder) { Counter(confinement: .detached()) }
        SerialQueueScheduler(label: "test.tiers.first").sync { counter.increment() }
        SerialQueueScheduler(label: "test.tiers.second").sync { counter.increment() }
        if ConfinementSystem.debugChecksCompiledIn {
            #expect(recorder.count == 2)       // the guard and the property, each once
            #expect(counter.confinement.owner?.label == "test.tiers.first")
        } else {
            #expect(recorder.count == 0)
            #expect(counter.confinement.owner == nil)   // no check ran, so nothing bound it
        }
    }

    @Test func isIsolatedAnswersInEveryBuild() {
        let owner = SerialQueueScheduler(label: "test.tiers.query")
        let counter = Counter(owner: owner)
        owner.sync { #expect(counter.isIsolated) }
        onPlainThread { #expect(!counter.isIsolated) }
        DispatchQueue(label: "test.tiers.other").sync { #expect(!counter.isIsolated) }
    }

    @Test(.exitTest) func preconditionTierTrapsInEveryBuildEvenWithLogHandler() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            ConfinementSystem.bootstrap(.log)
            useFromAnotherQueue(ownerLabel: "exit.precondition.owner") { $0.incrementAlways() }
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(stderr.contains("Counter.incrementAlways() used outside its owner"))
        }
    }
}

/// The always-on box.
@Suite("SchedulerBound")
struct SchedulerBoundTests {
    @Test func ownerAccessPassesWithOneCheckPerReadModifyWrite() {
        let owner = SerialQueueScheduler(label: "test.bound")
        let box = UncheckedBox(SchedulerBound([1, 2], owner: owner))
        owner.sync {
            box.value!.value.append(3)
            box.value!.withValue { $0.append(4) }
            #expect(box.value!.value == [1, 2, 3, 4])
        }
        #expect(box.value!.owner.label == "test.bound")
    }

    @Test func boxIsSendableWhateverTheValue() {
        final class NotSendable { var x = 0 }
        let owner = SerialQueueScheduler(label: "test.bound.sendable")
        let box = SchedulerBound(NotSendable(), owner: owner)
        let result = DispatchQueue.global().sync { () -> Int in
            owner.sync { box.value.x += 1; return box.value.x }
        }
        #expect(result == 1)
    }

    @Test(.exitTest) func readOffTheOwnerTrapsInEveryBuild() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let owner = SerialQueueScheduler(label: "exit.bound.owner")
            let box = SchedulerBound(42, owner: owner)
            _ = DispatchQueue(label: "exit.bound.intruder").sync { box.value }
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(stderr.contains("member:          value"))
            #expect(stderr.contains("expected owner:  queue \"exit.bound.owner\""))
        }
    }

    /// Unlike protected objects, the box has no construction window: the creating thread is not exempt.
    @Test(.exitTest) func creatingThreadGetsNoGraceWithTheBox() async {
        await #expect(processExitsWith: .failure) {
            let owner = SerialQueueScheduler(label: "exit.bound.nograce")
            var box = SchedulerBound(42, owner: owner)
            box.withValue { $0 += 1 }
        }
    }
}

/// Schedulers reject bad configuration and never drop work silently.
@Suite("SerialScheduler input")
struct SchedulerInputTests {
    @Test func wrappingAGlobalConcurrentQueueIsRejected() {
        #expect(throws: ScheduleConfigurationError.self) {
            try SerialQueueScheduler(wrapping: DispatchQueue.global(qos: .utility))
        }
        do {
            _ = try SerialQueueScheduler(wrapping: .global())
        } catch {
            #expect(error.description.contains("cannot wrap the global concurrent queue"))
        }
    }

    @Test func wrappingTheMainQueueIsRejectedWithAPointerToMainThreadScheduler() {
        do {
            _ = try SerialQueueScheduler(wrapping: .main)
            Issue.record("wrapping the main queue was accepted")
        } catch {
            #expect(error.description.contains("use MainThreadScheduler.shared"))
        }
    }

    @Test func wrappedSerialQueueSharesIdentityWithItsRawWork() throws {
        let recorder = ViolationRecorder()
        let queue = DispatchQueue(label: "test.wrapped")
        let scheduler = try SerialQueueScheduler(wrapping: queue)
        let again = try SerialQueueScheduler(wrapping: queue)
        let counter = withConfinementViolationHandler(recorder) { Counter(owner: scheduler) }
        queue.sync { counter.ping() }
        again.sync { counter.ping() }
        #expect(recorder.count == 0)
    }

    /// Where libdispatch's queue state cannot be read (Darwin; here, the reader turned off) a
    /// concurrent queue cannot be told from a serial one when it is wrapped: it is accepted, and the
    /// overlap detector reports it the first time two of the library's blocks on it run at once.
    @Test(.exitTest) func wrappedConcurrentQueueWithTheReaderOffIsReportedWhenBlocksOverlap() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            setenv("SCHEDULABLE_DISABLE_DISPATCH_READER", "1", 1)
            guard !csched_dispatch_reader_confirmed() else { exit(3) }
            let concurrent = DispatchQueue(label: "exit.secretly.concurrent", attributes: .concurrent)
            let scheduler: SerialQueueScheduler
            do {
                scheduler = try SerialQueueScheduler(wrapping: concurrent)
            } catch {
                exit(4)   // refused although the width cannot be read
            }
            let bothRunning = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            for _ in 0..<2 {
                scheduler.schedule {
                    bothRunning.signal()
                    release.wait()
                }
            }
            bothRunning.wait()
            bothRunning.wait()
            release.signal()
            release.signal()
            _ = DispatchSemaphore(value: 0).wait(timeout: .now() + 5)   // the report traps before this ends
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(stderr.contains("is not serial"))
            #expect(stderr.contains("exit.secretly.concurrent"))
            // The trap message names the kind (TrapMessageTests has the others).
            #expect(stderr.contains("Fatal error: Schedulable: concurrent queue: schedule(_:) ran on a context that is not serial: "))
        }
    }

    /// A scheduler that has shut down: `trySchedule` throws, `schedule` reports; nothing is dropped.
    final class ClosedScheduler: SerialScheduler {
        let executionContext = ExecutionContext.Runner(label: "test.closed").context
        var label: String { executionContext.label }
        func trySchedule(_ work: @escaping @Sendable () -> Void) throws(ScheduleRejection) {
            throw ScheduleRejection(reason: .shutDown, schedulerLabel: label)
        }
    }

    @Test func rejectedWorkThrowsFromTrySchedule() {
        #expect(throws: ScheduleRejection.self) { try ClosedScheduler().trySchedule {} }
    }

    /// Fire-and-forget work that is rejected follows the handler: a log handler reports it (with the
    /// call site) and the process goes on — teardown never crashes a build that did not ask for a trap.
    @Test(.exitTest) func rejectedWorkIsReportedAndDroppedUnderALogHandler() async {
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            ConfinementSystem.bootstrap(.log)
            ClosedScheduler().schedule {}
            StandardError.write("still running\n")
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(stderr.contains("work rejected by scheduler \"test.closed\""))
            #expect(stderr.contains("was shut down and no longer accepts work"))
            #expect(stderr.contains("call site:       SchedulableTests/TiersTests.swift:"))
            #expect(stderr.contains("still running"))
        }
    }

    @Test(.exitTest) func rejectedWorkTrapsUnderATrapLevel() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            ConfinementSystem.bootstrap(policy: ConfinementPolicy(default: .trap))
            ClosedScheduler().schedule {}
        }.map { result in
            #expect(standardErrorText(result).contains("work rejected by scheduler \"test.closed\""))
        }
    }

    /// A call that needs the work's result cannot go on without it: a rejected `sync` stops the process
    /// whatever the handler.
    @Test(.exitTest) func aRejectedSyncStopsTheProcessEvenUnderALogHandler() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            ConfinementSystem.bootstrap(.log)
            let scheduler = ThreadScheduler(label: "exit.rejected.sync")
            scheduler.shutdown()
            _ = scheduler.sync { 1 }
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(stderr.contains("work rejected by thread scheduler \"exit.rejected.sync\""))
            #expect(stderr.contains("member:          sync(_:)"))
        }
    }
}

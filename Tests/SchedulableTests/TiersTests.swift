import Dispatch
import Foundation
import Schedulable
import Testing

/// Debug vs release: the debug tier compiles to nothing in release, the precondition tier never does.
@Suite("Tiers")
struct TiersTests {
    @Test func wrapperLayoutMatchesBuildConfiguration() {
        if ScheduleProtectionSystem.debugChecksCompiledIn {
            #expect(MemoryLayout<ScheduleProtected<Int>>.size > MemoryLayout<Int>.size)
        } else {
            // Release without the ReleaseChecks trait: no stored bytes beyond the value.
            #expect(MemoryLayout<ScheduleProtected<Int>>.size == 8)
            #expect(MemoryLayout<ScheduleProtected<Int>>.stride == 8)
        }
    }

    @Test func debugTierRunsNoCheckInReleaseBuilds() {
        // Bind the object to a queue, then use it from another one: only a build with the debug tier
        // compiled in can notice. (The detached binding would need a check to happen at all.)
        let recorder = ViolationRecorder()
        let counter = withScheduleViolationHandler(recorder) { Counter(protection: .detached()) }
        QueueScheduler(label: "test.tiers.first").sync { counter.increment() }
        QueueScheduler(label: "test.tiers.second").sync { counter.increment() }
        if ScheduleProtectionSystem.debugChecksCompiledIn {
            #expect(recorder.count == 2)       // the guard and the property, each once
            #expect(counter.scheduleProtection.owner?.label == "test.tiers.first")
        } else {
            #expect(recorder.count == 0)
            #expect(counter.scheduleProtection.owner == nil)   // no check ran, so nothing bound it
        }
    }

    @Test func isScheduledAnswersInEveryBuild() {
        let owner = QueueScheduler(label: "test.tiers.query")
        let counter = Counter(owner: owner)
        owner.sync { #expect(counter.isScheduled) }
        onPlainThread { #expect(!counter.isScheduled) }
        DispatchQueue(label: "test.tiers.other").sync { #expect(!counter.isScheduled) }
    }

    @Test func preconditionTierTrapsInEveryBuildEvenWithLogHandler() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            ScheduleProtectionSystem.bootstrap(.log)
            useFromAnotherQueue(ownerLabel: "exit.precondition.owner") { $0.incrementAlways() }
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(stderr.contains("Counter.incrementAlways() used outside its owner"))
        }
    }
}

/// The always-on box.
@Suite("ScheduleBound")
struct ScheduleBoundTests {
    @Test func ownerAccessPassesWithOneCheckPerReadModifyWrite() {
        let owner = QueueScheduler(label: "test.bound")
        let box = UncheckedBox(ScheduleBound([1, 2], owner: owner))
        owner.sync {
            box.value!.value.append(3)
            box.value!.withValue { $0.append(4) }
            #expect(box.value!.value == [1, 2, 3, 4])
        }
        #expect(box.value!.owner.label == "test.bound")
    }

    @Test func boxIsSendableWhateverTheValue() {
        final class NotSendable { var x = 0 }
        let owner = QueueScheduler(label: "test.bound.sendable")
        let box = ScheduleBound(NotSendable(), owner: owner)
        let result = DispatchQueue.global().sync { () -> Int in
            owner.sync { box.value.x += 1; return box.value.x }
        }
        #expect(result == 1)
    }

    @Test func readOffTheOwnerTrapsInEveryBuild() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let owner = QueueScheduler(label: "exit.bound.owner")
            let box = ScheduleBound(42, owner: owner)
            _ = DispatchQueue(label: "exit.bound.intruder").sync { box.value }
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(stderr.contains("member:          value"))
            #expect(stderr.contains("expected owner:  queue \"exit.bound.owner\""))
        }
    }

    /// Unlike protected objects, the box has no construction window: the creating thread is not exempt.
    @Test func creatingThreadGetsNoGraceWithTheBox() async {
        await #expect(processExitsWith: .failure) {
            let owner = QueueScheduler(label: "exit.bound.nograce")
            var box = ScheduleBound(42, owner: owner)
            box.withValue { $0 += 1 }
        }
    }
}

/// Schedulers reject bad configuration and never drop work silently.
@Suite("Scheduler input")
struct SchedulerInputTests {
    @Test func wrappingAGlobalConcurrentQueueIsRejected() {
        #expect(throws: ScheduleConfigurationError.self) {
            try QueueScheduler(wrapping: DispatchQueue.global(qos: .utility))
        }
        do {
            _ = try QueueScheduler(wrapping: .global())
        } catch {
            #expect(error.description.contains("cannot wrap the global concurrent queue"))
        }
    }

    @Test func wrappingTheMainQueueIsRejectedWithAPointerToMainScheduler() {
        do {
            _ = try QueueScheduler(wrapping: .main)
            Issue.record("wrapping the main queue was accepted")
        } catch {
            #expect(error.description.contains("use MainScheduler.shared"))
        }
    }

    @Test func wrappedSerialQueueSharesIdentityWithItsRawWork() throws {
        let recorder = ViolationRecorder()
        let queue = DispatchQueue(label: "test.wrapped")
        let scheduler = try QueueScheduler(wrapping: queue)
        let again = try QueueScheduler(wrapping: queue)
        let counter = withScheduleViolationHandler(recorder) { Counter(owner: scheduler) }
        queue.sync { counter.ping() }
        again.sync { counter.ping() }
        #expect(recorder.count == 0)
    }

    @Test func wrappedQueueThatTurnsOutConcurrentIsReported() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let concurrent = DispatchQueue(label: "exit.secretly.concurrent", attributes: .concurrent)
            let scheduler = try! QueueScheduler(wrapping: concurrent)
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
        }
    }

    /// A scheduler that has shut down: `trySchedule` throws, `schedule` reports; nothing is dropped.
    final class ClosedScheduler: Scheduler {
        let scheduleContext = ScheduleContext.Runner(label: "test.closed").context
        var label: String { scheduleContext.label }
        func trySchedule(_ work: @escaping @Sendable () -> Void) throws(ScheduleRejection) {
            throw ScheduleRejection(reason: .shutDown, schedulerLabel: label)
        }
    }

    @Test func rejectedWorkThrowsFromTrySchedule() {
        #expect(throws: ScheduleRejection.self) { try ClosedScheduler().trySchedule {} }
    }

    @Test func rejectedWorkIsReportedBySchedule() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            ScheduleProtectionSystem.bootstrap(.log)
            ClosedScheduler().schedule {}
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(stderr.contains("work rejected by scheduler \"test.closed\""))
            #expect(stderr.contains("was shut down and no longer accepts work"))
        }
    }
}

import Dispatch
import Foundation
import Schedulable
import Testing

/// Binding: explicit owner, detached, hand-off, detach; construct here / use there; deinit elsewhere.
@Suite("Binding")
struct BindingTests {
    @Test func explicitOwnerRecordsBindSite() {
        let owner = QueueScheduler(label: "test.bind")
        let protection = ScheduleProtection(owner: owner); let line = #line
        #expect(protection.owner?.label == "test.bind")
        #expect(protection.boundAt == SourceLocation(fileID: #fileID, line: line))
    }

    @Test func detachedBindsOnFirstCheckedUse() {
        let recorder = ViolationRecorder()
        let owner = QueueScheduler(label: "test.detached")
        let counter = withScheduleViolationHandler(recorder) { Counter(protection: .detached()) }
        #expect(counter.scheduleProtection.owner == nil)
        owner.sync { counter.ping() }
        #expect(recorder.count == 0)
        if ScheduleProtectionSystem.debugChecksCompiledIn {
            #expect(counter.scheduleProtection.owner?.label == "test.detached")
            #expect(counter.scheduleProtection.boundAt?.fileID == "SchedulableTests/ViolationRecorder.swift")
        }
        onPlainThread { counter.ping() }
        #expect(recorder.count == expectedDebugTier(1))
    }

    @Test func handOffMovesOwnershipFromTheOwner() {
        let recorder = ViolationRecorder()
        let first = QueueScheduler(label: "test.handoff.first")
        let second = QueueScheduler(label: "test.handoff.second")
        let counter = settledCounter(owner: first, recorder: recorder)
        first.sync { counter.scheduleProtection.handOff(to: second) }
        second.sync { counter.ping() }
        #expect(recorder.count == 0)
        first.sync { counter.ping() }
        #expect(recorder.count == expectedDebugTier(1))
        #expect(counter.scheduleProtection.owner?.label == "test.handoff.second")
    }

    @Test func detachReturnsToDetachedAndRebindsOnNextUse() {
        let recorder = ViolationRecorder()
        let first = QueueScheduler(label: "test.detach.first")
        let second = QueueScheduler(label: "test.detach.second")
        let counter = settledCounter(owner: first, recorder: recorder)
        first.sync { counter.scheduleProtection.detach() }
        #expect(counter.scheduleProtection.owner == nil)
        second.sync { counter.ping() }
        first.sync { counter.ping() }
        #expect(recorder.count == expectedDebugTier(1))
    }

    @Test func handOffFromOutsideTheOwnerTraps() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let first = QueueScheduler(label: "exit.handoff.first")
            let second = QueueScheduler(label: "exit.handoff.second")
            let counter = Counter(owner: first)
            first.sync { _ = counter.isScheduled; counter.ping() }
            DispatchQueue(label: "exit.intruder").sync { counter.scheduleProtection.handOff(to: second) }
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(stderr.contains("member:          handOff(to:)"))
            #expect(stderr.contains("expected owner:  queue \"exit.handoff.first\""))
        }
    }

    /// Construct here, use there: the creating thread may use the object until its owner first does.
    @Test func initializerOnAnotherThreadIsNotReportedUntilOwnerUsesIt() {
        let recorder = ViolationRecorder()
        let owner = QueueScheduler(label: "test.construct")
        final class Service: ScheduleProtectable, @unchecked Sendable {
            let scheduleProtection: ScheduleProtection
            @ScheduleProtected(name: "state") var state: [String] = []
            init(owner: QueueScheduler) {
                scheduleProtection = ScheduleProtection(owner: owner)
                state.append("configured")      // phase 2 of init, on the creating thread
                configure()
            }
            func configure() {
                assertScheduled()
                state.append("ready")
            }
        }
        let service = withScheduleViolationHandler(recorder) { Service(owner: owner) }
        _ = service.state                       // still the creating thread, before the owner used it
        #expect(recorder.count == 0)
        owner.sync { #expect(service.state == ["configured", "ready"]) }
        _ = service.state                       // the window is closed now
        #expect(recorder.count == expectedDebugTier(1))
    }

    @Test func constructionWindowBelongsToTheCreatingThreadOnly() {
        let recorder = ViolationRecorder()
        let owner = QueueScheduler(label: "test.construct.other")
        let counter = withScheduleViolationHandler(recorder) { Counter(owner: owner) }
        onPlainThread { counter.ping() }
        #expect(recorder.count == expectedDebugTier(1))
    }

    /// The last release happening on another thread runs deinit there; its accesses are not reported.
    @Test func deinitOnAnotherThreadIsNotReported() {
        let recorder = ViolationRecorder()
        let owner = QueueScheduler(label: "test.deinit")
        let deinitRan = ManagedCounter()
        final class Closing: ScheduleProtectable, @unchecked Sendable {
            let scheduleProtection: ScheduleProtection
            @ScheduleProtected(name: "handles") var handles = [1, 2, 3]
            let onDeinit: ManagedCounter
            init(owner: QueueScheduler, onDeinit: ManagedCounter) {
                scheduleProtection = ScheduleProtection(owner: owner)
                self.onDeinit = onDeinit
            }
            func close() {
                assertScheduled()
                handles.removeAll()
            }
            deinit {
                close()
                onDeinit.add()
            }
        }
        var object: Closing? = withScheduleViolationHandler(recorder) { Closing(owner: owner, onDeinit: deinitRan) }
        owner.sync { object?.handles.append(4) }
        // Hand the last reference to a plain thread and release it there.
        let box = UncheckedBox(object!)
        object = nil
        onPlainThread { box.value = nil }
        #expect(deinitRan.value == 1)
        #expect(recorder.count == 0)
    }
}

/// Moves a value across threads in tests.
final class UncheckedBox<Value>: @unchecked Sendable {
    var value: Value?
    init(_ value: Value) { self.value = value }
}

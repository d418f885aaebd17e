import CSchedulableContext
import Dispatch
import Foundation
import Schedulable
import Testing

/// Binding: explicit owner, detached, hand-off, detach; construct here / use there; deinit elsewhere.
@Suite("Binding")
struct BindingTests {
    @Test func explicitOwnerRecordsBindSite() {
        let owner = SerialQueueScheduler(label: "test.bind")
        let record = Confinement(owner: owner); let line = #line
        #expect(record.owner?.label == "test.bind")
        #expect(record.boundAt == CodeLocation(fileID: #fileID, line: line))
    }

    /// A record keeps its bind site in one word (`PackedCodeLocation`): sites that do not pack — a line
    /// past 16 bits, a file literal of one Unicode scalar — come back whole, at creation and after a
    /// hand-off, and a detach leaves none.
    @Test func bindSitesThatDoNotPackComeBackWhole() {
        let first = SerialQueueScheduler(label: "test.bind.sites.first")
        let second = SerialQueueScheduler(label: "test.bind.sites.second")
        let object = Movable(Confinement.transferable(owner: first, line: 70_000))
        #expect(object.confinement.boundAt == CodeLocation(fileID: #fileID, line: 70_000))
        first.sync { object.handOff(to: second, file: "x", line: 12) }
        #expect(object.confinement.boundAt == CodeLocation(fileID: "x", line: 12))
        second.sync { object.handOff(to: first, line: 65_535) }
        #expect(object.confinement.boundAt == CodeLocation(fileID: #fileID, line: 65_535))
        first.sync { object.handOff(to: second) }; let line = #line
        #expect(object.confinement.boundAt == CodeLocation(fileID: #fileID, line: line))
        second.sync { object.detach() }
        #expect(object.confinement.boundAt == nil)
    }

    @Test func detachedBindsOnFirstCheckedUse() {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "test.detached")
        let counter = withConfinementViolationHandler(recorder) { Counter(confinement: .detached()) }
        #expect(counter.confinement.owner == nil)
        owner.sync { counter.ping() }
        #expect(recorder.count == 0)
        if ConfinementSystem.debugChecksCompiledIn {
            #expect(counter.confinement.owner?.label == "test.detached")
            #expect(counter.confinement.boundAt?.fileID == "SchedulableTests/ViolationRecorder.swift")
        }
        onPlainThread { counter.ping() }
        #expect(recorder.count == expectedDebugTier(1))
    }

    @Test func handOffMovesOwnershipFromTheOwner() {
        let recorder = ViolationRecorder()
        let first = SerialQueueScheduler(label: "test.handoff.first")
        let second = SerialQueueScheduler(label: "test.handoff.second")
        let counter = settledCounter(owner: first, recorder: recorder, transferable: true)
        first.sync { counter.handOff(to: second) }
        second.sync { counter.ping() }
        #expect(recorder.count == 0)
        first.sync { counter.ping() }
        #expect(recorder.count == expectedDebugTier(1))
        #expect(counter.confinement.owner?.label == "test.handoff.second")
    }

    @Test func detachReturnsToDetachedAndRebindsOnNextUse() {
        let recorder = ViolationRecorder()
        let first = SerialQueueScheduler(label: "test.detach.first")
        let second = SerialQueueScheduler(label: "test.detach.second")
        let counter = settledCounter(owner: first, recorder: recorder, transferable: true)
        first.sync { counter.detach() }
        #expect(counter.confinement.owner == nil)
        second.sync { counter.ping() }
        first.sync { counter.ping() }
        #expect(recorder.count == expectedDebugTier(1))
    }

    @Test(.exitTest) func handOffFromOutsideTheOwnerTraps() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let first = SerialQueueScheduler(label: "exit.handoff.first")
            let second = SerialQueueScheduler(label: "exit.handoff.second")
            let counter = Counter(transferableOwner: first)
            first.sync { _ = counter.isIsolated; counter.ping() }
            DispatchQueue(label: "exit.intruder").sync { counter.handOff(to: second) }
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(stderr.contains("member:          handOff(to:)"))
            #expect(stderr.contains("expected owner:  queue \"exit.handoff.first\""))
        }
    }

    /// Construct here, use there: the creating thread may use the object until its owner first does.
    @Test func initializerOnAnotherThreadIsNotReportedUntilOwnerUsesIt() {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "test.construct")
        final class Service: ConfinedObject, @unchecked Sendable {
            let confinement: Confinement
            @Confined(name: "state") var state: [String] = []
            init(owner: SerialQueueScheduler) {
                confinement = Confinement(owner: owner)
                state.append("configured")      // phase 2 of init, on the creating thread
                configure()
            }
            func configure() {
                assertIsolated()
                state.append("ready")
            }
        }
        let service = withConfinementViolationHandler(recorder) { Service(owner: owner) }
        _ = service.state                       // still the creating thread, before the owner used it
        #expect(recorder.count == 0)
        owner.sync { #expect(service.state == ["configured", "ready"]) }
        _ = service.state                       // the window is closed now
        #expect(recorder.count == expectedDebugTier(1))
    }

    @Test func constructionWindowBelongsToTheCreatingThreadOnly() {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "test.construct.other")
        let counter = withConfinementViolationHandler(recorder) { Counter(owner: owner) }
        onPlainThread { counter.ping() }
        #expect(recorder.count == expectedDebugTier(1))
    }

    /// The last release happening on another thread runs deinit there; its accesses are not reported.
    @Test func deinitOnAnotherThreadIsNotReported() {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "test.deinit")
        let deinitRan = ManagedCounter()
        final class Closing: ConfinedObject, @unchecked Sendable {
            let confinement: Confinement
            @Confined(name: "handles") var handles = [1, 2, 3]
            let onDeinit: ManagedCounter
            init(owner: SerialQueueScheduler, onDeinit: ManagedCounter) {
                confinement = Confinement(owner: owner)
                self.onDeinit = onDeinit
            }
            func close() {
                assertIsolated()
                handles.removeAll()
            }
            deinit {
                close()
                onDeinit.add()
            }
        }
        var object: Closing? = withConfinementViolationHandler(recorder) { Closing(owner: owner, onDeinit: deinitRan) }
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
/// The deinit exemption reads the Swift reference count, which only Swift-native objects have; every
/// class is Swift-native outside Darwin (NSObject subclasses are recognised there through the
/// Objective-C runtime).
@Suite struct DeinitExemptionTests {
    @Test func swiftClassesAreSwiftNative() {
        final class Plain {}
        let plain = Plain()
        let counter = Counter(owner: SerialQueueScheduler(label: "test.native"))
        #expect(csched_object_is_swift_native(Unmanaged.passUnretained(plain).toOpaque()))
        #expect(csched_object_is_swift_native(Unmanaged.passUnretained(counter).toOpaque()))
        #expect(!csched_object_is_deallocating(Unmanaged.passUnretained(plain).toOpaque()))
    }

    #if canImport(ObjectiveC)
    /// An NSObject subclass has no Swift reference count: it is not asked whether it deallocates.
    @Test func nsObjectSubclassesAreNotSwiftNative() {
        final class Legacy: NSObject {}
        let legacy = Legacy()
        #expect(!csched_object_is_swift_native(Unmanaged.passUnretained(legacy).toOpaque()))
        #expect(!csched_object_is_deallocating(Unmanaged.passUnretained(legacy).toOpaque()))
    }
    #endif

    /// Accesses from deinit on another thread are never reported, every time.
    @Test func deinitOnAnotherThreadIsNeverReported() {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "test.deinit.repeat")
        let deinitRan = ManagedCounter()
        final class Releasing: ConfinedObject, @unchecked Sendable {
            let confinement: Confinement
            @Confined var handles = [1, 2, 3]
            let onDeinit: ManagedCounter
            init(owner: SerialQueueScheduler, onDeinit: ManagedCounter) {
                confinement = Confinement(owner: owner)
                self.onDeinit = onDeinit
            }
            deinit {
                assertIsolated()
                handles.removeAll()
                onDeinit.add()
            }
        }
        for _ in 0..<200 {
            var object: Releasing? = withConfinementViolationHandler(recorder) { Releasing(owner: owner, onDeinit: deinitRan) }
            owner.sync { object?.handles.append(4) }
            let box = UncheckedBox(object!)
            object = nil
            onPlainThread { box.value = nil }
        }
        #expect(deinitRan.value == 200)
        #expect(recorder.count == 0)
    }
}

final class UncheckedBox<Value>: @unchecked Sendable {
    var value: Value?
    init(_ value: Value) { self.value = value }
}

/// An object around a given confinement, to move it by the object's transfers.
private final class Movable: ConfinedObject, @unchecked Sendable {
    // @unchecked: the tests move it between schedulers only through work they wait for.
    let confinement: Confinement

    init(_ confinement: Confinement) {
        self.confinement = confinement
    }
}

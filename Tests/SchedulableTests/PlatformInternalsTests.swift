import CSchedulableContext
import Dispatch
import Foundation
import Testing

@testable import Schedulable

/// One test per private internal (ARCHITECTURE.md, "Private internals"): its self-check passes here, and
/// with its kill switch set (before first use, in a process of its own) the documented fallback is what
/// actually happens. The drain-lock reader's and the property names' rows are in `DispatchReaderTests`
/// and `ReportContentTests`.
@Suite("Private internals: self-checks and kill switches")
struct PlatformInternalsTests {
    static let repetitions = 200

    // MARK: The DispatchQueue → dispatch_queue_t conversion

    @Test func theQueueAddressIsConfirmedByItsLabel() {
        let queue = DispatchQueue(label: "test.internals.address")
        let address = PlatformInternals.queueAddress(of: queue)
        #expect(address != nil)
        #expect(address.flatMap { csched_dispatch_queue_label($0) }.map { String(cString: $0) } == "test.internals.address")
    }

    /// Off: no queue pointer, so no drain lock, target or width either, and the library's hops go through
    /// `DispatchQueue.async` — work still runs, in order.
    @Test(.exitTest) func withoutTheQueueAddressHopsUseTheOverlayAndTheReaderSaysUnknown() async {
        await #expect(processExitsWith: .success) {
            setenv("SCHEDULABLE_DISABLE_QUEUE_ADDRESS", "1", 1)
            let owner = SerialQueueScheduler(label: "exit.internals.address.owner")
            guard PlatformInternals.queueAddress(of: owner.queue) == nil, PlatformInternals.width(of: owner.queue) == nil,
                owner.queue.sync(execute: { PlatformInternals.threadHolds(owner.queue) }) == nil
            else { exit(3) }
            let order = LockedList<Int>()
            for index in 0..<PlatformInternalsTests.repetitions { owner.schedule { order.append(index) } }
            owner.sync {}
            guard order.elements == Array(0..<PlatformInternalsTests.repetitions) else { exit(4) }
        }
    }

    // MARK: The overlay's queue-specific box

    @Test func theBoxReadIsConfirmedHere() {
        #expect(QueueSpecificReader.isVerified)
    }

    /// Off: every read of the library's queue tag goes through `DispatchQueue.getSpecific`, with the same
    /// answers — raw work on the owner's queue passes, another queue's is reported.
    @Test(.exitTest) func withoutTheBoxReadGetSpecificGivesTheSameAnswers() async {
        await #expect(processExitsWith: .success) {
            setenv("SCHEDULABLE_DISABLE_QUEUE_SPECIFIC_READ", "1", 1)
            guard !QueueSpecificReader.isVerified else { exit(3) }
            let recorder = ViolationRecorder()
            let owner = SerialQueueScheduler(label: "exit.internals.box.owner")
            let counter = settledCounter(owner: owner, recorder: recorder)
            for _ in 0..<PlatformInternalsTests.repetitions { owner.queue.sync { counter.ping() } }
            guard recorder.count == 0 else { exit(4) }
            DispatchQueue(label: "exit.internals.box.other").sync { counter.ping() }
            guard recorder.count == expectedDebugTier(1) else { exit(5) }
        }
    }

    // MARK: Queue label conventions

    /// The table, and the self-check's own observations: a global queue's work is the pool, a serial
    /// queue's is a queue, a plain thread runs no queue work.
    @Test func theLabelConventionsAreConfirmedHere() {
        #expect(csched_label_conventions_confirmed())
        #expect(DispatchQueue.global().sync { csched_label_kind_of(csched_current_queue_label()) } == 1)
        #expect(DispatchQueue(label: "test.internals.labels").sync { csched_label_kind_of(csched_current_queue_label()) } == 2)
        #expect(csched_label_kind_of("Swift global concurrent queue") == 1)
        let plain = LockedList<Int32>()
        onPlainThread { plain.append(csched_label_kind_of(csched_current_queue_label())) }
        #expect(plain.elements == [0])
    }

    /// Off: no thread can be told from a pool worker, so a detached object's first use on a plain thread
    /// is reported as not serial (and binds to nothing), where it would bind with the conventions on.
    @Test(.exitTest) func withoutTheLabelConventionsAPlainThreadBindsNothing() async {
        await #expect(processExitsWith: .success) {
            setenv("SCHEDULABLE_DISABLE_LABEL_CONVENTIONS", "1", 1)
            guard !csched_label_conventions_confirmed(), csched_label_kind_of(nil) == 1 else { exit(3) }
            let recorder = ViolationRecorder()
            for _ in 0..<PlatformInternalsTests.repetitions {
                let counter = withConfinementViolationHandler(recorder) { Counter(confinement: .detached()) }
                onPlainThread { counter.ping() }
            }
            let kinds = Set(recorder.violations.map(\.kind))
            guard recorder.count == expectedDebugTier(PlatformInternalsTests.repetitions),
                kinds == (ConfinementSystem.debugChecksCompiledIn ? [.concurrentQueue] : [])
            else { exit(4) }
        }
    }

    // MARK: Task ids

    @Test func taskIDsAreReadHere() async {
        #expect(csched_task_ids_available())
        #expect(PlatformInternals.currentTaskID != 0)
        let other = await Task.detached { PlatformInternals.currentTaskID }.value
        #expect(other != 0 && other != PlatformInternals.currentTaskID)
    }

    /// The runtime's current executor: the generic one (0) in a task on the pool, each actor its own,
    /// the same actor the same after a suspension. What a task's construction window is keyed by besides
    /// the task.
    @Test func theCurrentExecutorTellsActorsApart() async {
        let pool = await Task.detached { PlatformInternals.currentExecutorIdentity }.value
        let first = ExecutorProbe(), second = ExecutorProbe()
        let inFirst = await first.identityAcrossASuspension()
        let inSecond = await second.identityAcrossASuspension()
        #expect(pool == 0)
        #expect(inFirst.0 != 0 && inFirst.0 == inFirst.1)
        #expect(inSecond.0 != 0 && inSecond.0 == inSecond.1)
        #expect(inFirst.0 != inSecond.0)
        let onMain = await MainActor.run { PlatformInternals.currentExecutorIdentity }
        #expect(onMain != 0 && onMain != inFirst.0)
    }

    /// Off: every task id is 0, so a task gets no construction window: its own use of an object it just
    /// built for another owner is reported (with task ids it passes: `TaskConstructionWindowTests`).
    @Test(.exitTest) func withoutTaskIDsATaskHasNoConstructionWindow() async {
        await #expect(processExitsWith: .success) {
            setenv("SCHEDULABLE_DISABLE_TASK_IDS", "1", 1)
            guard !csched_task_ids_available() else { exit(3) }
            let recorder = ViolationRecorder()
            let owner = SerialQueueScheduler(label: "exit.internals.tasks.owner")
            for _ in 0..<PlatformInternalsTests.repetitions {
                let id = await Task.detached { () -> UInt64 in
                    let counter = withConfinementViolationHandler(recorder) { Counter(owner: owner) }
                    counter.ping()
                    return PlatformInternals.currentTaskID
                }.value
                guard id == 0 else { exit(4) }
            }
            guard recorder.count == expectedDebugTier(PlatformInternalsTests.repetitions) else { exit(5) }
        }
    }

    // MARK: swift_isDeallocating

    @Test func theDeallocatingReadIsConfirmedHere() {
        final class Plain {}
        #expect(PlatformInternals.isDeallocating(Plain()) == false)
    }

    /// Off: the deinit exemption is gone — an access in a deinit that runs off the owner is reported
    /// (`DeinitExemptionTests` shows the same scenario unreported with the switch unset).
    @Test(.exitTest) func withoutTheDeallocatingReadDeinitAccessesAreReported() async {
        await #expect(processExitsWith: .success) {
            setenv("SCHEDULABLE_DISABLE_DEINIT_EXEMPTION", "1", 1)
            final class Releasing: ConfinedObject, @unchecked Sendable {
                let confinement: Confinement
                @Confined var handles = [1, 2, 3]
                init(owner: SerialQueueScheduler) { confinement = Confinement(owner: owner) }
                deinit { handles.removeAll() }
            }
            guard PlatformInternals.isDeallocating(Releasing(owner: SerialQueueScheduler(label: "exit.probe"))) == nil
            else { exit(3) }
            let recorder = ViolationRecorder()
            let owner = SerialQueueScheduler(label: "exit.internals.deinit.owner")
            for _ in 0..<PlatformInternalsTests.repetitions {
                var object: Releasing? = withConfinementViolationHandler(recorder) { Releasing(owner: owner) }
                owner.sync { object?.handles.append(4) }
                let box = UncheckedBox(object!)
                object = nil
                onPlainThread { box.value = nil }
            }
            guard recorder.count == expectedDebugTier(PlatformInternalsTests.repetitions) else { exit(4) }
        }
    }

    // MARK: The trap report

    @Test func theTrapHandlerInstallsHere() {
        #expect(csched_trap_handler_installed())
    }

    /// Off (with the drain-lock reader off too, as on Darwin): `dispatchPrecondition` is not asked, since
    /// its failure would stop the process without a word on Linux. Raw nesting in raw owner work is then
    /// reported — a trapping check stops the process *with* the report — where with the trap report on
    /// libdispatch arbitrates and the access passes (`DispatchReaderTests`).
    @Test(.exitTest) func withoutTheTrapReportATrappingCheckReportsInsteadOfAsking() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            setenv("SCHEDULABLE_DISABLE_DISPATCH_READER", "1", 1)
            setenv("SCHEDULABLE_DISABLE_TRAP_REPORT", "1", 1)
            let owner = SerialQueueScheduler(label: "exit.internals.trap.owner")
            let trapping = Counter(owner: owner)
            trapping.confinement.endConstruction()
            owner.queue.sync {
                DispatchQueue(label: "exit.internals.trap.inner").sync { trapping.incrementAlways() }
            }
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(stderr.contains("expected owner:  queue \"exit.internals.trap.owner\""))
        }
    }

    // MARK: Xcode runtime issues

    /// Linux has no runtime issues: the entry point is never found, so raising one does nothing. (The
    /// kill switch's effect can only be shown on an Apple OS.)
    @Test(.exitTest) func runtimeIssuesAreAnAppleFacility() async {
        #if canImport(Darwin)
        #expect(PlatformInternals.runtimeIssuesAvailable)
        await #expect(processExitsWith: .success) {
            setenv("SCHEDULABLE_DISABLE_RUNTIME_ISSUES", "1", 1)
            guard !PlatformInternals.runtimeIssuesAvailable else { exit(3) }
        }
        #else
        #expect(!csched_runtime_issues_available())
        #expect(!PlatformInternals.runtimeIssuesAvailable)
        #endif
    }

    // MARK: The test-framework probe

    /// On: this process is seen running Swift Testing, so a process without the bridge would get the hint.
    /// (This test binary links SchedulableTesting through another test target, so the hint itself is never
    /// printed here: the message is asked for directly.)
    @Test func theProbeSeesSwiftTestingAndTheHintFollows() {
        #expect(PlatformInternals.testFrameworksLoaded & CSCHED_TEST_FRAMEWORK_SWIFT_TESTING != 0)
        #expect(TestFrameworkHint.message(bridgeInstalled: false, frameworks: PlatformInternals.testFrameworksLoaded) != nil)
    }

    /// Off: no framework is seen, so there is no hint to print.
    @Test(.exitTest) func withoutTheProbeThereIsNoHint() async {
        await #expect(processExitsWith: .success) {
            setenv("SCHEDULABLE_DISABLE_TEST_FRAMEWORK_PROBE", "1", 1)
            guard csched_test_frameworks_loaded() & CSCHED_TEST_FRAMEWORK_SWIFT_TESTING != 0 else { exit(3) }
            guard PlatformInternals.testFrameworksLoaded == 0,
                TestFrameworkHint.message(bridgeInstalled: false, frameworks: PlatformInternals.testFrameworksLoaded) == nil
            else { exit(4) }
        }
    }

    // MARK: The Runtime module's backtraces

    @Test func theRuntimeBacktraceHasSourceLines() {
        let frames = DispatchQueue(label: "test.internals.backtrace").sync { CallStack.capture(limit: 32) }.frames()
        #expect(frames.contains { $0.line != nil })
    }

    /// The `Runtime` reads `backtrace(3)`'s addresses through its `Codable` form, whose frames are base64.
    @Test func theAddressesReachTheRuntimeUnchanged() {
        #if canImport(Runtime)
        guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) else { return }
        for (bytes, text) in [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foobar", "Zm9vYmFy")] {
            #expect(RuntimeBacktraceReader.base64(Array(bytes.utf8)) == text)
        }
        let addresses: [UInt] = [0x1, 0x7fff_ffff_ffff_fff0, 0xffff_ffff_ffff_fff0, 0x5555_5555_1234]
        // `backtrace(of:)` answers only when the module's decoding gives the same addresses back.
        #expect(RuntimeBacktraceReader.backtrace(of: addresses) != nil)
        #expect(RuntimeBacktraceReader.backtrace(of: []) == nil)
        #endif
    }

    /// Off: stacks come from `backtrace(3)` and `dladdr`: images and exported symbols, no source lines.
    @Test(.exitTest) func withoutTheRuntimeBacktraceTheFallbackCaptures() async {
        await #expect(processExitsWith: .success) {
            setenv("SCHEDULABLE_DISABLE_RUNTIME_BACKTRACE", "1", 1)
            let frames = DispatchQueue(label: "exit.internals.backtrace").sync { CallStack.capture(limit: 32) }.frames()
            guard frames.count > 3, frames.contains(where: { $0.image == dispatchImageName }),
                frames.allSatisfy({ $0.line == nil && $0.path == nil })
            else { exit(3) }
        }
    }

    #if os(Linux)
    /// On: a symbolicated stack reads its images' DWARF for inlined calls. Off: the `Runtime` module's
    /// inlined frames stay, and the library's reader is never consulted; the stack keeps its lines.
    @Test(.exitTest, arguments: [false, true])
    func theDwarfReaderSwitchLeavesLinesAndInlinedFramesToTheRuntime(switchedOff: Bool) async {
        await #expect(processExitsWith: .success) { [switchedOff] in
            if switchedOff { setenv("SCHEDULABLE_DISABLE_DWARF_READER", "1", 1) }
            let frames = stackCapturedOnAQueue()
            guard frames.contains(where: { $0.path?.hasSuffix("PlatformInternalsTests.swift") == true && $0.line != nil })
            else { exit(3) }
            if switchedOff ? InlinedCallSites.imagesRead != 0 : InlinedCallSites.imagesRead == 0 { exit(4) }
        }
    }
    #endif

    /// Every switch is named `SCHEDULABLE_DISABLE_<ROW>`, and the two that predate the table keep their names.
    @Test func theSwitchesFollowOnePattern() {
        let names = PlatformInternals.Switch.allCases.map(\.environmentVariable)
        #expect(names.allSatisfy { $0.hasPrefix("SCHEDULABLE_DISABLE_") })
        #expect(names.contains("SCHEDULABLE_DISABLE_DISPATCH_READER"))
        #expect(names.contains("SCHEDULABLE_DISABLE_PROPERTY_NAMES"))
        #expect(Set(names).count == names.count)
    }
}

#if os(Linux)
/// A stack captured in this file (outside any macro's expansion), symbolicated.
private func stackCapturedOnAQueue() -> [CallStack.Frame] {
    DispatchQueue(label: "exit.internals.dwarf").sync { CallStack.capture(limit: 32) }.frames()
}
#endif

/// An actor that reads the runtime's current executor on itself, before and after suspending.
actor ExecutorProbe {
    func identityAcrossASuspension() async -> (UInt, UInt) {
        let before = PlatformInternals.currentExecutorIdentity
        await Task.yield()
        return (before, PlatformInternals.currentExecutorIdentity)
    }
}

import CSchedulableTestSupport
import Dispatch
import Foundation
import Schedulable
import Testing

/// A report never crashes the program it watches: its stack is captured from every kind of thread a
/// violation can happen on, through a frame whose frame-pointer register holds an async-looking value
/// (what a frame-pointer walk met in libdispatch's frames on Linux, and faulted on), thousands of times
/// per context. Each context runs in a child process, so a fault fails its test instead of ending the
/// run. The main thread's case runs in `schedulable-main-probe` (StackCapture.swift), the only program
/// here whose top-level code runs on the main thread.
@Suite("Stack capture never faults", .enabled(if: ConfinementSystem.debugChecksCompiledIn, "only the debug tier captures stacks of reports that do not trap"))
struct StackCaptureStressTests {
    @Test(.exitTest) func onDispatchWorkers() async {
        await #expect(processExitsWith: .success) { StackCaptureStress.exitUnlessClean(.dispatchWorker) }
    }

    @Test(.exitTest) func onTheCooperativePool() async {
        await #expect(processExitsWith: .success) { StackCaptureStress.exitUnlessClean(.cooperativePool) }
    }

    @Test(.exitTest) func onPlainThreads() async {
        await #expect(processExitsWith: .success) { StackCaptureStress.exitUnlessClean(.plainThread) }
    }

    @Test(.exitTest) func insideADeinitOnADispatchWorker() async {
        await #expect(processExitsWith: .success) { StackCaptureStress.exitUnlessClean(.deinitOnWorker) }
    }

    @Test(.exitTest) func insideACCallbackOnAThreadOfItsOwn() async {
        await #expect(processExitsWith: .success) { StackCaptureStress.exitUnlessClean(.cCallbackOnPthread) }
    }

    @Test func onTheMainThread() throws {
        let outcome = try runMainProbe(["stack-capture", String(StackCaptureStress.reportsPerContext)])
        #expect(outcome.exitStatus == 0, "signal \(outcome.signal.map(String.init) ?? "none"); stderr: \(outcome.standardError)")
    }

    /// The same driver in this process, a few times, so a wrong count or a missing frame shows as an
    /// expectation with its values (the exit tests can only say "exited 3").
    @Test(arguments: StackCaptureStress.Context.allCases)
    func everyReportKeepsItsSiteAndTheFramesBelowTheClobberedOne(_ context: StackCaptureStress.Context) {
        let outcome = StackCaptureStress.run(context, reports: 20)
        #expect(outcome.reports == 20)
        #expect(outcome.withAccessSite == 20, "\(outcome.firstReport)")
        #expect(outcome.reachingBelow == (csched_test_clobbers_frame_pointer() ? 20 : outcome.reachingBelow), "\(outcome.firstReport)")
    }
}

/// Makes reports of a wrong-context call from one kind of thread, each through a clobbered frame.
enum StackCaptureStress {
    /// Where the violating call runs.
    enum Context: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case dispatchWorker, cooperativePool, plainThread, deinitOnWorker, cCallbackOnPthread
        var testDescription: String { rawValue }
    }

    /// What the reports of one run looked like.
    struct Outcome: Sendable {
        var reports = 0
        /// Reports with an access site: with a file and a line in debug builds; in optimized ones a
        /// frame, whose line the compiler may not have kept (ReportingViolations.md).
        var withAccessSite = 0
        /// Reports whose stack reaches `callBelowTheClobberedFrame`, the caller of the clobbered frame:
        /// the unwinder stepped over it.
        var reachingBelow = 0
        /// The first report's access site and stack, for a failure's message.
        var firstReport = ""
    }

    /// How many reports each exit test makes.
    static let reportsPerContext = 2_000

    /// Runs `context`'s reports in this (child) process and exits 0 if every one was made, kept its
    /// access site and reached below the clobbered frame; 3 otherwise. A fault ends the process with a
    /// signal, which the parent sees as a failure.
    static func exitUnlessClean(_ context: Context) -> Never {
        setenv(ConfinementSystem.stackDepthEnvironmentVariable, "16", 1)
        let outcome = run(context, reports: reportsPerContext)
        let below = csched_test_clobbers_frame_pointer() ? outcome.reports : outcome.reachingBelow
        let clean = outcome.reports == reportsPerContext && outcome.withAccessSite == outcome.reports
            && outcome.reachingBelow == below
        exit(clean ? 0 : 3)
    }

    /// Makes `reports` violations of one settled counter from `context` and reads every report's site.
    static func run(_ context: Context, reports: Int) -> Outcome {
        let recorder = ViolationRecorder()
        let counter = settledCounter(owner: SerialQueueScheduler(label: "stack-capture.owner"), recorder: recorder)
        for _ in 0..<reports { violate(counter, from: context) }
        var outcome = Outcome()
        for violation in recorder.violations {
            if outcome.reports == 0 {
                outcome.firstReport = "site: \(violation.accessSite.map(String.init(describing:)) ?? "none"); stack: \(violation.stack)"
            }
            outcome.reports += 1
            if let site = violation.accessSite, !site.function.isEmpty, site.line != nil || !Self.linesAreExpected {
                outcome.withAccessSite += 1
            }
            if violation.stack.contains(where: { $0.function.contains("callBelowTheClobberedFrame") }) {
                outcome.reachingBelow += 1
            }
        }
        return outcome
    }

    /// Whether access sites must have lines: in debug builds; `-O` may give a call line 0.
    private static var linesAreExpected: Bool {
        #if SCHEDULABLE_DEBUG_BUILD
        return true
        #else
        return false
        #endif
    }

    private static func violate(_ counter: Counter, from context: Context) {
        switch context {
        case .dispatchWorker:
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                callBelowTheClobberedFrame { counter.ping() }
                done.signal()
            }
            done.wait()
        case .cooperativePool:
            let done = DispatchSemaphore(value: 0)
            Task.detached {
                callBelowTheClobberedFrame { counter.ping() }
                done.signal()
            }
            done.wait()
        case .plainThread:
            onPlainThread { callBelowTheClobberedFrame { counter.ping() } }
        case .deinitOnWorker:
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                callBelowTheClobberedFrame { _ = PingsOnDeinit(counter) }
                done.signal()
            }
            done.wait()
        case .cCallbackOnPthread:
            onPthread { callBelowTheClobberedFrame { counter.ping() } }
        }
    }
}

/// Calls `body` through the clobbered frame; its own frame is the one the stack must reach.
@inline(never)
func callBelowTheClobberedFrame(_ body: () -> Void) {
    withoutActuallyEscaping(body) { body in
        let box = Unmanaged.passRetained(ClosureBox(body))
        csched_test_call_with_clobbered_frame_pointer({ context in
            Unmanaged<ClosureBox>.fromOpaque(context!).takeUnretainedValue().body()
        }, box.toOpaque())
        box.release()
    }
}

private final class ClosureBox {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}

/// Touches its counter from its deinit, wherever the last release happens.
private final class PingsOnDeinit {
    let counter: Counter
    init(_ counter: Counter) { self.counter = counter }
    deinit { counter.ping() }
}

/// Runs `body` on a thread made with `pthread_create` (no Foundation, no dispatch) and joins it.
private func onPthread(_ body: @escaping @Sendable () -> Void) {
    final class Start { let body: @Sendable () -> Void; init(_ body: @escaping @Sendable () -> Void) { self.body = body } }
    let start = Unmanaged.passRetained(Start(body)).toOpaque()
    var thread = pthread_t()
    let created = pthread_create(&thread, nil, { argument in
        let start = Unmanaged<Start>.fromOpaque(argument!).takeRetainedValue()
        start.body()
        return nil
    }, start)
    precondition(created == 0, "pthread_create: \(created)")
    pthread_join(thread, nil)
}

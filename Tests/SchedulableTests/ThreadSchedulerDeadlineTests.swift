import Dispatch
import Testing

@testable import Schedulable

/// What only a thread scheduler does with deadlines: its own loop keeps them (equal deadlines in
/// scheduling order, no wake-ups while it waits), and shutdown decides their fate.
@Suite("Thread scheduler deadlines")
struct ThreadSchedulerDeadlineTests {
    @Test func equalDeadlinesRunInTheOrderTheyWereScheduled() {
        let scheduler = ThreadScheduler(label: "test.deadline.ties")
        defer { scheduler.shutdown() }
        for _ in 0..<20 {
            let deadline = DispatchTime.now() + .microseconds(500)
            let order = LockedList<Int>()
            let group = DispatchGroup()
            for index in 0..<50 {
                group.enter()
                scheduler.schedule(at: deadline) {
                    order.append(index)
                    group.leave()
                }
            }
            #expect(waitForAll(group))
            #expect(order.elements == Array(0..<50))
        }
    }

    @Test func shutdownCancelsWorkNotYetDueAndReportsEachAsANote() {
        for index in 0..<100 {
            let scheduler = ThreadScheduler(label: "test.deadline.shutdown.\(index)")
            let recorder = ViolationRecorder()
            let ran = LockedList<String>()
            let (delayed, timer) = withConfinementViolationHandler(recorder) {
                (
                    scheduler.schedule(after: .seconds(10)) { ran.append("delayed") },
                    scheduler.scheduleRepeating(every: .seconds(10)) { _ in ran.append("timer") }
                )
            }
            scheduler.shutdown()
            #expect(delayed.isCancelled && timer.isCancelled)
            #expect(!delayed.cancel() && !timer.cancel())
            #expect(ran.elements.isEmpty)
            let notes = recorder.violations
            #expect(notes.map(\.kind) == [.cancelledAtShutdown, .cancelledAtShutdown])
            #expect(notes.map(\.tier) == [.note, .note])
            #expect(notes.map(\.member) == ["schedule(at:)", "scheduleRepeating(every:)"])
            #expect(notes.allSatisfy { $0.callSite?.fileID.hasSuffix("ThreadSchedulerDeadlineTests.swift") == true })
            #expect(notes.first?.description.contains("Schedulable: note: work cancelled by the shutdown of thread scheduler") == true)
        }
    }

    @Test func shutdownRunsDelayedWorkThatIsAlreadyDueAndReportsNothing() {
        for index in 0..<100 {
            let scheduler = ThreadScheduler(label: "test.deadline.due.\(index)")
            let recorder = ViolationRecorder()
            let ran = LockedList<Bool>()
            let release = occupy(scheduler)
            let handle = withConfinementViolationHandler(recorder) {
                scheduler.schedule(at: .now()) { ran.append(scheduler.isIsolated) }
            }
            release.signal()
            scheduler.shutdown()
            #expect(ran.elements == [true])
            #expect(!handle.isCancelled)
            #expect(recorder.count == 0)
        }
    }

    @Test func delayedWorkAndTimersAreRejectedAfterShutdown() {
        let scheduler = ThreadScheduler(label: "test.deadline.rejected")
        scheduler.shutdown()
        #expect(throws: ScheduleRejection.self) { try scheduler.trySchedule(at: .now()) {} }
        #expect(throws: ScheduleRejection.self) { try scheduler.tryScheduleRepeating(every: .seconds(1)) { _ in } }
    }

    /// The default handler decides: a trap in debug builds, a warning (and the work dropped) in release.
    @Test(.exitTest) func reportedRejectionOfDelayedWorkFollowsTheDefaultHandler() async {
        let outcome: ExitTest.Condition = ConfinementSystem.defaultLevel == .trap ? .failure : .success
        await #expect(processExitsWith: outcome, observing: [\.standardErrorContent]) {
            let scheduler = ThreadScheduler(label: "exit.deadline.rejected")
            scheduler.shutdown()
            scheduler.schedule(after: .milliseconds(1)) {}
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(stderr.contains("work rejected by thread scheduler \"exit.deadline.rejected\""))
            #expect(stderr.contains("member:          schedule(after:_:)"))
        }
    }

    @Test(.enabled(if: threadsHaveProcEntries, "reads /proc/self/task (Linux)"))
    func aLoopWaitingForAFarDeadlineNeverWakesUp() async throws {
        let scheduler = ThreadScheduler(label: "test.deadline.idle")
        let recorder = ViolationRecorder()
        defer { withConfinementViolationHandler(recorder) { scheduler.shutdown() } }
        let far = withConfinementViolationHandler(recorder) {
            // Far beyond the test's own length, even when a loaded run stretches its 50 windows: a
            // deadline of 30 s came due inside a window in a full parallel run on 2 cores.
            scheduler.schedule(after: .seconds(3600)) {}
        }
        // 50 windows of 20 ms, each after an event that sends the loop back to a timed wait whose
        // timeout it computes anew: a loop that polls or shortens its wait shows a wake-up in some.
        for _ in 0..<50 {
            scheduler.sync {}
            try #require(waitUntilTheLoopSleeps(scheduler))
            let window = try await observeSleepingLoop(scheduler, milliseconds: 20)
            #expect(window.switches == 0 && window.waits == WaitCounts(), "\(window)")
        }
        #expect(!far.isCancelled)
    }

    @Test func deadlinesKeepFiringWhileTheLoopPumpsForASynchronousCall() {
        // A synchronous call from a thread scheduler's event keeps its loop turning: due work runs
        // nested in the wait, inside the waiting scheduler's context.
        let caller = ThreadScheduler(label: "test.deadline.pump.caller")
        let callee = ThreadScheduler(label: "test.deadline.pump.callee")
        defer {
            caller.shutdown()
            callee.shutdown()
        }
        for _ in 0..<50 {
            let ranInCaller = Slot<Bool>()
            let delayedRan = DispatchSemaphore(value: 0)
            caller.sync {
                caller.schedule(after: .microseconds(100)) {
                    ranInCaller.set(caller.isIsolated)
                    delayedRan.signal()
                }
                // The callee waits until the caller's delayed work has run, which only the pump can do.
                callee.sync { _ = delayedRan.wait(timeout: .now() + 5) }
            }
            #expect(ranInCaller.get == true)
        }
    }
}

import CSchedulableContext
import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The event queue and loop of one ``ThreadScheduler``, and the thread that runs them.
///
/// Kept apart from the public class so that the thread holds the loop, not the scheduler: dropping the
/// last reference to a scheduler that was never shut down still lets it shut down (from `deinit`).
///
/// One concern a file: this one holds the state, submitting and running; `+Lifecycle` starts the
/// thread and shuts it down; `+Deadlines` keeps delayed work and timers. The state is internal rather
/// than private only so that those files can reach it: nothing outside the three touches it.
final class ThreadSchedulerLoop: @unchecked Sendable {
    // @unchecked: every mutable field below is either guarded by `mutex` (or `exitMutex`) or confined to the loop
    // thread, as its comment says; the rest are immutable.

    typealias Event = @Sendable () -> Void

    let context: ExecutionContext
    let mutex = PlatformMutex()
    /// Signalled when an event arrives or the loop must stop; only the loop thread waits on it.
    let wakeUp = PlatformCondition()
    /// Separate from `mutex` and `wakeUp` so that `shutdown()` callers waiting for the loop to finish
    /// are never woken instead of the loop thread (which a `signal` could otherwise do).
    let exitMutex = PlatformMutex()
    let exitCondition = PlatformCondition()

    // Guarded by `mutex`.
    var pending: [SitedEvent?] = []
    var isAccepting = true
    var isLoopWaiting = false
    #if DEBUG
    /// What the loop's waits did (see `WaitCounts`): debug builds only.
    var waitCounts = WaitCounts()
    #endif
    /// Some caller has taken charge of the thread's end: it joins the thread, or the thread detaches
    /// itself (a shutdown requested from the loop thread or from `deinit`).
    var isJoinClaimed = false
    var detachesOnExit = false
    /// Delayed work and timers not yet due; the loop's wait ends at the earliest deadline.
    var deadlines = DeadlineStore<ScheduledWork>()

    // Guarded by `exitMutex`.
    var hasExited = false

    // Confined to the loop thread. The batch is a member, not a local, so that a nested pump (a
    // synchronous call that keeps this loop turning) continues the same batch: events run in FIFO
    // order however deep the nesting.
    private var batch: [SitedEvent?] = []
    private var batchIndex = 0

    /// The loop thread's never-reused unique id, 0 until the thread starts.
    let loopThreadID = AtomicCell()
    /// The loop thread's OS thread id, 0 until the thread starts.
    let osThreadID = AtomicCell()

    /// The loop thread's pthread handle (`csched_thread_start`). Written by `start` before the
    /// scheduler's initializer returns, read only after it (to join, or to lend a waiter's QoS).
    var threadHandle: UInt = 0

    init(context: ExecutionContext) {
        self.context = context
        pending.reserveCapacity(64)
        batch.reserveCapacity(64)
    }

    // MARK: Submitting

    /// Appends `event`, or returns false when the loop no longer accepts events.
    func enqueue(_ event: @escaping Event, site: WorkSite = .unrecorded) -> Bool {
        mutex.lock()
        guard isAccepting else {
            mutex.unlock()
            return false
        }
        pending.append(SitedEvent(run: event, site: site))
        // Only the loop thread ever waits on `wakeUp`, and only when it has nothing to do.
        if isLoopWaiting { signalWakeUp() }
        mutex.unlock()
        return true
    }

    /// Wakes the loop if it waits, so that a pumping synchronous call can see its completion.
    func wake() {
        mutex.withLock {
            if isLoopWaiting { signalWakeUp() }
        }
    }

    /// Wakes the waiting loop; call with `mutex` held. Every wake-up this loop's code asks for goes
    /// through here, so that `waitCounts` can tell them from the ones it did not ask for.
    func signalWakeUp() {
        #if DEBUG
        waitCounts.signals += 1
        #endif
        wakeUp.signal()
    }

    // MARK: Running

    /// The thread's whole life: run events until shut down and drained.
    func runLoop() {
        while true {
            if runNextBufferedEvent() { continue }
            mutex.lock()
            enqueueDueDeadlines()
            while pending.isEmpty && isAccepting {
                isLoopWaiting = true
                waitForWakeUpOrDeadline()
                isLoopWaiting = false
                enqueueDueDeadlines()
            }
            if pending.isEmpty {
                // Shut down, and every accepted event has run.
                mutex.unlock()
                return
            }
            swap(&pending, &batch)
            mutex.unlock()
        }
    }

    /// Runs this loop's events until `completion` is set: the wait of a synchronous call made from
    /// this loop's own thread, which keeps the loop turning so that work it waits for may call back
    /// into it (the POS Assembly cycle). Events still run one at a time, on this thread, in order.
    func pump(until completion: Completion) {
        while true {
            if completion.isDone { return }
            if runNextBufferedEvent() { continue }
            mutex.lock()
            enqueueDueDeadlines()
            while pending.isEmpty && !completion.isDone {
                isLoopWaiting = true
                waitForWakeUpOrDeadline()
                isLoopWaiting = false
                enqueueDueDeadlines()
            }
            if !pending.isEmpty { swap(&pending, &batch) }
            mutex.unlock()
        }
    }

    /// Runs the next event of the current batch; false when the batch is used up (it is then empty,
    /// with its capacity kept for the next swap).
    private func runNextBufferedEvent() -> Bool {
        guard batchIndex < batch.count else {
            if !batch.isEmpty {
                batch.removeAll(keepingCapacity: true)
                batchIndex = 0
            }
            return false
        }
        // Take the event out so that what it captured is released as soon as it has run, not when
        // the batch ends (an idle loop must not keep objects alive).
        let event = batch[batchIndex].take()!
        batchIndex += 1
        // `outer: nil`: an event pumped during a synchronous wait must not inherit the waiting
        // event's chain (a queue's `sync` frame, a blocked caller's contexts) — it is separate work.
        // In an autorelease pool (Darwin), so Objective-C objects the event autoreleased are freed
        // when it ends, not when the thread does.
        let pool = csched_autorelease_pool_push()
        context._run(outer: nil, site: event.site, event.run)
        csched_autorelease_pool_pop(pool)
        return true
    }
}

/// Counts of a loop's waits, guarded by its mutex: how many returned, how many of those this loop's
/// code signalled, and how many ran out of time. The tests that prove an idle loop never wakes up
/// read them beside the kernel's context switches, so that a failure says whose wake-up it was (they
/// found that a test's "far" deadline had come due in a slow run). Counted in debug builds only: a
/// release build's loop does nothing for tests on its waits, and there the kernel's count alone is
/// the proof (a wait that returns is a context switch).
/// An event and where it was scheduled from: stored side by side in the loop's buffers (no allocation).
struct SitedEvent {
    let run: ThreadSchedulerLoop.Event
    let site: WorkSite
}

struct WaitCounts: Equatable {
    var returns = 0
    var signals = 0
    var timeouts = 0
}

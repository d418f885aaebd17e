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
final class ThreadSchedulerLoop: @unchecked Sendable {
    // @unchecked: every mutable field below is either guarded by `mutex` (or `exitMutex`) or confined to the loop
    // thread, as its comment says; the rest are immutable.

    typealias Event = @Sendable () -> Void

    let context: ExecutionContext
    private let mutex = PlatformMutex()
    /// Signalled when an event arrives or the loop must stop; only the loop thread waits on it.
    private let wakeUp = PlatformCondition()
    /// Separate from `mutex` and `wakeUp` so that `shutdown()` callers waiting for the loop to finish
    /// are never woken instead of the loop thread (which a `signal` could otherwise do).
    private let exitMutex = PlatformMutex()
    private let exitCondition = PlatformCondition()

    // Guarded by `mutex`.
    private var pending: [Event?] = []
    private var isAccepting = true
    private var isLoopWaiting = false
    /// Some caller has taken charge of the thread's end: it joins the thread, or the thread detaches
    /// itself (a shutdown requested from the loop thread or from `deinit`).
    private var isJoinClaimed = false
    private var detachesOnExit = false
    /// Delayed work and timers not yet due; the loop's wait ends at the earliest deadline.
    private var deadlines = DeadlineStore<ScheduledWork>()

    // Guarded by `exitMutex`.
    private var hasExited = false

    // Confined to the loop thread. The batch is a member, not a local, so that a nested pump (a
    // synchronous call that keeps this loop turning) continues the same batch: events run in FIFO
    // order however deep the nesting.
    private var batch: [Event?] = []
    private var batchIndex = 0

    /// The loop thread's never-reused unique id, 0 until the thread starts.
    private let loopThreadID = AtomicCell()
    /// The loop thread's OS thread id, 0 until the thread starts.
    let osThreadID = AtomicCell()

    /// The loop thread's pthread handle (`csched_thread_start`). Written by `start` before the
    /// scheduler's initializer returns, read only after it (to join, or to lend a waiter's QoS).
    private(set) var threadHandle: UInt = 0

    init(context: ExecutionContext) {
        self.context = context
        pending.reserveCapacity(64)
        batch.reserveCapacity(64)
    }

    // MARK: Thread lifecycle

    /// Starts the loop thread with a stack of `stackSize` bytes and (Darwin) the QoS class
    /// `qosClass` (a `qos_class_t` value); `onThreadStart` runs on it first (to set its priority).
    func start(
        threadName: String, stackSize: Int, qosClass: UInt32, onThreadStart: @escaping @Sendable () -> Void
    ) {
        let retained = Unmanaged.passRetained(
            StartInfo(loop: self, threadName: threadName, onThreadStart: onThreadStart)
        )
        var handle: UInt = 0
        let result = csched_thread_start(&handle, { raw in
            ThreadSchedulerLoop.threadEntry(raw!)
            return nil
        }, retained.toOpaque(), stackSize, qosClass)
        threadHandle = handle
        if result != 0 {
            retained.release()
            fatalError("Schedulable: ThreadScheduler \"\(context.label)\": pthread_create failed with error \(result)")
        }
        // Wait until the thread knows who it is, so that `isOnLoopThread` and the thread id are
        // exact from the moment the initializer returns.
        exitMutex.withLock {
            while loopThreadID.loadAcquiring() == 0 { exitCondition.wait(on: exitMutex) }
        }
    }

    private final class StartInfo {
        let loop: ThreadSchedulerLoop
        let threadName: String
        let onThreadStart: @Sendable () -> Void
        init(loop: ThreadSchedulerLoop, threadName: String, onThreadStart: @escaping @Sendable () -> Void) {
            self.loop = loop
            self.threadName = threadName
            self.onThreadStart = onThreadStart
        }
    }

    private static func threadEntry(_ raw: UnsafeMutableRawPointer) {
        let info = Unmanaged<StartInfo>.fromOpaque(raw).takeRetainedValue()
        let loop = info.loop
        csched_set_thread_name(info.threadName)
        info.onThreadStart()
        pthread_setspecific(currentLoopKey, Unmanaged.passUnretained(loop).toOpaque())
        loop.osThreadID.storeReleasing(UInt(truncatingIfNeeded: csched_os_thread_id()))
        loop.exitMutex.withLock {
            loop.loopThreadID.storeReleasing(UInt(csched_thread_unique_id()))
            loop.exitCondition.broadcast()
        }
        loop.runLoop()
        pthread_setspecific(currentLoopKey, nil)
        let detaches = loop.mutex.withLock { loop.detachesOnExit }
        if detaches { pthread_detach(pthread_self()) }
        loop.exitMutex.withLock {
            loop.hasExited = true
            loop.exitCondition.broadcast()
        }
    }

    /// Whether the calling code runs on this loop's thread.
    var isOnLoopThread: Bool {
        loopThreadID.loadRelaxed() == UInt(csched_thread_unique_id())
    }

    /// The loop that owns the calling thread, if the calling thread is a thread scheduler's.
    static var current: ThreadSchedulerLoop? {
        guard let raw = pthread_getspecific(currentLoopKey) else { return nil }
        return Unmanaged<ThreadSchedulerLoop>.fromOpaque(raw).takeUnretainedValue()
    }

    // MARK: Submitting

    /// Appends `event`, or returns false when the loop no longer accepts events.
    func enqueue(_ event: @escaping Event) -> Bool {
        mutex.lock()
        guard isAccepting else {
            mutex.unlock()
            return false
        }
        pending.append(event)
        // Only the loop thread ever waits on `wakeUp`, and only when it has nothing to do.
        if isLoopWaiting { wakeUp.signal() }
        mutex.unlock()
        return true
    }

    /// Wakes the loop if it waits, so that a pumping synchronous call can see its completion.
    func wake() {
        mutex.withLock {
            if isLoopWaiting { wakeUp.signal() }
        }
    }

    // MARK: Running

    /// The thread's whole life: run events until shut down and drained.
    private func runLoop() {
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
        context._run(outer: nil, event)
        csched_autorelease_pool_pop(pool)
        return true
    }

    // MARK: Shutdown

    /// Stops accepting events; from another thread, also waits until every accepted event has run
    /// and the thread has ended. Delayed work already due becomes an event and runs; delayed work not
    /// yet due and armed timers are cancelled and reported.
    func shutdown(waits: Bool) {
        let joinsHere: Bool
        mutex.lock()
        isAccepting = false
        enqueueDueDeadlines()
        let cancelled = deadlines.removeAll()
        if isLoopWaiting { wakeUp.signal() }
        if isJoinClaimed {
            joinsHere = false
        } else if waits && !isOnLoopThread {
            isJoinClaimed = true
            joinsHere = true
        } else {
            isJoinClaimed = true
            detachesOnExit = true
            joinsHere = false
        }
        mutex.unlock()
        // Before the join, so that the notes precede `shutdown()`'s return; outside the lock, because
        // the handlers run arbitrary code.
        for work in cancelled { work.cancelBecauseSchedulerStopped(owner: context.description, reason: Self.shutdownReason) }
        if joinsHere {
            csched_thread_join(threadHandle)
        } else if waits && !isOnLoopThread {
            exitMutex.withLock {
                while !hasExited { exitCondition.wait(on: exitMutex) }
            }
        }
    }

    var isShutDown: Bool {
        mutex.withLock { !isAccepting }
    }
}

/// The thread-specific slot that tells a thread scheduler's thread which loop it runs.
private let currentLoopKey: pthread_key_t = {
    var key = pthread_key_t()
    let result = pthread_key_create(&key, nil)
    precondition(result == 0, "Schedulable: pthread_key_create failed with error \(result)")
    return key
}()

// MARK: - Deadlines

extension ThreadSchedulerLoop {
    private static let shutdownReason = "the scheduler was shut down before it came due"

    /// Arms `work` for its deadline, or returns false when the loop no longer accepts work.
    func arm(_ work: ScheduledWork) -> Bool {
        mutex.lock()
        guard isAccepting else {
            mutex.unlock()
            return false
        }
        let isEarliest = deadlines.insert(work, deadline: work.deadline.uptimeNanoseconds)
        // A loop that waits for a later deadline (or for nothing) must recompute its wait.
        if isEarliest && isLoopWaiting { wakeUp.signal() }
        mutex.unlock()
        // Weak: a handle kept after its scheduler ended must not keep the loop's memory alive.
        work.setCancellationHook { [weak self] work in
            guard let self else { return }
            self.mutex.withLock { self.deadlines.remove { $0 === work } }
        }
        return true
    }

    /// Moves the delayed work that is due to the end of the event queue, earliest first: it runs after
    /// the events already queued, like an event submitted now. Call with `mutex` held.
    private func enqueueDueDeadlines() {
        // No clock read while there is nothing to time: events alone cost what they did before timers.
        guard !deadlines.isEmpty else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        while let entry = deadlines.popDue(now: now) {
            let work = entry.item
            let deadline = entry.deadline
            if work.isRepeating {
                pending.append { [self] in
                    if work.run() { rearm(work, after: deadline) }
                }
            } else {
                pending.append { work.run() }
            }
        }
    }

    /// Arms a timer's next firing after the one due at `deadline` has run (see
    /// `DeadlineStore.nextDeadline(after:interval:now:)`).
    private func rearm(_ work: ScheduledWork, after deadline: UInt64) {
        let next = DeadlineStore<ScheduledWork>.nextDeadline(
            after: deadline, interval: work.intervalNanoseconds!, now: DispatchTime.now().uptimeNanoseconds
        )
        let rearmed = mutex.withLock { () -> Bool in
            guard isAccepting else { return false }
            // Checked under the loop's lock, which the cancellation hook also takes: a cancel either
            // comes first (no re-arm) or removes the entry added here.
            guard work.isArmed else { return true }
            deadlines.insert(work, deadline: next)
            return true
        }
        if !rearmed {
            work.cancelBecauseSchedulerStopped(owner: context.description, reason: Self.shutdownReason)
        }
    }

    /// Sleeps until woken, or until the earliest deadline; call with `mutex` held. With no deadline
    /// (or only `.distantFuture`) the wait has no timeout: an idle loop never wakes up by itself.
    private func waitForWakeUpOrDeadline() {
        guard let earliest = deadlines.earliest, earliest != .max else {
            wakeUp.wait(on: mutex)
            return
        }
        let now = DispatchTime.now().uptimeNanoseconds
        guard earliest > now else { return }
        wakeUp.wait(on: mutex, timeoutNanoseconds: earliest - now)
    }
}

import CSchedulableContext
import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Thread lifecycle

/// The loop thread's start, identity and end (see ``ThreadSchedulerLoop`` for how the files divide).
extension ThreadSchedulerLoop {
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
        if isLoopWaiting { signalWakeUp() }
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

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The library's one mutex: a `pthread_mutex_t` at a stable heap address.
///
/// Every lock in the library is built on it (``LockedValue`` for guarded values, the thread
/// scheduler's event queue with a ``PlatformCondition``, and ``StripedLocks``, a fixed table of mutexes
/// that uses its raw operations: ``initialize(at:)``, ``lock(_:)``, ``unlock(_:)``, the same calls this
/// type's own methods make). Not `Synchronization.Mutex`: on Linux its
/// futex is invisible to ThreadSanitizer, which then reports every contended critical section as a
/// race, and it would raise the package's OS floor; a pthread mutex is intercepted by every sanitizer.
/// Non-copyable, so the mutex has exactly one owner that destroys it.
package struct PlatformMutex: ~Copyable {
    // A pthread mutex must never move once initialised, so it lives on the heap, not inline.
    let pointer: UnsafeMutablePointer<pthread_mutex_t>

    package init() {
        pointer = .allocate(capacity: 1)
        Self.initialize(at: pointer)
    }

    deinit {
        pthread_mutex_destroy(pointer)
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }

    package func lock() {
        Self.lock(pointer)
    }

    package func unlock() {
        Self.unlock(pointer)
    }

    // MARK: Raw operations, for mutexes whose storage someone else owns

    /// Makes the uninitialised memory at `mutex` a default (normal, process-private) mutex; traps if
    /// the system refuses. The memory must never move afterwards.
    @inline(__always)
    static func initialize(at mutex: UnsafeMutablePointer<pthread_mutex_t>) {
        mutex.initialize(to: pthread_mutex_t())
        let result = pthread_mutex_init(mutex, nil)
        precondition(result == 0, "Schedulable: pthread_mutex_init failed with error \(result)")
    }

    /// Takes the mutex at `mutex` (initialised with ``initialize(at:)``).
    @inline(__always)
    static func lock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) {
        pthread_mutex_lock(mutex)
    }

    /// Releases the mutex at `mutex`, held by the calling thread.
    @inline(__always)
    static func unlock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) {
        pthread_mutex_unlock(mutex)
    }

    /// Runs `body` with the mutex held.
    package func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// The library's one condition variable, used with a ``PlatformMutex``: what a thread needs to sleep
/// in the kernel until another thread says there is something to do, or until a deadline (no polling,
/// no sleeping).
package struct PlatformCondition: ~Copyable {
    // Heap-allocated for the same reason as the mutex: a pthread condition must never move.
    private let pointer: UnsafeMutablePointer<pthread_cond_t>

    package init() {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: pthread_cond_t())
        #if canImport(Darwin)
        // Darwin's timed wait is relative (`pthread_cond_timedwait_relative_np`): there is no clock to choose.
        let result = pthread_cond_init(pointer, nil)
        #else
        // Timed waits count on the monotonic clock, so setting the wall clock neither stretches nor cuts them.
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        let result = pthread_cond_init(pointer, &attributes)
        pthread_condattr_destroy(&attributes)
        #endif
        precondition(result == 0, "Schedulable: pthread_cond_init failed with error \(result)")
    }

    deinit {
        pthread_cond_destroy(pointer)
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }

    /// Blocks until signalled; call with `mutex` held (it is held again on return). Wake-ups may be
    /// spurious: callers re-check their condition in a loop.
    package func wait(on mutex: borrowing PlatformMutex) {
        pthread_cond_wait(pointer, mutex.pointer)
    }

    /// Blocks until signalled or until `nanoseconds` have passed on the monotonic clock; call with
    /// `mutex` held (it is held again on return).
    ///
    /// Wake-ups may be spurious or slightly early relative to another clock: callers re-check their
    /// condition and the time in a loop.
    ///
    /// - Parameters:
    ///   - mutex: The mutex the caller holds.
    ///   - nanoseconds: The longest wait.
    /// - Returns: `false` when the time ran out.
    @discardableResult
    package func wait(on mutex: borrowing PlatformMutex, timeoutNanoseconds nanoseconds: UInt64) -> Bool {
        // Capped at about 68 years so the seconds fit any `time_t`; an early wake-up is harmless.
        let capped = min(nanoseconds, UInt64(Int32.max) * 1_000_000_000)
        #if canImport(Darwin)
        var relative = timespec(tv_sec: Int(capped / 1_000_000_000), tv_nsec: Int(capped % 1_000_000_000))
        return pthread_cond_timedwait_relative_np(pointer, mutex.pointer, &relative) != ETIMEDOUT
        #else
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nanosecondSum = now.tv_nsec + Int(capped % 1_000_000_000)
        var deadline = timespec(
            tv_sec: now.tv_sec + Int(capped / 1_000_000_000) + nanosecondSum / 1_000_000_000,
            tv_nsec: nanosecondSum % 1_000_000_000
        )
        return pthread_cond_timedwait(pointer, mutex.pointer, &deadline) != ETIMEDOUT
        #endif
    }

    package func signal() {
        pthread_cond_signal(pointer)
    }

    package func broadcast() {
        pthread_cond_broadcast(pointer)
    }
}

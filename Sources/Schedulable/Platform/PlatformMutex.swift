#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The library's one mutex: a `pthread_mutex_t` at a stable heap address.
///
/// Every lock in the library is built on it (``ScheduleLock`` for guarded values, the thread
/// scheduler's event queue with a ``PlatformCondition``). Not `Synchronization.Mutex`: on Linux its
/// futex is invisible to ThreadSanitizer, which then reports every contended critical section as a
/// race, and it would raise the package's OS floor; a pthread mutex is intercepted by every sanitizer.
/// Non-copyable, so the mutex has exactly one owner that destroys it.
package struct PlatformMutex: ~Copyable {
    // A pthread mutex must never move once initialised, so it lives on the heap, not inline.
    let pointer: UnsafeMutablePointer<pthread_mutex_t>

    package init() {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: pthread_mutex_t())
        let result = pthread_mutex_init(pointer, nil)
        precondition(result == 0, "Schedulable: pthread_mutex_init failed with error \(result)")
    }

    deinit {
        pthread_mutex_destroy(pointer)
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }

    package func lock() {
        pthread_mutex_lock(pointer)
    }

    package func unlock() {
        pthread_mutex_unlock(pointer)
    }

    /// Runs `body` with the mutex held.
    package func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// The library's one condition variable, used with a ``PlatformMutex``: what a thread needs to sleep
/// in the kernel until another thread says there is something to do (no polling, no sleeping).
package struct PlatformCondition: ~Copyable {
    // Heap-allocated for the same reason as the mutex: a pthread condition must never move.
    private let pointer: UnsafeMutablePointer<pthread_cond_t>

    package init() {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: pthread_cond_t())
        let result = pthread_cond_init(pointer, nil)
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

    package func signal() {
        pthread_cond_signal(pointer)
    }

    package func broadcast() {
        pthread_cond_broadcast(pointer)
    }
}

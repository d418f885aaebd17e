#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A lock around a value, on a `pthread_mutex_t` (the same design as swift-nio's `NIOLock`).
///
/// Not `Synchronization.Mutex`: on Linux its futex-based implementation is invisible to
/// ThreadSanitizer, which then reports every contended critical section as a race; a pthread mutex is
/// intercepted by every sanitizer. Only the slow paths (binding changes, reports) take this lock.
package final class ScheduleLock<State>: @unchecked Sendable {
    // The mutex lives at a stable heap address (pthread mutexes must not move); `state` is only
    // touched while it is held, which is what makes the class Sendable.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var state: State

    package init(_ state: State) {
        self.state = state
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let result = pthread_mutex_init(mutex, nil)
        precondition(result == 0, "pthread_mutex_init failed: \(result)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the state.
    package func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a `pthread_mutex_t`.
///
/// Not `Synchronization.Mutex`: on Linux (Swift 6.3.1) ThreadSanitizer does not see the
/// synchronisation in `Mutex`'s contended path and reports races inside `withLock` — measured with 64
/// threads on one `Mutex` (reports on every run) against the same loop on a `pthread_mutex_t` (none).
/// This module's locks are contended by design (GCD threads report while the test's task collects),
/// and its users run their tests under ThreadSanitizer, so they must not see false reports from it.
/// FIXME: go back to `Mutex` once ThreadSanitizer understands its slow path on Linux.
package final class LockedState<State: Sendable> {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var state: State

    /// Creates the lock around `state`.
    ///
    /// - Parameter state: The initial value.
    package init(_ state: State) {
        self.state = state
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let result = pthread_mutex_init(mutex, nil)
        precondition(result == 0, "pthread_mutex_init failed with \(result)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    ///
    /// - Parameter body: Reads or changes the value. It must not take this lock again.
    /// - Returns: What `body` returns.
    package func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}

// The value is reached only inside `withLock`, under the mutex, and it is itself Sendable.
extension LockedState: @unchecked Sendable {}

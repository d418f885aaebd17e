#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A pthread mutex with one condition variable: what a thread needs to sleep until work arrives.
///
/// `Synchronization.Mutex` has no condition variable, and the idle loop of a thread scheduler must
/// block in the kernel (no polling, no sleep). pthread primitives are also what ThreadSanitizer
/// understands natively. The storage is heap-allocated because a pthread mutex must never move.
final class PlatformLock: @unchecked Sendable {
    // @unchecked: the pointees are only touched through pthread calls, which synchronise themselves.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        let mutexResult = pthread_mutex_init(mutex, nil)
        let conditionResult = pthread_cond_init(condition, nil)
        precondition(mutexResult == 0 && conditionResult == 0, "Schedulable: pthread_mutex_init/pthread_cond_init failed")
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deinitialize(count: 1)
        condition.deallocate()
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    func lock() {
        pthread_mutex_lock(mutex)
    }

    func unlock() {
        pthread_mutex_unlock(mutex)
    }

    /// Blocks until signalled; call with the lock held (it is held again on return). Wake-ups may be
    /// spurious: callers re-check their condition in a loop.
    func wait() {
        pthread_cond_wait(condition, mutex)
    }

    func signal() {
        pthread_cond_signal(condition)
    }

    func broadcast() {
        pthread_cond_broadcast(condition)
    }

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A one-shot "done" flag a thread can block on: the wait of a synchronous call from a thread that
/// has no loop of its own to keep turning.
final class CompletionSignal: @unchecked Sendable {
    // @unchecked: `isComplete` is only read and written with `lock` held.
    private let lock = PlatformLock()
    private var isComplete = false

    func complete() {
        lock.withLock {
            isComplete = true
            lock.signal()
        }
    }

    func wait() {
        lock.withLock {
            while !isComplete { lock.wait() }
        }
    }
}

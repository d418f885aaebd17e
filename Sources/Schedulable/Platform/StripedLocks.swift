#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A fixed table of 64 mutexes shared by every confinement record, picked by the record's address: a
/// record's binding changes under "its" stripe, so no record allocates a lock of its own.
///
/// Built on ``PlatformMutex``, the library's one lock implementation: the table is 64 slots of
/// `PlatformMutex` storage, initialised, taken and released by its raw operations
/// (``PlatformMutex/initialize(at:)``, ``PlatformMutex/lock(_:)``, ``PlatformMutex/unlock(_:)``), so a
/// stripe is the same pthread mutex a `PlatformMutex` is (ThreadSanitizer sees it). What differs is
/// only who owns the memory: one allocation for all 64, made once and never freed, where a
/// `PlatformMutex` owns and frees its own.
///
/// Why stripes and not a lock per record: a record exists per protected object and its binding
/// changes a handful of times in its life (construction ends, a hand-off), so a per-record lock was most
/// of a protected object's cost (a lock object plus a separately allocated `pthread_mutex_t`).
///
/// Rule that keeps the stripes deadlock-free: nothing runs under a stripe but reads and writes of one
/// record's own fields and the side-effect-free "where am I" questions of ``CurrentExecution``; no
/// stripe is ever taken while another is held.
package enum StripedLocks {
    /// A power of two, so a stripe is picked with a mask; enough that unrelated records rarely share one.
    private static let count = 64

    // nonisolated(unsafe): the pointer is set once and never changes; what it points to is a table of
    // mutexes, which synchronise themselves.
    nonisolated(unsafe) private static let mutexes: UnsafeMutablePointer<pthread_mutex_t> = {
        let mutexes = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: count)
        for index in 0..<count { PlatformMutex.initialize(at: mutexes + index) }
        return mutexes
    }()

    /// The stripe for `object`: its address without the bits every allocation shares.
    private static func stripe(for object: AnyObject) -> UnsafeMutablePointer<pthread_mutex_t> {
        let address = UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
        return mutexes + Int((address >> 4 ^ address >> 10) & UInt(count - 1))
    }

    /// Runs `body` holding `object`'s stripe.
    package static func withLock<Result>(for object: AnyObject, _ body: () throws -> Result) rethrows -> Result {
        let mutex = stripe(for: object)
        PlatformMutex.lock(mutex)
        defer { PlatformMutex.unlock(mutex) }
        return try body()
    }
}

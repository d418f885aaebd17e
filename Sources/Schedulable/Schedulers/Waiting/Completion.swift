/// The "done" flag of one synchronous wait: set once, from any thread, by the work being waited for.
///
/// The one completion flag behind ``CallerWait``, for both kinds of waiter: a thread that blocks in
/// ``wait()``, and a thread scheduler's event that keeps its loop turning until ``isDone``.
final class Completion: @unchecked Sendable {
    // @unchecked: `done` is only read and written with `mutex` held.
    private let mutex = PlatformMutex()
    private let condition = PlatformCondition()
    private var done = false

    var isDone: Bool { mutex.withLock { done } }

    /// Sets the flag and wakes the waiter.
    ///
    /// - Parameter loop: The loop of a waiter that pumps instead of blocking, if any. The flag is set
    ///   before the loop's mutex is taken, and the loop re-reads it with its mutex held before it
    ///   sleeps, so the wake-up cannot be lost.
    func complete(waking loop: ThreadSchedulerLoop? = nil) {
        mutex.withLock {
            done = true
            condition.broadcast()
        }
        loop?.wake()
    }

    /// Blocks the calling thread until ``complete(waking:)`` has been called.
    func wait() {
        mutex.withLock {
            while !done { condition.wait(on: mutex) }
        }
    }
}

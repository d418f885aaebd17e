/// A value that only one thread at a time may touch, guarded by a ``PlatformMutex`` (the same design
/// as swift-nio's `NIOLockedValueBox`).
///
/// Only slow paths take it (binding changes, reports, scheduler bookkeeping); the fast path of a check
/// never does.
package final class LockedValue<State>: @unchecked Sendable {
    // @unchecked: `state` is only touched while `mutex` is held, which is what makes the class Sendable.
    private let mutex = PlatformMutex()
    private var state: State

    package init(_ state: State) {
        self.state = state
    }

    /// Runs `body` with exclusive access to the state.
    package func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        mutex.lock()
        defer { mutex.unlock() }
        return try body(&state)
    }
}

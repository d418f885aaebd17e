import CSchedulableContext

/// The current thread's context chain, captured by a caller that is about to block on a synchronous
/// call, so that the work it waits for can be run on its behalf (see
/// ``ExecutionContext/run(onBehalfOf:_:)``).
package struct BlockedCallerToken: @unchecked Sendable {
    // Points into the blocked caller's stack. Valid only while that caller stays blocked, which is
    // exactly the lifetime of the synchronous call that carries it; never stored beyond it.
    package let frame: UnsafePointer<csched_frame>?

    /// Runs `body` with a token for the calling thread's whole chain. Code with no library frame
    /// (top-level main-thread code, raw work on a library queue, a plain thread that owns objects)
    /// gets a frame for that context first, so the chain it lends says what it holds.
    package static func withCurrent<T, E: Error>(_ body: (BlockedCallerToken) throws(E) -> T) throws(E) -> T {
        if csched_top_frame() == nil, let context = CurrentExecution.unframedContext {
            return try context.run { () throws(E) -> T in try body(BlockedCallerToken(frame: csched_top_frame())) }
        }
        return try body(BlockedCallerToken(frame: csched_top_frame()))
    }
}

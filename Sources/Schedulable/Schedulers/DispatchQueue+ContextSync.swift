import CSchedulableContext
import Dispatch

extension DispatchQueue {
    /// `sync` for a library queue scheduler (or the main queue): runs `body` inline when the calling
    /// code already runs in `context` (no deadlock), otherwise on the queue while the caller blocks.
    /// Inside `body` the caller's own contexts still pass their checks: the caller is blocked, so
    /// exclusion holds.
    ///
    /// - Parameters:
    ///   - context: The context of the scheduler this queue belongs to.
    ///   - body: The work to run.
    /// - Returns: What `body` returns.
    func sync<T>(as context: ExecutionContext, _ body: () throws -> T) rethrows -> T {
        if context.isIsolated { return try body() }
        csched_note_publication()   // a hand-off: it ends this thread's construction windows
        return try BlockedCallerToken.withCurrent { caller in
            try sync { try context.run(onBehalfOf: caller, body) }
        }
    }
}

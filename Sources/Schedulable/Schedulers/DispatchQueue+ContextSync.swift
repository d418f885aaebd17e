import CSchedulableContext
import Dispatch

extension DispatchQueue {
    /// `sync` for a library queue scheduler (or the main queue): runs `body` inline when the calling
    /// code already runs in `context` (no deadlock), otherwise on the queue while the caller blocks.
    /// Inside `body` the caller's own contexts still pass their checks: the caller is blocked, so
    /// exclusion holds — except a thread-affine one's (main's): a `sync` onto main from work done on
    /// main's behalf on another thread would wait for main, which waits for it; that is reported as a
    /// deadlock (and the process stops: there is no result to return) instead of hanging or running
    /// main's work on the wrong thread.
    ///
    /// - Parameters:
    ///   - context: The context of the scheduler this queue belongs to.
    ///   - body: The work to run.
    /// - Returns: What `body` returns.
    func sync<T>(as context: ExecutionContext, _ body: () throws -> T) rethrows -> T {
        if context.isIsolated { return try body() }
        if CurrentExecution.holdsOnlyThroughALentChain(context) {
            ScheduleReporting.report(.deadlockOnLentOwner(context, member: "sync(_:)"), objectHandler: nil)
        }
        csched_note_publication()   // a hand-off: it ends this thread's construction windows
        return try BlockedCallerToken.withCurrent { caller in
            try sync { try context.run(onBehalfOf: caller, body) }
        }
    }
}

import CSchedulableContext
import Dispatch

extension DispatchQueue {
    /// `sync` for a library queue scheduler (or the main queue): runs `body` inline when the calling
    /// code already runs in `context` (no deadlock), otherwise on the queue while the caller blocks.
    /// Inside `body` the caller's own contexts still pass their checks: the caller is blocked, so
    /// exclusion holds. A `sync` that could never return — onto the tree the calling code runs in (a
    /// branch from its tree, a sibling branch, the tree from a branch), or onto main from work done on
    /// main's behalf — is reported as a deadlock before libdispatch is entered (and the process stops:
    /// there is no result to return) instead of dying silently inside libdispatch or hanging.
    ///
    /// - Parameters:
    ///   - context: The context of the scheduler this queue belongs to.
    ///   - site: Where the call was made, published while `body` runs on the queue.
    ///   - body: The work to run.
    /// - Returns: What `body` returns.
    func sync<T>(as context: ExecutionContext, site: WorkSite, _ body: () throws -> T) rethrows -> T {
        if context.isIsolated { return try body() }
        if CurrentExecution.waitingWouldDeadlock(on: context) {
            ConfinementReporting.report(.deadlockWaiting(on: context, member: "sync(_:)"), objectHandler: nil)
        }
        csched_note_publication()   // a hand-off: it ends this thread's construction windows
        return try BlockedCallerToken.withCurrent { caller in
            try sync { try context.run(onBehalfOf: caller, site: site, body) }
        }
    }
}

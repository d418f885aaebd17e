import CSchedulableContext
import Dispatch

extension ExecutionContext {
    /// Asks libdispatch whether the calling thread holds this context's queue: the last word on
    /// ownership, for the one nesting the library cannot see without trapping (raw `someQueue.sync {}`
    /// called from raw work on the queue).
    ///
    /// Where libdispatch's drain lock can be read (``DispatchQueueState``), that is the answer, and
    /// nothing traps. Elsewhere libdispatch's "no" is a trap, so ask only where the outcome would be a
    /// trap anyway. `report` is armed first and written to standard error if the thread traps: a
    /// failing `dispatchPrecondition` prints nothing on Linux.
    ///
    /// The main context asks about the main queue: under `dispatchMain()` its work runs on a worker
    /// thread, and a raw `sync` nested in that work leaves only libdispatch knowing the main queue is
    /// held (on the main thread itself the check has passed before this is asked).
    ///
    /// - Parameter report: The text to print before the process stops.
    /// - Returns: `true` when the thread holds the queue; `false` when the context has no queue (there
    ///   is nothing to ask) or when the drain lock was read and says no. Otherwise, when the thread does
    ///   not hold the queue, it does not return.
    package func confirmedByDispatch(elseTrapPrinting report: String) -> Bool {
        guard let queue = queue ?? (kind == .main ? DispatchQueue.main : nil) else { return false }
        // Where the drain lock can be read, that is libdispatch's answer, without a trap.
        if let held = PlatformInternals.threadHolds(queue) { return held }
        // Without the trap report a failing `dispatchPrecondition` would stop the process silently
        // (Linux): then do not ask, and let the report be made (the non-trapping tiers' false positive).
        return PlatformInternals.withTrapReport(report) {
            dispatchPrecondition(condition: .onQueue(queue))
            return true
        } ?? false
    }
}

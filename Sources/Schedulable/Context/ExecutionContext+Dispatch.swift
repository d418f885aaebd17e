import CSchedulableContext
import Dispatch

extension ExecutionContext {
    /// Asks libdispatch whether the calling thread holds this context's queue: the last word on
    /// ownership, for the one nesting the library cannot see without trapping (raw `someQueue.sync {}`
    /// called from raw work on the queue).
    ///
    /// libdispatch's "no" is a trap, so ask only where the outcome would be a trap anyway. `report` is
    /// armed first and written to standard error if the thread traps: a failing `dispatchPrecondition`
    /// prints nothing on Linux.
    ///
    /// The main context asks about the main queue: under `dispatchMain()` its work runs on a worker
    /// thread, and a raw `sync` nested in that work leaves only libdispatch knowing the main queue is
    /// held (on the main thread itself the check has passed before this is asked).
    ///
    /// - Parameter report: The text to print before the process stops.
    /// - Returns: `true` when the thread holds the queue; `false` when the context has no queue (there
    ///   is nothing to ask). When the thread does not hold the queue, it does not return.
    package func confirmedByDispatch(elseTrapPrinting report: String) -> Bool {
        guard let queue = queue ?? (kind == .main ? DispatchQueue.main : nil) else { return false }
        return report.withCString { text in
            csched_arm_trap_report(text)
            defer { csched_disarm_trap_report() }
            dispatchPrecondition(condition: .onQueue(queue))
            return true
        }
    }
}

import CSchedulableContext
import Dispatch

/// The main thread: top-level code, and work on `DispatchQueue.main`.
///
/// On Linux, `DispatchQueue.main` work runs only while something drains the main queue: a run loop on
/// the main thread, or `dispatchMain()` (which parks the main thread and drains the queue on a worker
/// thread — checks recognise that work as main-thread work through a queue-specific value).
public final class MainScheduler: Scheduler {
    /// The one main scheduler.
    public static let shared = MainScheduler()

    /// "main thread".
    public var label: String { scheduleContext.label }

    /// ``ScheduleContext/main``.
    public let scheduleContext: ScheduleContext

    private init() {
        scheduleContext = .main
    }

    /// Submits `work` to `DispatchQueue.main`.
    ///
    /// Never rejects.
    ///
    /// - Parameter work: The work to run on the main thread.
    public func trySchedule(_ work: @escaping @Sendable () -> Void) throws(ScheduleRejection) {
        let context = scheduleContext
        DispatchQueue.main.async { context.run(work) }
    }

    /// Runs `body` on the main thread and returns its result: inline when already there, otherwise
    /// through `DispatchQueue.main.sync` while the caller blocks.
    ///
    /// - Parameter body: The work to run.
    /// - Returns: What `body` returns.
    public func sync<T>(_ body: () throws -> T) rethrows -> T {
        // Through a plain `DispatchQueue` value: the `.main` overload of `sync` assumes the main actor.
        let queue: DispatchQueue = DispatchQueue.main
        return try queue.sync(as: scheduleContext, body)
    }
}

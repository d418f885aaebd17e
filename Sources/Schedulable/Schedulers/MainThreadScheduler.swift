import CSchedulableContext
import Dispatch

/// The main thread: top-level code, and work on `DispatchQueue.main`.
///
/// On Linux, `DispatchQueue.main` work runs only while something drains the main queue: a run loop on
/// the main thread, or `dispatchMain()` (which parks the main thread and drains the queue on a worker
/// thread — checks recognise that work as main-thread work through a queue-specific value).
public final class MainThreadScheduler: SerialScheduler {
    /// The one main scheduler.
    public static let shared = MainThreadScheduler()

    /// "main thread".
    public var label: String { executionContext.label }

    /// ``ExecutionContext/main``.
    public let executionContext: ExecutionContext

    private init() {
        executionContext = .main
    }

    /// Submits `work` to `DispatchQueue.main`.
    ///
    /// Never rejects.
    ///
    /// - Parameter work: The work to run on the main thread.
    public func trySchedule(_ work: @escaping @Sendable () -> Void) throws(ScheduleRejection) {
        trySchedule(work, recording: .unrecorded)
    }

    /// ``trySchedule(_:)`` with the work's scheduling site, published while it runs.
    package func trySchedule(_ work: @escaping @Sendable () -> Void, recording site: WorkSite) {
        csched_note_publication()   // a hand-off: it ends this thread's construction windows
        let context = executionContext
        let work = AutomaticTestReporting.carryingCurrentTest(work)
        DispatchQueue.main.async { context.run(site: site, work) }
    }

    /// Runs `body` on the main thread and returns its result: inline when already there, otherwise
    /// through `DispatchQueue.main.sync` while the caller blocks.
    ///
    /// - Parameters:
    ///   - file: The call site, for reports made while `body` runs.
    ///   - line: The call site, for reports made while `body` runs.
    ///   - function: The calling function, for reports made while `body` runs.
    ///   - body: The work to run.
    /// - Returns: What `body` returns.
    public func sync<T>(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function, _ body: () throws -> T
    ) rethrows -> T {
        // Through a plain `DispatchQueue` value: the `.main` overload of `sync` assumes the main actor.
        let queue: DispatchQueue = DispatchQueue.main
        let site = WorkSite(location: PackedCodeLocation(file: file, line: line), function: function)
        return try queue.sync(as: executionContext, site: site, body)
    }
}

import CSchedulableContext

extension ExecutionContext {
    /// The right to run work inside a context: what a custom scheduler keeps to itself.
    ///
    /// A custom scheduler makes one runner, publishes ``context`` as its
    /// ``SerialScheduler/executionContext``, and runs its work inside ``run(_:)``. Where the call goes
    /// depends on what the scheduler owns:
    ///
    /// - **A queue-like scheduler wraps each piece of work.** Its work runs on threads that also run
    ///   other code (a dispatch queue's workers), so only the work is the scheduler's context:
    ///
    ///   ```swift
    ///   final class RenderScheduler: SerialScheduler {
    ///       private let runner = ExecutionContext.Runner(label: "com.app.render")
    ///       private let queue = DispatchQueue(label: "com.app.render")
    ///       var label: String { runner.context.label }
    ///       var executionContext: ExecutionContext { runner.context }
    ///       func trySchedule(_ work: @escaping @Sendable () -> Void) throws(ScheduleRejection) {
    ///           let runner = self.runner
    ///           queue.async { runner.run(work) }
    ///       }
    ///   }
    ///   ```
    ///
    /// - **A scheduler that owns its thread wraps the thread's whole body**, as a swift-nio event loop
    ///   owns its thread. The loop also runs its own code there outside any piece of work (set-up before
    ///   the first tick, tear-down after the last, `withCurrentThreadAsEventLoop`) and counts all of it
    ///   as "on the loop"; the library must agree:
    ///
    ///   ```swift
    ///   Thread {
    ///       runner.run {                          // the thread's whole span, not each task
    ///           while true { self.next()() }      // take the next piece of work and run it
    ///       }
    ///   }.start()
    ///   ```
    ///
    ///   Measured by running each swift-nio `EventLoop` of NIOPosixTests as a custom scheduler and
    ///   asking the library at every `inEventLoop` decision: wrapping each loop tick gave 5,983 false
    ///   "not on it" answers out of 16.75 million; wrapping the thread's whole span gave none in
    ///   16.76 million. <doc:Schedulers> has the whole example and the reason.
    ///
    /// Whoever holds a runner can make checks pass for the context's objects, so keep it private to
    /// the scheduler: a context alone (what `executionContext` exposes) grants nothing.
    ///
    /// ## Contract
    /// - Work run through one runner never overlaps: the scheduler is serial.
    /// - A branch (``init(label:branchOf:file:line:)``) shares its parent's exclusion: its work never overlaps
    ///   with the parent's or with any other branch's (a branch queue that targets its parent's queue
    ///   does this). Objects owned by the parent pass inside the branch's work, so a branch that runs
    ///   beside its parent would let two threads use them at once. Making a branch takes the parent's
    ///   runner, so only the parent's scheduler can declare one.
    public struct Runner: Sendable {
        /// The context this runner runs work in: publish it as the scheduler's `executionContext`.
        public let context: ExecutionContext

        /// Makes a new context and the right to run work in it.
        ///
        /// - Parameters:
        ///   - label: A human-readable name used in violation reports. An empty or whitespace-only
        ///     label stops a debug build here, with this call site in the message; a release build
        ///     warns and labels the context `unlabelled (File.swift:line)`.
        ///   - file: The call site, named if the label is refused.
        ///   - line: The call site, named if the label is refused.
        public init(label: String, file: StaticString = #fileID, line: UInt = #line) {
            let label = ExecutionContext.meaningfulLabel(label, in: "ExecutionContext.Runner(label:)", file: file, line: line)
            context = ExecutionContext(label: label, parent: nil, kind: .custom, id: UInt(csched_next_id()))
        }

        /// Makes a context that is a branch of `parent`'s, and the right to run work in it.
        ///
        /// - Parameters:
        ///   - label: A human-readable name used in violation reports (a branch's full label).
        ///   - parent: The parent's runner: the branch's work must drain through the parent's, never
        ///     beside it (see the contract above).
        ///   - file: The call site, named if the label is refused.
        ///   - line: The call site, named if the label is refused.
        public init(label: String, branchOf parent: Runner, file: StaticString = #fileID, line: UInt = #line) {
            let label = ExecutionContext.meaningfulLabel(label, in: "ExecutionContext.Runner(label:branchOf:)", file: file, line: line)
            context = ExecutionContext(
                label: label, parent: parent.context, kind: .custom, id: UInt(csched_next_id())
            )
        }

        /// Runs `body` inside the context on the calling thread, then restores what was current.
        ///
        /// Checks made inside `body` for objects owned by the context (or by one of its parents) take
        /// the fast path.
        ///
        /// - Parameter body: One piece of the scheduler's work.
        /// - Returns: What `body` returns.
        /// - Throws: What `body` throws.
        @inlinable
        public func run<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
            try context._run(outer: csched_top_frame(), body)
        }
    }
}

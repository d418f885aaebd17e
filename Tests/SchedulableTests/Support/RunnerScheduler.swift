import Dispatch
import Schedulable

/// A custom scheduler as users write one (see the Schedulers article): a private serial queue and the
/// runner only it holds. It counts the events it is given, for tests that count queued work.
final class RunnerScheduler: SerialScheduler {
    private let runner: ExecutionContext.Runner
    private let queue: DispatchQueue
    private let submitted = LockedValue(0)
    var label: String { runner.context.label }
    var executionContext: ExecutionContext { runner.context }

    init(label: String) {
        runner = ExecutionContext.Runner(label: label)
        queue = DispatchQueue(label: label)
    }

    /// A branch: its queue targets the parent's, so their work never overlaps (the runner contract).
    init(label: String, branchOf parent: RunnerScheduler) {
        runner = ExecutionContext.Runner(label: label, branchOf: parent.runner)
        queue = DispatchQueue(label: label, target: parent.queue)
    }

    func trySchedule(_ work: @escaping @Sendable () -> Void) throws(ScheduleRejection) {
        submitted.withLock { $0 += 1 }
        let runner = self.runner
        queue.async { runner.run(work) }
    }

    /// How many events `trySchedule` accepted.
    var events: Int { submitted.withLock { $0 } }

    /// Runs `body` as one piece of the scheduler's work and waits for it.
    func runAndWait<T: Sendable>(_ body: @Sendable () -> T) -> T {
        queue.sync { runner.run(body) }
    }
}

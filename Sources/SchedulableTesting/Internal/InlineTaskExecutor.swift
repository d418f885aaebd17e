import Schedulable

/// A task executor that runs nothing by itself: the jobs enqueued on it run, synchronously, on the
/// thread that calls ``runPending()``.
///
/// Why: Swift Testing attributes an issue to the test whose task-locals are in effect where
/// `Issue.record` runs, and a violation detected on a GCD thread has none. A task created on the test's
/// task inherits them; with this executor as its preference, that task's next step runs right here,
/// on the detecting thread, before it continues — so the issue is recorded on its test before the
/// test can end, without waiting for (or deadlocking on) the cooperative pool.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class InlineTaskExecutor: TaskExecutor {
    private let jobs = LockedValue<[UnownedJob]>([])

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
    }

    /// Runs the enqueued jobs (and those they enqueue) on the calling thread until none is left.
    func runPending() {
        while let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

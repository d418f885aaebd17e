import Dispatch

/// Delayed work and timers on the main thread: deadlines kept with a libdispatch timer on the main queue,
/// whose firings run inside the main context like the scheduler's other work.
extension MainThreadScheduler: DeadlineScheduling {
    /// The main scheduler's deadlines (there is one main scheduler).
    private static let deadlines = DispatchDeadlines(queue: DispatchQueue.main)

    /// Never rejects.
    func armDeadline(_ work: ScheduledWork) throws(ScheduleRejection) {
        let context = executionContext
        Self.deadlines.arm(work) { work in context.run(site: work.site) { _ = work.run() } }
    }
}

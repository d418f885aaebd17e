import Dispatch

/// Delayed work and timers on a queue scheduler: deadlines kept with a libdispatch timer on the
/// scheduler's own queue, whose firings run the way the scheduler runs what it is given (inside its
/// context; on a wrapped queue, watching its exclusion).
extension SerialQueueScheduler: DeadlineScheduling {
    /// Never rejects.
    func armDeadline(_ work: ScheduledWork) throws(ScheduleRejection) {
        let context = executionContext
        // Weak: armed work must not keep the scheduler alive (its deadlines outlive it until they
        // have run; the queue's own context is enough then).
        deadlines.arm(work) { [weak self] work in
            if let self {
                self.runAsQueuedWork(site: work.site) { _ = work.run() }
            } else {
                context.run(site: work.site) { _ = work.run() }
            }
        }
    }
}

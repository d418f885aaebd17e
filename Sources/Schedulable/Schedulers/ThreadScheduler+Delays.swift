/// Delayed work and timers on a thread scheduler: kept by its own loop, in deadline order, with a timed
/// wait for the earliest — no other thread and no polling.
extension ThreadScheduler: DeadlineScheduling {
    /// Rejects work after ``ThreadScheduler/shutdown()``.
    func armDeadline(_ work: ScheduledWork) throws(ScheduleRejection) {
        guard loop.arm(work) else {
            throw ScheduleRejection(reason: .shutDown, schedulerLabel: label)
        }
    }
}

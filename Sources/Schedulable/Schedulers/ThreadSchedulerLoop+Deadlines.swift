import Dispatch

// MARK: - Deadlines

/// Delayed work and timers of the loop (see ``ThreadSchedulerLoop`` for how the files divide).
extension ThreadSchedulerLoop {
    /// Why a shutdown cancels delayed work, in its note.
    static let shutdownReason = "the scheduler was shut down before it came due"

    /// Arms `work` for its deadline, or returns false when the loop no longer accepts work.
    func arm(_ work: ScheduledWork) -> Bool {
        mutex.lock()
        guard isAccepting else {
            mutex.unlock()
            return false
        }
        let isEarliest = deadlines.insert(work, deadline: work.deadline.uptimeNanoseconds)
        // A loop that waits for a later deadline (or for nothing) must recompute its wait.
        if isEarliest && isLoopWaiting { signalWakeUp() }
        mutex.unlock()
        // Weak: a handle kept after its scheduler ended must not keep the loop's memory alive.
        work.setCancellationHook { [weak self] work in
            guard let self else { return }
            self.mutex.withLock { self.deadlines.remove { $0 === work } }
        }
        return true
    }

    /// Moves the delayed work that is due to the end of the event queue, earliest first: it runs after
    /// the events already queued, like an event submitted now. Call with `mutex` held.
    func enqueueDueDeadlines() {
        // No clock read while there is nothing to time: events alone cost what they did before timers.
        guard !deadlines.isEmpty else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        while let entry = deadlines.popDue(now: now) {
            let work = entry.item
            let deadline = entry.deadline
            if work.isRepeating {
                pending.append(SitedEvent(run: { [self] in
                    if work.run() { rearm(work, after: deadline) }
                }, site: work.site))
            } else {
                pending.append(SitedEvent(run: { work.run() }, site: work.site))
            }
        }
    }

    /// Arms a timer's next firing after the one due at `deadline` has run (see
    /// `DeadlineStore.nextDeadline(after:interval:now:)`).
    private func rearm(_ work: ScheduledWork, after deadline: UInt64) {
        let next = DeadlineStore<ScheduledWork>.nextDeadline(
            after: deadline, interval: work.intervalNanoseconds!, now: DispatchTime.now().uptimeNanoseconds
        )
        let rearmed = mutex.withLock { () -> Bool in
            guard isAccepting else { return false }
            // Checked under the loop's lock, which the cancellation hook also takes: a cancel either
            // comes first (no re-arm) or removes the entry added here.
            guard work.isArmed else { return true }
            deadlines.insert(work, deadline: next)
            return true
        }
        if !rearmed {
            work.cancelBecauseSchedulerStopped(owner: context.description, reason: Self.shutdownReason)
        }
    }

    /// Sleeps until woken, or until the earliest deadline; call with `mutex` held. With no deadline
    /// (or only `.distantFuture`) the wait has no timeout: an idle loop never wakes up by itself.
    func waitForWakeUpOrDeadline() {
        guard let earliest = deadlines.earliest, earliest != .max else {
            wakeUp.wait(on: mutex)
            #if DEBUG
            waitCounts.returns += 1
            #endif
            return
        }
        let now = DispatchTime.now().uptimeNanoseconds
        guard earliest > now else { return }
        let signalledOrSpurious = wakeUp.wait(on: mutex, timeoutNanoseconds: earliest - now)
        #if DEBUG
        waitCounts.returns += 1
        if !signalledOrSpurious { waitCounts.timeouts += 1 }
        #else
        _ = signalledOrSpurious
        #endif
    }
}

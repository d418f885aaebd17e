import Dispatch

/// The delayed work and timers of a scheduler backed by libdispatch: one ``DeadlineStore`` and one
/// timer source on a queue, set to the earliest deadline.
///
/// Not one libdispatch timer per piece of work: libdispatch fires timers that fall due together in no
/// particular order (seen on Linux: deadlines 50 µs apart, run latest first), and the library promises
/// deadline order on every scheduler. Here the store decides the order and the timer only says when.
///
/// Each armed piece of work comes with `deliver`, which runs (or submits) it the way its scheduler runs
/// work; `deliver` is called on the queue, earliest deadline first, all due work in one turn of the queue.
final class DispatchDeadlines: @unchecked Sendable {
    // @unchecked: every mutable field is guarded by `mutex`; `queue` is immutable.

    typealias Deliver = @Sendable (ScheduledWork) -> Void

    private struct Armed {
        let work: ScheduledWork
        let deliver: Deliver
    }

    private let queue: DispatchQueue
    private let mutex = PlatformMutex()

    // Guarded by `mutex`.
    private var store = DeadlineStore<Armed>()
    /// Made on first use: most schedulers never delay anything.
    private var timer: (any DispatchSourceTimer)?
    /// The deadline the timer is set to; `nil` while it is not set.
    private var timerDeadline: UInt64?
    /// Keeps this object and its timer alive while work is armed, even once its scheduler is gone:
    /// scheduled work runs whether or not anything else refers to it, as with `asyncAfter`.
    private var keepsItselfAlive: DispatchDeadlines?

    init(queue: DispatchQueue) {
        self.queue = queue
    }

    deinit {
        timer?.cancel()
    }

    /// Arms `work`; `deliver` runs it once it is due (and a timer at each firing).
    func arm(_ work: ScheduledWork, deliver: @escaping Deliver) {
        mutex.withLock {
            store.insert(Armed(work: work, deliver: deliver), deadline: work.deadline.uptimeNanoseconds)
            retime()
        }
        work.setCancellationHook { [weak self] work in
            guard let self else { return }
            self.mutex.withLock {
                self.store.remove { $0.work === work }
                self.retime()
            }
        }
    }

    /// Points the timer at the earliest deadline; call with `mutex` held.
    private func retime() {
        keepsItselfAlive = store.isEmpty ? nil : self
        let earliest = store.earliest
        guard earliest != timerDeadline else { return }
        timerDeadline = earliest
        let timer = self.timer ?? makeTimer()
        if let earliest, earliest != .max {
            timer.schedule(deadline: DispatchTime(uptimeNanoseconds: earliest))
        } else {
            timer.schedule(deadline: .distantFuture)
        }
    }

    private func makeTimer() -> any DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        // Weak: the timer must not keep this object alive; `keepsItselfAlive` does while work is armed.
        timer.setEventHandler { [weak self] in self?.fire() }
        timer.resume()
        self.timer = timer
        return timer
    }

    /// The timer fired (on the queue): takes every piece of work due now and delivers it, earliest
    /// first, from the end of the queue.
    ///
    /// From the end, not here: this handler may have been queued before events that were submitted
    /// before some of this work came due (the store is shared by all of the scheduler's work), and
    /// due work must run after every event queued before its deadline, as on a thread scheduler.
    private func fire() {
        let due = mutex.withLock { () -> [DeadlineStore<Armed>.Entry] in
            let now = DispatchTime.now().uptimeNanoseconds
            var due: [DeadlineStore<Armed>.Entry] = []
            while let entry = store.popDue(now: now) { due.append(entry) }
            // The timer is spent: set it again for what remains.
            timerDeadline = nil
            retime()
            return due
        }
        guard !due.isEmpty else { return }
        // The popped work is out of the store, so `keepsItselfAlive` may be gone: the block keeps `self`.
        let batch = DueBatch(due)
        queue.async { self.deliver(batch.entries) }
    }

    /// Delivers `due`, earliest first, then re-arms the timers among them.
    private func deliver(_ due: [DeadlineStore<Armed>.Entry]) {
        for entry in due {
            entry.item.deliver(entry.item.work)
            guard let interval = entry.item.work.intervalNanoseconds else { continue }
            let next = DeadlineStore<Armed>.nextDeadline(
                after: entry.deadline, interval: interval, now: DispatchTime.now().uptimeNanoseconds
            )
            mutex.withLock {
                // Under the lock the cancellation hook also takes: a cancel either comes first (no
                // re-arm) or removes the entry added here.
                guard entry.item.work.isArmed else { return }
                store.insert(entry.item, deadline: next)
                retime()
            }
        }
    }
}

/// Due entries carried from the timer's handler to the end of the queue.
private final class DueBatch<Entry>: @unchecked Sendable {
    // @unchecked: written once before the hand-over and only read by the one block it is handed to.
    let entries: [Entry]

    init(_ entries: [Entry]) {
        self.entries = entries
    }
}

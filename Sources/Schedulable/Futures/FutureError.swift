/// Why a ``ScheduledFuture`` has no value: its work was never run, or waiting for it would never end.
///
/// A body that throws is *not* reported with this type: ``ScheduledFuture/present(file:line:)`` and
/// ``ScheduledFuture/value`` rethrow the body's own error.
public struct FutureError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Hashable {
        /// The scheduler did not accept the work (it was shut down before the future was made), so
        /// the work never ran.
        case rejected
        /// ``ScheduledFuture/present(file:line:)`` was called where the work has to run — on the future's
        /// scheduler, or in a context that holds it — before the work finished: waiting there would
        /// never end. The same call made elsewhere, ``ScheduledFuture/whenPresent(on:file:line:_:)`` or
        /// `await` ``ScheduledFuture/value`` would work.
        case wouldDeadlock
        /// The scheduler accepted the work and then released it without running it — a custom
        /// scheduler that breaks the ``SerialScheduler`` contract. The library's schedulers never do.
        case discarded
        /// ``ScheduledFuture/cancel()`` was called before the work began, so the work never ran.
        case cancelled
    }

    /// What went wrong.
    public let reason: Reason

    /// The label of the future's scheduler.
    public let schedulerLabel: String

    /// Where the future was made.
    public let createdAt: CodeLocation

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - reason: What went wrong.
    ///   - schedulerLabel: The label of the future's scheduler.
    ///   - createdAt: Where the future was made.
    package init(reason: Reason, schedulerLabel: String, createdAt: CodeLocation) {
        self.reason = reason
        self.schedulerLabel = schedulerLabel
        self.createdAt = createdAt
    }

    /// A sentence that says what happened and what to do.
    public var description: String {
        switch reason {
        case .rejected:
            return "the future made at \(createdAt) never ran: scheduler \"\(schedulerLabel)\" was shut down "
                + "and rejected its work; make futures before shutdown()"
        case .wouldDeadlock:
            return "present() on the future made at \(createdAt) would never return: it was called on "
                + "scheduler \"\(schedulerLabel)\" (or in a context holding it), which has to run the work first; "
                + "call present() elsewhere, or use whenPresent(on:) or await value"
        case .discarded:
            return "the future made at \(createdAt) never ran: scheduler \"\(schedulerLabel)\" accepted its "
                + "work and released it without running it (a custom scheduler must run all work it accepts)"
        case .cancelled:
            return "the future made at \(createdAt) was cancelled before scheduler \"\(schedulerLabel)\" began its "
                + "work, so the work never ran"
        }
    }
}

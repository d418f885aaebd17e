/// The error a scheduler throws when it does not accept work.
public struct ScheduleRejection: Error, Sendable, CustomStringConvertible {
    /// Why the work was rejected.
    public enum Reason: Sendable, Equatable {
        /// The scheduler was shut down before the work was submitted.
        case shutDown
    }

    /// Why the work was rejected.
    public let reason: Reason

    /// The label of the scheduler that rejected the work.
    public let schedulerLabel: String

    /// Creates a rejection.
    ///
    /// - Parameters:
    ///   - reason: Why the work was rejected.
    ///   - schedulerLabel: The label of the scheduler that rejected it.
    public init(reason: Reason, schedulerLabel: String) {
        self.reason = reason
        self.schedulerLabel = schedulerLabel
    }

    /// A sentence that says what happened and what to do.
    public var description: String {
        switch reason {
        case .shutDown:
            return "scheduler \"\(schedulerLabel)\" was shut down and no longer accepts work; "
                + "schedule before shutdown() or check for ScheduleRejection with trySchedule(_:)"
        }
    }
}

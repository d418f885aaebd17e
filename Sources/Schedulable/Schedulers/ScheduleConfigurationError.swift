/// Thrown when a scheduler is configured with input it cannot honour (a concurrent or main queue
/// where a serial queue is required).
public struct ScheduleConfigurationError: Error, Sendable, CustomStringConvertible {
    /// What is wrong and how to fix it.
    public let description: String

    /// Creates an error.
    ///
    /// - Parameter description: What is wrong and how to fix it.
    public init(_ description: String) {
        self.description = description
    }
}

/// Thrown when a scheduler is configured with input it cannot honour (a concurrent or main queue
/// where a serial queue is required).
public struct ScheduleConfigurationError: Error, Sendable, CustomStringConvertible {
    /// What is wrong and how to fix it; it ends with the call site when there is one.
    public let description: String

    /// The call that was given the input (such as `SerialQueueScheduler(wrapping:)`'s caller), if known.
    public let callSite: CodeLocation?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - description: What is wrong and how to fix it.
    ///   - callSite: The call that was given the input, if known; the description then names it.
    public init(_ description: String, callSite: CodeLocation? = nil) {
        self.description = callSite.map { "\(description) (at \($0))" } ?? description
        self.callSite = callSite
    }
}

import Schedulable

extension ConfinementViolation {
    /// The description of the XCTest failure a violation becomes: the report itself, which already
    /// starts with "Schedulable:", then how it was detected when that matters.
    ///
    /// - Parameter detected: How the violation reached the test (off its thread, …), or `nil`.
    /// - Returns: The failure's description.
    func xctestFailureDescription(detected: String? = nil) -> String {
        description + (detected.map { "\n  detected:        " + $0 } ?? "")
    }
}

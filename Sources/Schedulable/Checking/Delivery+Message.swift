/// The caller's message of a check verb (`assertIsolated("…")`, `preconditionIsolated("…")`), added to
/// the report the verdict decided on. It is evaluated here, for a report only, never on a pass.
extension Delivery {
    /// Delivers the violation with `message` added to its detail line (nothing is added for an empty
    /// message).
    ///
    /// - Parameter message: The caller's message.
    package func deliver(addingDetail message: () -> String) {
        var violation = violation
        violation.addDetail(message())
        Self.deliver(violation, to: handler)
    }
}

extension ConfinementViolation {
    /// Adds `message` to the detail line, after what the library wrote there (nothing for an empty one).
    ///
    /// - Parameter message: The caller's message.
    package mutating func addDetail(_ message: String) {
        guard !message.isEmpty else { return }
        detail = detail.map { "\($0); \(message)" } ?? message
    }
}

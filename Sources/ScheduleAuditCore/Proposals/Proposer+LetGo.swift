extension Proposer {
    /// How an `unplaced` reason starts when no instance's move had a `letGo` (a runtime before it):
    /// then the table and `apply` say nothing more than before `letGo` existed.
    static let unrecordedLetGo = "the run did not record where"

    /// Where the `handOff(to:)` of a move no `handOff(to:)` made goes: the `letGo` of every instance
    /// that made it, when they all name one line (file and line); otherwise why it cannot be placed.
    ///
    /// - Parameter letGos: Each such move's `letGo`, one per instance move (`nil` where unrecorded).
    static func placement(of letGos: [Observation.Site?]) -> (letGo: Observation.Site?, unplaced: String?) {
        let known = letGos.compactMap { $0 }
        let count = letGos.count
        guard known.count == count else {
            if known.isEmpty {
                return (nil, "\(unrecordedLetGo) \(count == 1 ? "the instance" : "any of the \(count) instances") left (no 'letGo': a runtime before it)")
            }
            return (nil, "\(count - known.count) of \(count) instance moves have no recorded 'letGo': where those left is unknown")
        }
        let lines = known.uniqued { "\($0.file)\u{0}\($0.line)" }
        guard lines.count == 1 else {
            let listed = lines.map { "\($0.file):\($0.line)" }.joined(separator: ", ")
            return (nil, "the instances left at \(lines.count) different lines (\(listed)): no one place for it")
        }
        return (known[0], nil)
    }

    /// The evidence line of a move's placement: where `apply` inserts the hand-off, or why it cannot.
    /// None for a move of a run that recorded no `letGo` at all (as before `letGo` existed; the
    /// proposal's `unplaced` says so).
    static func placementEvidence(_ handOff: Proposal.HandOff) -> String? {
        if let letGo = handOff.letGo {
            return "every instance leaves \(handOff.from.description) after \(site(letGo)): 'apply' inserts the handOff(to:) after that line"
        }
        guard let unplaced = handOff.unplaced, !unplaced.hasPrefix(unrecordedLetGo) else { return nil }
        return "the handOff(to:) to \(handOff.to.description) cannot be placed: \(unplaced)"
    }
}

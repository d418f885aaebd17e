extension PolicyViolationHandler {
    /// How many violations of a member were counted, by `Type.member`, at all its access sites (notes
    /// included).
    ///
    /// - Parameter qualifiedMember: `Type.member` as in ``ConfinementViolation/qualifiedMember``.
    /// - Returns: The number of violations seen for it.
    package func count(for qualifiedMember: String) -> Int {
        // Counts the reporting thread still has to make (stacks not seen before) first.
        ReportWriter.flush()
        return counts.withLock { counts in
            counts.reduce(0) { $0 + ($1.key.member == qualifiedMember ? $1.value.count : 0) }
        }
    }

    /// Every site that violated, most frequent first, with its exact count: what a storm looked like,
    /// whatever was printed. One line per site, then a total. Notes are not violations: not counted.
    package var summary: String {
        // Counts the reporting thread still has to make (stacks not seen before) first.
        ReportWriter.flush()
        let sites = counts.withLock { $0 }.filter { !$0.key.isNote }
            .map { (member: $0.key.member, count: $0.value.count, place: $0.value.first.sitePlace) }
            .sorted { $0.count != $1.count ? $0.count > $1.count : ($0.member, $0.place) < ($1.member, $1.place) }
        let total = sites.reduce(0) { $0 + $1.count }
        var lines = ["Schedulable: violation summary: \(total) \(total == 1 ? "violation" : "violations") at \(sites.count) \(sites.count == 1 ? "site" : "sites")"]
        for site in sites {
            lines.append("  \(site.count) × \(site.member)\(site.place)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes ``summary`` to the handler's output, after every entry handed to the reporting thread.
    package func printSummary() {
        ReportWriter.flush()
        output(summary)
    }
}

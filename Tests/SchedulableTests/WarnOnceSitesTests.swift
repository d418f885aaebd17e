import Dispatch
@testable import Schedulable
import Testing

/// Warn-once and storm control count per access site, the same way in every build: CI runs this suite
/// in debug and in release + `ReleaseChecks`, and both must print the same lines. One object used wrongly
/// at two sites, twice each, from one context: the report for the first site, one line for the second
/// (the same object from the same context), then one "again" line per site (its count, 2, doubled).
@Suite("Warn-once per site in every build")
struct WarnOnceSitesTests {
    @inline(never) private static func touchCount(_ counter: Counter) { counter.count += 1 }
    @inline(never) private static func touchFlag(_ counter: Counter) { counter.flag = true }

    /// The lines a handler printed, each reduced to what it is about.
    private static func shape(_ lines: [String]) -> [String] {
        lines.map { line in
            let what = line.contains("Counter.count") || line.contains("member:          count") ? "count" : "flag"
            if line.hasPrefix("Schedulable: also used outside its owner:") { return "also \(what)" }
            if line.contains(" again") { return "again \(what)" + (line.contains("(2 times so far") ? " 2" : " ?") }
            if line.contains("used outside its owner\n") { return "report \(what)" }
            return "other: \(line)"
        }
    }

    private static func useAtTwoSitesTwice(handler: some ConfinementViolationHandler, label: String) {
        let owner = SerialQueueScheduler(label: label)
        let counter = withConfinementViolationHandler(handler) { Counter(owner: owner) }
        owner.sync { counter.count = 0 }
        DispatchQueue(label: label + ".intruder").sync {
            for _ in 0..<2 {
                touchCount(counter)
                touchFlag(counter)
            }
        }
    }

    @Test(.enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func aPolicyAtWarnOncePrintsOneReportPerSiteAndItsRepeats() {
        for round in 0..<50 {
            let lines = LockedList<String>()
            let handler = PolicyViolationHandler(
                ConfinementPolicy(default: .warnOnce), output: { lines.append($0) }, raisesRuntimeIssues: false
            )
            Self.useAtTwoSitesTwice(handler: handler, label: "warn.once.policy.\(round)")
            #expect(Self.shape(lines.elements) == ["report count", "also flag", "again count 2", "again flag 2"],
                    "\(lines.elements)")
            #expect(handler.summary.hasPrefix("Schedulable: violation summary: 4 violations at 2 sites\n"))
        }
    }

    @Test(.enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func theLogHandlerCountsTheSameSites() {
        for round in 0..<50 {
            let lines = LockedList<String>()
            let handler = LogViolationHandler(output: { lines.append($0) })
            Self.useAtTwoSitesTwice(handler: handler, label: "warn.once.log.\(round)")
            #expect(Self.shape(lines.elements) == ["report count", "also flag", "again count 2", "again flag 2"],
                    "\(lines.elements)")
            #expect(handler.count(for: "Counter.count") == 2)
            #expect(handler.count(for: "Counter.flag") == 2)
        }
    }
}

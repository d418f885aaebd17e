import Schedulable
import Testing

/// A program that held reports back prints the policy's summary when it exits normally, with the exact
/// count of every site. Each case runs `schedulable-main-probe summary <violations> <sites>`: a program
/// with no test framework, whose decisions about a stack not seen before are made on the reporting
/// thread, as in an app; the probe exits at once after its last violation, so most of those decisions
/// are still waiting when the exit work starts. That is what lost the summary: the exit hook read its
/// stages before the flush, and the summary asked to be printed during it (every run of the probe, in
/// debug and, as the issue measured, release + ReleaseChecks, before the fix). The order of the decisions depends on timing,
/// so each case runs 200 times.
@Suite("The violation summary at a normal exit", .enabled(if: ConfinementSystem.debugChecksCompiledIn))
struct ViolationSummaryAtExitTests {
    private static let runs = underThreadSanitizer ? 5 : 200

    /// The example: 1,000 violations at one site under `warn-once` print the first report and
    /// each doubling up to 512, then the summary says 1000.
    @Test func warnOnceSummarizesAThousandViolationsAtOneSite() throws {
        let outcomes = try runMainProbe(
            times: Self.runs, ["summary", "1000", "1"], environment: ["SCHEDULABLE_CONFINEMENT=warn-once"]
        )
        for (run, outcome) in outcomes.enumerated() {
            let stderr = outcome.standardError
            let line = try #require(firstSiteLine(stderr), "run \(run): \(stderr)")
            #expect(outcome.exitStatus == 0, "run \(run): \(stderr)")
            #expect(stderr.contains("(512 times so far)\n"), "run \(run): \(stderr)")
            #expect(
                stderr.hasSuffix(
                    "Schedulable: violation summary: 1000 violations at 1 site\n"
                        + "  1000 × Settings.retries at schedulable_main_probe/Summary.swift:\(line) in writeAtSummarySite0(_:)\n"
                ),
                "run \(run): \(stderr)"
            )
        }
    }

    /// Two sites, two violations each: the second of each is held back, so the summary is printed.
    @Test func warnOnceSummarizesTwoSites() throws {
        let outcomes = try runMainProbe(
            times: Self.runs, ["summary", "4", "2"], environment: ["SCHEDULABLE_CONFINEMENT=warn-once"]
        )
        for (run, outcome) in outcomes.enumerated() {
            let stderr = outcome.standardError
            let line = try #require(firstSiteLine(stderr), "run \(run): \(stderr)")
            #expect(outcome.exitStatus == 0, "run \(run): \(stderr)")
            #expect(
                stderr.hasSuffix(
                    "Schedulable: violation summary: 4 violations at 2 sites\n"
                        + "  2 × Settings.retries at schedulable_main_probe/Summary.swift:\(line) in writeAtSummarySite0(_:)\n"
                        + "  2 × Settings.retries at schedulable_main_probe/Summary.swift:\(line + 1) in writeAtSummarySite1(_:)\n"
                ),
                "run \(run): \(stderr)"
            )
        }
    }

    /// `warn` prints the first ``PolicyViolationHandler/fullReportsPerSite`` reports in full, then each
    /// doubling; the summary still says 1000.
    @Test func warnSummarizesAThousandViolationsAtOneSite() throws {
        let outcomes = try runMainProbe(
            times: Self.runs, ["summary", "1000", "1"], environment: ["SCHEDULABLE_CONFINEMENT=warn"]
        )
        for (run, outcome) in outcomes.enumerated() {
            let stderr = outcome.standardError
            let line = try #require(firstSiteLine(stderr), "run \(run): \(stderr)")
            #expect(outcome.exitStatus == 0, "run \(run): \(stderr)")
            #expect(stderr.contains("(512 times so far; only each doubling is printed now)\n"), "run \(run)")
            #expect(
                stderr.hasSuffix(
                    "Schedulable: violation summary: 1000 violations at 1 site\n"
                        + "  1000 × Settings.retries at schedulable_main_probe/Summary.swift:\(line) in writeAtSummarySite0(_:)\n"
                ),
                "run \(run): \(stderr)"
            )
        }
    }

    /// The line of the probe's first site, which it prints first.
    private func firstSiteLine(_ stderr: String) -> Int? {
        guard let start = stderr.range(of: "site line: ") else { return nil }
        return Int(stderr[start.upperBound...].prefix { $0.isNumber })
    }
}

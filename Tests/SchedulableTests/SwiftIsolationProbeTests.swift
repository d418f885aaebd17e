import Testing

/// Swift's isolation checks in a program that does not link SchedulableTesting (the probe): the
/// runtime's trap, untouched; and the opt-in of an app's debug run.
@Suite("Swift isolation checks in a program")
struct SwiftIsolationProbeTests {
    @Test func withoutSchedulableTestingAFailedIsolationCheckStillTraps() throws {
        let outcome = try runMainProbe(["isolation-trap"])
        #expect(outcome.signal != nil || outcome.exitStatus != 0, "stderr: \(outcome.standardError)")
        #expect(!outcome.standardError.contains("Swift isolation check failed"), "\(outcome.standardError)")
    }

    /// Debug builds only: release builds never install the hook, so there the probe traps.
    @Test(.enabled(if: debugBuild)) func anAppThatOptsInGetsOneReportPerSiteAndGoesOn() throws {
        let outcome = try runMainProbe(["isolation-opt-in"])
        #expect(outcome.exitStatus == 0, "stderr: \(outcome.standardError)")
        // One full report (headlines, one per call path and doubling, and repeat lines are one line each).
        let reports = outcome.standardError.components(separatedBy: "\n  member:          assumeIsolated\n")
        #expect(reports.count == 2, "\(outcome.standardError)")
        #expect(outcome.standardError.hasPrefix(
            "Schedulable: [1] Swift isolation check failed: assumeIsolated outside MainActor; expected owner: MainActor; "
        ), "\(outcome.standardError)")
    }
}

private let debugBuild: Bool = {
    #if SCHEDULABLE_DEBUG_BUILD
    return true
    #else
    return false
    #endif
}()

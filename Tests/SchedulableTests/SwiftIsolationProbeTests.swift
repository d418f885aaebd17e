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
        let reports = outcome.standardError.components(separatedBy: "Swift isolation check failed: assumeIsolated outside MainActor")
        #expect(reports.count == 2, "\(outcome.standardError)")
    }
}

private let debugBuild: Bool = {
    #if SCHEDULABLE_DEBUG_BUILD
    return true
    #else
    return false
    #endif
}()

import CSchedulableContext

/// One line, printed once per process at its first violation, when tests run without
/// `SchedulableTesting`: then violations cannot fail the test that caused them (they trap, or warn,
/// as outside tests), and nothing else would say why.
package enum TestFrameworkHint {
    /// Set by the first violation, which decides whether to print the hint.
    private static let decided = AtomicCell(0)

    /// Prints the hint if this is the process's first violation and it needs one. Notes never count.
    static func printOnceIfNeeded(for violation: ConfinementViolation) {
        guard violation.tier != .note, decided.loadRelaxed() == 0, decided.add(1) == 1 else { return }
        let frameworks = PlatformInternals.testFrameworksLoaded
        if let hint = message(bridgeInstalled: AutomaticTestReporting.isInstalled, frameworks: frameworks) {
            StandardError.write(hint)
        }
    }

    /// The hint for a process with `frameworks` loaded (`CSCHED_TEST_FRAMEWORK_*` bits), or `nil` when
    /// none is needed: no test framework, or `SchedulableTesting` is linked.
    package static func message(bridgeInstalled: Bool, frameworks: UInt32) -> String? {
        guard !bridgeInstalled else { return nil }
        var names: [String] = []
        if frameworks & CSCHED_TEST_FRAMEWORK_SWIFT_TESTING != 0 { names.append("Swift Testing") }
        if frameworks & CSCHED_TEST_FRAMEWORK_XCTEST != 0 { names.append("XCTest") }
        guard !names.isEmpty else { return nil }
        let verb = names.count > 1 ? "run" : "runs"
        return "Schedulable: note: \(names.joined(separator: " and ")) \(verb) in this process, but "
            + "SchedulableTesting is not linked, so violations do not fail the test that caused them; add the "
            + "SchedulableTesting product to the test target's dependencies (no import or trait is needed)\n"
    }
}

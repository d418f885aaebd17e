import Schedulable

/// What a test process prints before an always-on (precondition-tier) violation stops it, in every
/// framework: the test, the object and member, the line, and why the process cannot go on.
///
/// The report itself follows (the library prints it before it traps); this line is what ties it to the
/// test, since neither framework gets to print its own summary once the process is gone.
enum AlwaysOnTierNote {
    /// The note for `violation`, detected in `scope` ("test uploadsResume()"), ending in a newline.
    static func text(for violation: ConfinementViolation, in scope: String) -> String {
        "Schedulable: \(violation.qualifiedMember) used outside its owner in \(scope)\(violation.sitePlace): "
            + "the process stops here, even in a test. This check is always on (preconditionIsolated(), "
            + "SchedulerBound, SchedulableObject) because it is what lets the object be shared across "
            + "threads as Sendable: going on would be a data race. Checks a test can catch are "
            + "assertIsolated() and @Confined; test this one in a child process with an exit test, "
            + "#expect(processExitsWith: .failure) { … }.\n"
    }
}

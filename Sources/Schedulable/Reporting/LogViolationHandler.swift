import CSchedulableContext

/// Prints each distinct violation (per type, member and access site; a note per call site) to standard error once,
/// then counts repeats, printing the count again each time it doubles so a hot loop cannot flood the log:
/// a `PolicyViolationHandler` at ``ConfinementLevel/warnOnce`` for everything, with its summary at exit
/// when repeats were held back.
/// One report per bug: a new site of an object already reported from the same context (the properties a
/// wrong call goes on to touch) is one line naming its member and site.
///
/// On Apple platforms the handler that writes to standard error also raises an Xcode runtime issue
/// (the purple warning in the editor and the Issue navigator) for each entry, with its one-line summary.
///
/// The violating thread only counts; each entry is built (its stack symbolicated) and written by the
/// library's reporting thread, in order, and all of it before a trap or a normal exit (see
/// ``ConfinementSystem/flushReports()``); on the violating thread where a test framework is loaded.
package final class LogViolationHandler: ConfinementViolationHandler {
    /// The handler this one is: a policy at `warn-once` for everything. One counter, one set of
    /// groups and one summary for every printing handler, so `.log` and `warn-once` print the same
    /// lines for the same violations, in every build.
    private let policy: PolicyViolationHandler

    /// Creates a handler that writes to standard error (and, on Apple platforms, raises Xcode runtime
    /// issues).
    package convenience init() {
        self.init(output: { StandardError.write($0) }, raisesRuntimeIssues: true, headlines: .standardError)
    }

    /// Creates a handler that writes its lines to `output` (for tests and custom sinks), and nowhere else.
    ///
    /// - Parameter output: Receives each log entry, newline-terminated, on the library's reporting
    ///   thread, one at a time and in the order the handler handed them over (on the violating thread
    ///   where a test framework is loaded).
    package convenience init(output: @escaping @Sendable (String) -> Void) {
        self.init(output: output, raisesRuntimeIssues: false)
    }

    private init(output: @escaping @Sendable (String) -> Void, raisesRuntimeIssues: Bool, headlines: HeadlineOutput? = nil) {
        policy = PolicyViolationHandler(
            ConfinementPolicy(default: .warnOnce), output: output, raisesRuntimeIssues: raisesRuntimeIssues,
            headlines: headlines
        )
    }

    /// Logs `violation` the first time its type, member and access site are seen, then at counts 2, 4, 8, ….
    ///
    /// - Parameter violation: What happened.
    package func handle(_ violation: ConfinementViolation) {
        policy.handle(violation)
    }

    /// How many times a member has been reported, by `Type.member`, at all its access sites.
    ///
    /// - Parameter qualifiedMember: `Type.member` as in ``ConfinementViolation/qualifiedMember``.
    /// - Returns: The number of violations seen for it.
    package func count(for qualifiedMember: String) -> Int {
        policy.count(for: qualifiedMember)
    }

    /// The summary of the policy this handler is.
    package var summary: String { policy.summary }
}

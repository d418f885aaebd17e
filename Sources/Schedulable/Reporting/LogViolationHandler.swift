import CSchedulableContext

/// Prints each distinct violation (per type, member and access site; a note per call site) to standard error once,
/// then counts repeats, printing the count again each time it doubles so a hot loop cannot flood the log.
/// One report per bug: a new site of an object already reported from the same context (the properties a
/// wrong call goes on to touch) is one line naming its member and site.
///
/// On Apple platforms the handler that writes to standard error also raises an Xcode runtime issue
/// (the purple warning in the editor and the Issue navigator) for each entry, with its one-line summary.
///
/// The violating thread only counts; each entry is built (its stack symbolicated) and written by the
/// library's reporting thread, in order, and all of it before a trap or a normal exit (see
/// ``ConfinementSystem/flushReports()``); on the violating thread where a test framework is loaded.
public final class LogViolationHandler: ConfinementViolationHandler {
    private struct Key: Hashable {
        var kind: ConfinementViolation.Kind
        var member: String
        /// Set for notes only: a note is about one call site (the `present()` that waited), and one
        /// entry per type would hide every other place that waits.
        var callSite: CodeLocation?
        /// The access site (see ``ConfinementViolation/accessSite``): two bad call sites of one member are
        /// two findings.
        var accessSite: AnyHashable?
    }

    private let counts = LockedValue<[Key: Int]>([:])
    private let groups = WarnOnceGroups()
    private let output: @Sendable (String) -> Void
    /// Whether entries also become Xcode runtime issues (Apple platforms; a no-op elsewhere).
    private let raisesRuntimeIssues: Bool
    /// Whether entries are written on the reporting thread (see ``ReportWriter``).
    private let writesOnReportingThread = ReportWriter.isDefaultInThisProcess

    /// Creates a handler that writes to standard error (and, on Apple platforms, raises Xcode runtime
    /// issues).
    public convenience init() {
        self.init(output: { StandardError.write($0) }, raisesRuntimeIssues: true)
    }

    /// Creates a handler that writes its lines to `output` (for tests and custom sinks), and nowhere else.
    ///
    /// - Parameter output: Receives each log entry, newline-terminated, on the library's reporting
    ///   thread, one at a time and in the order the handler handed them over (on the violating thread
    ///   where a test framework is loaded).
    public convenience init(output: @escaping @Sendable (String) -> Void) {
        self.init(output: output, raisesRuntimeIssues: false)
    }

    private init(output: @escaping @Sendable (String) -> Void, raisesRuntimeIssues: Bool) {
        self.output = output
        self.raisesRuntimeIssues = raisesRuntimeIssues
    }

    /// Logs `violation` the first time its type, member and access site are seen, then at counts 2, 4, 8, ….
    ///
    /// - Parameter violation: What happened.
    public func handle(_ violation: ConfinementViolation) {
        // Counting needs the access site, and a stack not seen before is symbolicated to find it.
        ReportWriter.decide(
            about: violation, onReportingThread: writesOnReportingThread, raising: raisesRuntimeIssues
        ) { accessSite, raising in
            self.count(violation, at: accessSite, raisingRuntimeIssue: raising)
        }
    }

    private func count(_ violation: ConfinementViolation, at accessSite: AnyHashable?, raisingRuntimeIssue: Bool) {
        let key = Key(
            kind: violation.kind, member: violation.qualifiedMember,
            callSite: violation.tier == .note ? violation.callSite : nil,
            accessSite: accessSite
        )
        let count = counts.withLock { counts -> Int in
            counts[key, default: 0] += 1
            return counts[key]!
        }
        guard count == 1 || count & (count - 1) == 0 else { return }
        // The runtime issue here, on the violating thread (Xcode shows its stack); the entry is built
        // and written on the reporting thread.
        if raisingRuntimeIssue { PlatformInternals.raiseRuntimeIssue(violation.runtimeIssueLine) }
        let output = output
        let groups = groups
        ReportWriter.write(onReportingThread: writesOnReportingThread) {
            output(count == 1 ? groups.entry(forNewSite: violation) : violation.repeatLine(count: count))
        }
    }

    /// How many times a member has been reported, by `Type.member`, at all its access sites.
    ///
    /// - Parameter qualifiedMember: `Type.member` as in ``ConfinementViolation/qualifiedMember``.
    /// - Returns: The number of violations seen for it.
    public func count(for qualifiedMember: String) -> Int {
        // Counts the reporting thread still has to make (stacks not seen before) first.
        ReportWriter.flush()
        return counts.withLock { counts in
            counts.reduce(0) { $0 + ($1.key.member == qualifiedMember ? $1.value : 0) }
        }
    }
}

extension ConfinementViolationHandler where Self == LogViolationHandler {
    /// Print each distinct violation once to standard error, with repeat counts.
    public static var log: Self { LogViolationHandler() }
}

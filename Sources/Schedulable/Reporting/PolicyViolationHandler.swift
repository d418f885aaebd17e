#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CSchedulableContext

/// Handles each violation at the level a ``ConfinementPolicy`` gives it: the process-wide default
/// handler, and what the `SCHEDULABLE_CONFINEMENT` environment variable installs.
///
/// - ``ConfinementLevel/off``: nothing.
/// - ``ConfinementLevel/observe``: a use outside the owner is not printed: its delivery records it for
///   ``ConfinementObservations`` instead; any other violation is handled as at `warnOnce`.
/// - ``ConfinementLevel/warnOnce``: the whole report the first time an access site (of a member)
///   violates, then a one-line count each time the count doubles, so a hot loop cannot flood the log.
///   One report per bug: a new site of an object already reported from the same context (the
///   properties a wrong call goes on to touch) is one line naming its member and site.
/// - ``ConfinementLevel/warn`` and ``ConfinementLevel/failTest`` (outside a test scope): the report
///   every time, up to ``fullReportsPerSite`` per call site; then, so that a violation storm cannot
///   flood the log, a one-line count each time the site's count doubles.
/// - ``ConfinementLevel/trap``: the report, then the process stops.
///
/// Counts are exact whatever is printed: ``summary`` lists every site with its count, and the process
/// prints it at exit when any report was held back.
///
/// The violating thread only counts and decides; the entry is built (its stack symbolicated) and
/// written by the library's reporting thread, in the order the handler handed them over, so a report
/// does not stall the code that made it. A handler that writes to standard error first writes the
/// entry's one-line headline there itself, so that a process killed before the entry is written still
/// has it (the Reporting Violations article, "The headline is written first"). Everything is written before a trap and at a normal exit;
/// ``ConfinementSystem/flushReports()`` waits for it anywhere else. In a process where a test framework
/// is loaded, entries are written on the violating thread instead (a test reads them at once).
///
/// Precondition-tier violations are printed and stop the process after any handler (see
/// ``ConfinementViolationHandler``), so this handler leaves them to that path. Notes never trap: at any
/// level but `off` they are printed once per call site.
package final class PolicyViolationHandler: ConfinementViolationHandler {
    struct Site: Hashable {
        var member: String
        var place: CodeLocation?
        /// The access site's key (the report's `accessSite` field): two bad call sites of one
        /// member are two sites.
        var accessSite: AnyHashable?
        /// Notes are counted (each doubling is printed) but are not violations: the summary leaves
        /// them out, and a repeated note alone does not print it.
        var isNote: Bool
    }

    struct SiteCount {
        var count = 0
        /// The site's first violation, which names its access site in the summary (symbolicated then).
        var first: ConfinementViolation
    }

    /// The policy that decides each violation's level.
    package let policy: ConfinementPolicy
    let counts = LockedValue<[Site: SiteCount]>([:])
    private let groups = WarnOnceGroups()
    /// Whether some report was held back, so the summary is worth printing at exit.
    private let heldBack = LockedValue(false)

    /// How many full reports a `warn` site prints before it only counts.
    package static let fullReportsPerSite = 16
    let output: @Sendable (String) -> Void
    /// Whether each entry also raises an Xcode runtime issue (Apple platforms; a no-op elsewhere).
    private let raisesRuntimeIssues: Bool
    /// Whether entries are written on the reporting thread (see ``ReportWriter``).
    private let writesOnReportingThread: Bool
    /// Where the violating thread writes each headline of an entry it hands to the reporting thread
    /// (see ``ViolationHeadlines``); `nil` for a handler whose output is the caller's.
    private let headlines: HeadlineOutput?
    private let paths = HeadlineCounts()

    /// Creates a handler that writes to standard error — and, on Apple platforms, raises each entry as
    /// an Xcode runtime issue (the purple warning), like `LogViolationHandler`.
    ///
    /// - Parameter policy: Decides each violation's level.
    ///
    /// The runtime issue is raised on the violating thread, whose stack Xcode shows with it; its text is
    /// the report's one-line summary (the whole report is on standard error).
    package convenience init(_ policy: ConfinementPolicy) {
        self.init(policy, output: { StandardError.write($0) }, raisesRuntimeIssues: true, headlines: .standardError)
    }

    /// Creates a handler that writes its lines to `output` (for tests and custom sinks).
    ///
    /// - Parameters:
    ///   - policy: Decides each violation's level.
    ///   - output: Receives each entry, newline-terminated, on the library's reporting thread, one at a
    ///     time and in the order the handler handed them over (on the violating thread in a process
    ///     where a test framework is loaded, and at the `trap` level just before the process stops).
    package convenience init(_ policy: ConfinementPolicy, output: @escaping @Sendable (String) -> Void) {
        self.init(policy, output: output, raisesRuntimeIssues: false)
    }

    /// Creates a handler that writes its lines to `output`, on the reporting thread or not whatever the
    /// process is (tests of the reporting thread, which run where a test framework is loaded).
    package init(
        _ policy: ConfinementPolicy, output: @escaping @Sendable (String) -> Void, raisesRuntimeIssues: Bool,
        writesOnReportingThread: Bool = ReportWriter.isDefaultInThisProcess, headlines: HeadlineOutput? = nil
    ) {
        self.policy = policy
        self.output = output
        self.raisesRuntimeIssues = raisesRuntimeIssues
        self.headlines = headlines
        self.writesOnReportingThread = writesOnReportingThread
    }

    /// The level `violation` is handled at, after the tier's rules: notes never trap, the precondition
    /// tier always does.
    ///
    /// - Parameter violation: The violation.
    /// - Returns: The effective level.
    package func level(for violation: ConfinementViolation) -> ConfinementLevel {
        let level = policy.level(for: violation)
        switch violation.tier {
        case .note: return level == .off ? .off : .warnOnce
        case .precondition: return .trap
        case .assert: return level
        }
    }

    /// Handles `violation` at its level.
    ///
    /// - Parameter violation: What happened.
    package func handle(_ violation: ConfinementViolation) {
        // The delivery path prints and stops for the precondition tier, after any handler.
        if violation.tier == .precondition { return }
        let level = level(for: violation)
        switch level {
        case .off:
            return
        case .observe where violation.kind == .wrongContext:
            // A step of observation, not a report: the delivery records it (`Delivery.deliver()`, see
            // ``ConfinementReporting/observes(_:handledBy:)``); nothing is printed.
            return
        case .trap:
            // Whatever was handed to the reporting thread first, then this report, then the trap.
            ReportWriter.flush()
            raiseRuntimeIssue(for: violation)
            output(violation.description + "\n")
            fatalError(violation.trapMessage)
        case .observe, .warnOnce, .warn, .failTest:
            // Counting needs the access site, and a stack not seen before is symbolicated to find it.
            let known = violation.knownAccessSiteKey
            let headline = writeHeadline(for: violation, level: level, known: known)
            ReportWriter.decide(
                about: violation, known: known, onReportingThread: writesOnReportingThread,
                raising: raisesRuntimeIssues
            ) { accessSite, raising in
                self.count(violation, at: accessSite, level: level, raising: raising, headline: headline)
            }
        }
    }

    /// Writes the headline of `violation` here, on the violating thread, when its entry will be written
    /// on the reporting thread and its path's count calls for one (``HeadlineCounts``), and returns its
    /// number.
    private func writeHeadline(
        for violation: ConfinementViolation, level: ConfinementLevel, known: AnyHashable??
    ) -> UInt? {
        guard let headlines, writesOnReportingThread, ViolationHeadlines.areEnabled else { return nil }
        let count = paths.count(violation)
        guard HeadlineCounts.writesHeadline(count: count, level: level, fullReports: Self.fullReportsPerSite) else {
            return nil
        }
        let number = ViolationHeadlines.nextNumber()
        let site = violation.siteKnownWithoutSymbols(known)
        headlines.write(violation.headline(number: number, count: count, site: site), number)
        if headlines.writesJSONLines, let sink = JSONLinesViolationHandler.process {
            sink.appendNow(violation.headlineJSONLine(number: number, count: count, site: site, level: level))
        }
        return number
    }

    /// Counts `violation` at its site and hands what its count calls for to the reporting thread, each
    /// entry after the headline numbered `headline`, if any.
    private func count(
        _ violation: ConfinementViolation, at accessSite: AnyHashable?, level: ConfinementLevel, raising: Bool,
        headline: UInt?
    ) {
        let count = record(violation, at: accessSite)
        guard level == .warn || level == .failTest else {
            // `observe` and `warn-once`: only a use outside the owner is an observation; anything else
            // is still said, once.
            if count == 1 {
                let groups = groups
                return emit(violation, raising: raising, headline: headline) { groups.entry(forNewSite: $0) }
            }
            if violation.tier != .note { holdBack() }
            if count & (count - 1) == 0 { emit(violation, raising: raising, headline: headline) { $0.repeatLine(count: count) } }
            return
        }
        if count <= Self.fullReportsPerSite {
            emit(violation, raising: raising, headline: headline) { $0.description + "\n" }
        } else {
            holdBack()
            if count & (count - 1) == 0 {
                emit(violation, raising: raising, headline: headline) {
                    $0.repeatLine(count: count, suffix: "; only each doubling is printed now")
                }
            }
        }
    }

    /// Hands the entry `build` makes of `violation` to the reporting thread (see ``ReportWriter``), which
    /// writes it as the report of `headline` when there is one; the runtime issue, if `raising`, is
    /// raised here, on the violating thread.
    private func emit(
        _ violation: ConfinementViolation, raising: Bool, headline: UInt?,
        _ build: @escaping @Sendable (ConfinementViolation) -> String
    ) {
        if raising { PlatformInternals.raiseRuntimeIssue(violation.runtimeIssueLine) }
        let output = output
        let lastWritten = headlines?.lastWritten
        ReportWriter.write(onReportingThread: writesOnReportingThread) {
            let entry = build(violation)
            guard let headline, let lastWritten else { return output(entry) }
            output(ViolationHeadlines.entry(entry, after: headline, adjacent: lastWritten() == headline))
        }
    }

    private func raiseRuntimeIssue(for violation: ConfinementViolation) {
        if raisesRuntimeIssues { PlatformInternals.raiseRuntimeIssue(violation.runtimeIssueLine) }
    }

    /// Counts `violation` at its site (its member, call site and the access site's key) and returns the
    /// site's count so far.
    private func record(_ violation: ConfinementViolation, at accessSite: AnyHashable?) -> Int {
        let site = Site(
            member: violation.qualifiedMember, place: violation.callSite, accessSite: accessSite,
            isNote: violation.tier == .note
        )
        return counts.withLock { counts -> Int in
            counts[site, default: SiteCount(first: violation)].count += 1
            return counts[site]!.count
        }
    }

    private func holdBack() {
        let first = heldBack.withLock { held -> Bool in
            defer { held = true }
            return !held
        }
        if first { PolicySummaryAtExit.register(self) }
    }
}

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
/// - ``ConfinementLevel/observe``: a use outside the owner is recorded for ``ConfinementObservations``
///   and nothing is printed; any other violation is handled as at `warnOnce`.
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
/// Precondition-tier violations are printed and stop the process after any handler (see
/// ``ConfinementViolationHandler``), so this handler leaves them to that path. Notes never trap: at any
/// level but `off` they are printed once per call site.
public final class PolicyViolationHandler: ConfinementViolationHandler {
    private struct Site: Hashable {
        var member: String
        var place: CodeLocation?
        /// The access site's key (see ``ConfinementViolation/accessSite``): two bad call sites of one
        /// member are two sites.
        var accessSite: AnyHashable?
        /// Notes are counted (each doubling is printed) but are not violations: the summary leaves
        /// them out, and a repeated note alone does not print it.
        var isNote: Bool
    }

    private struct SiteCount {
        var count = 0
        /// The site's first violation, which names its access site in the summary (symbolicated then).
        var first: ConfinementViolation
    }

    /// The policy that decides each violation's level.
    public let policy: ConfinementPolicy
    private let counts = LockedValue<[Site: SiteCount]>([:])
    private let groups = WarnOnceGroups()
    /// Whether some report was held back, so the summary is worth printing at exit.
    private let heldBack = LockedValue(false)

    /// How many full reports a `warn` site prints before it only counts.
    public static let fullReportsPerSite = 16
    private let output: @Sendable (String) -> Void

    /// Creates a handler that writes to standard error — and, on Apple platforms, raises each entry as
    /// an Xcode runtime issue (the purple warning), like ``LogViolationHandler``.
    ///
    /// - Parameter policy: Decides each violation's level.
    public convenience init(_ policy: ConfinementPolicy) {
        self.init(policy, output: { entry in
            StandardError.write(entry)
            PlatformInternals.raiseRuntimeIssue(entry)
        })
    }

    /// Creates a handler that writes its lines to `output` (for tests and custom sinks).
    ///
    /// - Parameters:
    ///   - policy: Decides each violation's level.
    ///   - output: Receives each entry, newline-terminated.
    public init(_ policy: ConfinementPolicy, output: @escaping @Sendable (String) -> Void) {
        self.policy = policy
        self.output = output
    }

    /// The level `violation` is handled at, after the tier's rules: notes never trap, the precondition
    /// tier always does.
    ///
    /// - Parameter violation: The violation.
    /// - Returns: The effective level.
    public func level(for violation: ConfinementViolation) -> ConfinementLevel {
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
    public func handle(_ violation: ConfinementViolation) {
        // The delivery path prints and stops for the precondition tier, after any handler.
        if violation.tier == .precondition { return }
        switch level(for: violation) {
        case .off:
            return
        case .observe where violation.kind == .wrongContext:
            ObservationStore.shared.recordDeclared(violation)
        case .observe, .warnOnce:
            // Only a use outside the owner is an observation; anything else is still said, once.
            warnOnce(violation)
        case .warn, .failTest:
            let count = record(violation)
            if count <= Self.fullReportsPerSite {
                output(violation.description + "\n")
            } else {
                holdBack()
                if count & (count - 1) == 0 {
                    output(violation.repeatLine(count: count, suffix: "; only each doubling is printed now"))
                }
            }
        case .trap:
            output(violation.description + "\n")
            fatalError(violation.trapMessage)
        }
    }

    private func warnOnce(_ violation: ConfinementViolation) {
        let count = record(violation)
        if count == 1 {
            output(groups.entry(forNewSite: violation))
            return
        }
        if violation.tier != .note { holdBack() }
        if count & (count - 1) == 0 { output(violation.repeatLine(count: count)) }
    }

    /// Counts `violation` at its site and returns the site's count so far.
    private func record(_ violation: ConfinementViolation) -> Int {
        let site = Site(
            member: violation.qualifiedMember, place: violation.callSite, accessSite: violation.accessSiteKey,
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

    /// Every site that violated, most frequent first, with its exact count: what a storm looked like,
    /// whatever was printed. One line per site, then a total. Notes are not violations: not counted.
    public var summary: String {
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

    /// Writes ``summary`` to the handler's output.
    public func printSummary() {
        output(summary)
    }
}

extension ConfinementViolationHandler where Self == PolicyViolationHandler {
    /// Handle each violation at the level `policy` gives it.
    ///
    /// - Parameter policy: Decides each violation's level.
    /// - Returns: The handler.
    public static func policy(_ policy: ConfinementPolicy) -> Self {
        PolicyViolationHandler(policy)
    }
}

/// Prints the summary of the handlers that held reports back, once, when the process exits normally.
enum PolicySummaryAtExit {
    private static let handlers = LockedValue<[PolicyViolationHandler]>([])

    static func register(_ handler: PolicyViolationHandler) {
        let isFirst = handlers.withLock { handlers -> Bool in
            handlers.append(handler)
            return handlers.count == 1
        }
        if isFirst { atexit { PolicySummaryAtExit.printAll() } }
    }

    private static func printAll() {
        for handler in handlers.withLock({ $0 }) { handler.printSummary() }
    }
}

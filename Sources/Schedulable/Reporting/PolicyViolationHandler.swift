/// Handles each violation at the level a ``ConfinementPolicy`` gives it: the process-wide default
/// handler, and what the `SCHEDULE_PROTECTION` environment variable installs.
///
/// - ``ConfinementLevel/off``: nothing.
/// - ``ConfinementLevel/warnOnce``: the whole report the first time a call site (else a member)
///   violates, then a one-line count each time the count doubles, so a hot loop cannot flood the log.
/// - ``ConfinementLevel/warn`` and ``ConfinementLevel/failTest`` (outside a test scope): the report
///   every time.
/// - ``ConfinementLevel/trap``: the report, then the process stops.
///
/// Precondition-tier violations are printed and stop the process after any handler (see
/// ``ConfinementViolationHandler``), so this handler leaves them to that path. Notes never trap: at any
/// level but `off` they are printed once per call site.
public final class PolicyViolationHandler: ConfinementViolationHandler {
    private struct Site: Hashable {
        var member: String
        var place: CodeLocation?
    }

    /// The policy that decides each violation's level.
    public let policy: ConfinementPolicy
    private let counts = ScheduleLock<[Site: Int]>([:])
    private let output: @Sendable (String) -> Void

    /// Creates a handler that writes to standard error.
    ///
    /// - Parameter policy: Decides each violation's level.
    public convenience init(_ policy: ConfinementPolicy) {
        self.init(policy, output: { StandardError.write($0) })
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
        case .warnOnce:
            warnOnce(violation)
        case .warn, .failTest:
            output(violation.description + "\n")
        case .trap:
            output(violation.description + "\n")
            fatalError("Schedulable: \(violation.qualifiedMember) used outside its owner (report above)")
        }
    }

    private func warnOnce(_ violation: ConfinementViolation) {
        let site = Site(member: violation.qualifiedMember, place: violation.callSite)
        let count = counts.withLock { counts -> Int in
            counts[site, default: 0] += 1
            return counts[site]!
        }
        if count == 1 {
            output(violation.description + "\n")
        } else if count & (count - 1) == 0 {
            let place = violation.callSite.map { " at \($0)" } ?? ""
            let what = violation.tier == .note ? "note: \(violation.qualifiedMember) had to wait" : "\(violation.qualifiedMember) used outside its owner"
            output("Schedulable: \(what) again\(place) (\(count) times so far)\n")
        }
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

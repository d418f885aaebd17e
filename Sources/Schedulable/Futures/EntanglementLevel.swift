/// How far a chain of futures may spread — STMQ's `entanglementLevel`.
///
/// Every future has a level. A future derived from another (``ScheduledFuture/map(file:line:_:)``,
/// ``ScheduledFuture/flatMap(file:line:_:)``) gets its parent's level minus one. A future at level 0 is
/// *in the present*: its work runs before the call that made it returns — on its scheduler, exactly as a
/// synchronous call there (see the Futures article) — and the future is already complete. A root future
/// (``SerialScheduler/future(file:line:_:)`` and the other ways to start one) starts at
/// ``FutureSystem/defaultEntanglementLevel``.
public enum EntanglementLevel: Sendable, Hashable, CustomStringConvertible {
    /// No limit: every future, derived or not, is an event of its scheduler (the default).
    case unlimited
    /// At most this many more levels of futures queue their work; 0 runs it in the present.
    case limited(Int)

    /// The level of a future derived from a future at this level.
    public var derived: EntanglementLevel {
        switch self {
        case .unlimited: return .unlimited
        case .limited(let level): return .limited(max(level - 1, 0))
        }
    }

    /// Whether a future at this level runs its work in the present (level 0).
    public var runsInThePresent: Bool {
        if case .limited(let level) = self { return level <= 0 }
        return false
    }

    /// `unlimited`, or the number.
    public var description: String {
        switch self {
        case .unlimited: return "unlimited"
        case .limited(let level): return String(level)
        }
    }
}

/// How many times a handler has seen each call path, for its headlines: the violating thread decides
/// whether to write a headline before it knows the access site, which only symbols tell for a stack not
/// seen before, so it counts what it has: the member, the call site and the captured return addresses.
///
/// A path leads to one access site, so a path's count is never above its site's: a site's first
/// violation (and each of a `warn` site's full reports) is a path's first too, and has its headline.
/// The rule is the handler's doubling rule applied per path: a site reached by one path (a loop) writes
/// a headline exactly where the handler prints its first report and its "again … (n times so far)"
/// lines; a site reached by several paths writes at most one series of doublings per path.
final class HeadlineCounts: Sendable {
    private struct Path: Hashable {
        var member: String
        var callSite: CodeLocation?
        var isNote: Bool
        /// The captured return addresses; for a violation without a captured stack, its access site's key.
        var addresses: [UInt]
        var site: AnyHashable?
    }

    /// Paths kept before the counts start again (then a path can have a first headline twice).
    private static let limit = 4_096
    private let counts = LockedValue<[Path: Int]>([:])

    init() {}

    /// Counts `violation` on its path and returns the path's count so far.
    ///
    /// - Parameter violation: A violation the handler prints or counts.
    /// - Returns: How many times its path has been seen, this one included.
    func count(_ violation: ConfinementViolation) -> Int {
        var path = Path(
            member: violation.qualifiedMember, callSite: violation.callSite, isNote: violation.tier == .note,
            addresses: [], site: nil
        )
        if case .captured(let capture) = violation.access {
            path.addresses = capture.stack.addresses
        } else {
            path.site = violation.accessSiteKey
        }
        return counts.withLock { counts -> Int in
            if counts.count >= Self.limit, counts[path] == nil { counts.removeAll() }
            counts[path, default: 0] += 1
            return counts[path]!
        }
    }

    /// Whether a path's `count`-th violation has a headline at `level`: the first, then each doubling,
    /// and at `warn` (or `failTest` outside a test) every one of the first `fullReports` too.
    ///
    /// - Parameters:
    ///   - count: The path's count, this violation included.
    ///   - level: The level the handler gave the violation.
    ///   - fullReports: How many full reports a `warn` site prints.
    static func writesHeadline(count: Int, level: ConfinementLevel, fullReports: Int) -> Bool {
        if count & (count - 1) == 0 { return true }
        return (level == .warn || level == .failTest) && count <= fullReports
    }
}


/// Receives every violation. Install one process-wide with ``ScheduleProtectionSystem/bootstrap(_:file:line:)``
/// or for a scope with ``withScheduleViolationHandler(_:operation:)``.
///
/// ## Implementation requirements
/// - `handle(_:)` may be called on any thread, concurrently.
/// - It must not block waiting for the scheduler the violation happened on.
/// - A violation raised while a handler runs on the same thread is not delivered again (it is printed
///   to standard error), so handlers may touch protected objects without recursing.
/// - For ``ScheduleViolation/Tier/precondition`` violations the process traps after `handle(_:)`
///   returns; the handler cannot prevent that.
/// - When the outcome is a trap anyway (the precondition tier, or the process-wide ``TrapViolationHandler``)
///   and the owner is a queue, libdispatch is asked first whether this thread holds the queue: it can
///   see one nesting the library cannot. Its "no" is a trap, so the report is printed and the process
///   stops without calling `handle(_:)`.
public protocol ScheduleViolationHandler: Sendable {
    /// Handles one violation.
    ///
    /// - Parameter violation: What happened.
    func handle(_ violation: ScheduleViolation)
}

/// Prints the whole report to standard error, then stops the process.
///
/// The report is printed first because on Linux a failing `dispatchPrecondition` or `precondition`
/// in an optimized build prints nothing at all.
public struct TrapViolationHandler: ScheduleViolationHandler {
    /// Creates the handler.
    public init() {}

    /// Prints `violation` and traps; a ``ScheduleViolation/Tier/note`` is printed and nothing more.
    ///
    /// - Parameter violation: What happened.
    public func handle(_ violation: ScheduleViolation) {
        StandardError.write(violation.description + "\n")
        // A note reports nothing wrong (a future that had to be waited for): stopping the process
        // for it would turn a performance hint into a crash.
        if violation.tier == .note { return }
        fatalError("Schedulable: \(violation.qualifiedMember) used outside its owner (report above)")
    }
}

/// Prints each distinct violation (per type and member; a note per call site) to standard error once,
/// then counts repeats, printing the count again each time it doubles so a hot loop cannot flood the log.
public final class LogViolationHandler: ScheduleViolationHandler {
    private struct Key: Hashable {
        var kind: ScheduleViolation.Kind
        var member: String
        /// Set for notes only: a note is about one call site (the `present()` that waited), and one
        /// entry per type would hide every other place that waits.
        var callSite: SourceLocation?
    }

    private let counts = ScheduleLock<[Key: Int]>([:])
    private let output: @Sendable (String) -> Void

    /// Creates a handler that writes to standard error.
    public convenience init() {
        self.init(output: { StandardError.write($0) })
    }

    /// Creates a handler that writes its lines to `output` (for tests and custom sinks).
    ///
    /// - Parameter output: Receives each log entry, newline-terminated.
    public init(output: @escaping @Sendable (String) -> Void) {
        self.output = output
    }

    /// Logs `violation` the first time its type and member are seen, then at counts 2, 4, 8, ….
    ///
    /// - Parameter violation: What happened.
    public func handle(_ violation: ScheduleViolation) {
        let key = Key(
            kind: violation.kind, member: violation.qualifiedMember,
            callSite: violation.tier == .note ? violation.callSite : nil
        )
        let count = counts.withLock { counts -> Int in
            counts[key, default: 0] += 1
            return counts[key]!
        }
        if count == 1 {
            output(violation.description + "\n")
        } else if count & (count - 1) == 0 {
            if violation.tier == .note {
                let place = violation.callSite.map { " at \($0)" } ?? ""
                output("Schedulable: note: \(violation.qualifiedMember) had to wait again\(place) (\(count) times so far)\n")
            } else {
                output("Schedulable: \(violation.qualifiedMember) used outside its owner again (\(count) times so far)\n")
            }
        }
    }

    /// How many times a member has been reported, by `Type.member`.
    ///
    /// - Parameter qualifiedMember: `Type.member` as in ``ScheduleViolation/qualifiedMember``.
    /// - Returns: The number of violations seen for it.
    public func count(for qualifiedMember: String) -> Int {
        counts.withLock { counts in
            counts.reduce(0) { $0 + ($1.key.member == qualifiedMember ? $1.value : 0) }
        }
    }
}

/// Calls a closure for each violation.
public struct CustomViolationHandler: ScheduleViolationHandler {
    private let body: @Sendable (ScheduleViolation) -> Void

    /// Creates a handler from a closure.
    ///
    /// - Parameter body: Called for each violation, on the thread that detected it.
    public init(_ body: @escaping @Sendable (ScheduleViolation) -> Void) {
        self.body = body
    }

    /// Calls the closure.
    ///
    /// - Parameter violation: What happened.
    public func handle(_ violation: ScheduleViolation) { body(violation) }
}

/// Ignores debug-tier violations. Precondition-tier violations still print and trap: they guard
/// memory safety, not style.
public struct IgnoreViolationHandler: ScheduleViolationHandler {
    /// Creates the handler.
    public init() {}

    /// Does nothing.
    ///
    /// - Parameter violation: What happened.
    public func handle(_ violation: ScheduleViolation) {}
}

extension ScheduleViolationHandler where Self == TrapViolationHandler {
    /// Print the report, then trap (the default in debug builds).
    public static var trap: Self { TrapViolationHandler() }
}

extension ScheduleViolationHandler where Self == LogViolationHandler {
    /// Print each distinct violation once to standard error, with repeat counts.
    public static var log: Self { LogViolationHandler() }
}

extension ScheduleViolationHandler where Self == IgnoreViolationHandler {
    /// Ignore debug-tier violations.
    public static var off: Self { IgnoreViolationHandler() }
}

extension ScheduleViolationHandler where Self == CustomViolationHandler {
    /// Call `body` for each violation.
    ///
    /// - Parameter body: Called for each violation, on the thread that detected it.
    /// - Returns: The handler.
    public static func custom(_ body: @escaping @Sendable (ScheduleViolation) -> Void) -> Self {
        CustomViolationHandler(body)
    }
}

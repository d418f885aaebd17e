/// One access (or scheduling request) made from the wrong execution context, with everything needed
/// to find and fix it.
///
/// New fields may be added in minor releases; handlers receive the whole value, so they keep working.
public struct ConfinementViolation: Sendable, CustomStringConvertible {
    /// What went wrong.
    ///
    /// Extensible: new kinds may be added without breaking `switch`-free handlers.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        /// A stable identifier, e.g. `"wrongContext"`.
        public let rawValue: String

        /// Creates a kind.
        ///
        /// - Parameter rawValue: A stable identifier.
        package init(rawValue: String) { self.rawValue = rawValue }

        /// A member of a protected object was used outside the object's owner.
        public static let wrongContext = Kind(rawValue: "wrongContext")
        /// Work was submitted to a scheduler that no longer accepts work.
        public static let rejectedWork = Kind(rawValue: "rejectedWork")
        /// A context turned out not to be serial: a wrapped queue ran two blocks at once (where its
        /// width could not be read when it was wrapped: see ``SerialQueueScheduler/init(wrapping:qos:file:line:)``),
        /// or a detached object was first used on a concurrent pool thread.
        public static let concurrentQueue = Kind(rawValue: "concurrentQueue")
        /// A synchronous wait would never end (the waiter blocks the work it waits for).
        public static let deadlock = Kind(rawValue: "deadlock")
        /// An option names a member that is not protected (e.g. a key path to a plain property).
        public static let invalidOption = Kind(rawValue: "invalidOption")
        /// An object does not store its confinement record: its `confinement` gives a new record on
        /// every read (a computed property), so no record remembers what happened to the object.
        // The raw value keeps the kind's former name: it is part of the JSON Lines schema 2, which is
        // public (tools read `"kind"`), so renaming the constant must not change what is written.
        public static let unstoredConfinement = Kind(rawValue: "unstoredProtection")
        /// `handOff(to:)` or `detach()` was called on an object whose confinement was created with a fixed
        /// owner (`Confinement(owner:)`, `Confinement()`): its owner cannot change. Reported at the
        /// ``Tier/precondition`` tier; the owner is left as it was. Create the confinement with
        /// ``Confinement/transferable(owner:file:line:)-(SerialScheduler,_,_)`` for an object that changes hands.
        public static let fixedOwnerChanged = Kind(rawValue: "fixedOwnerChanged")
        /// A note, not a fault: `ScheduledFuture.present()` had to wait for its work (STMQ's "waiting is required"
        /// log).
        ///
        /// Delivered at the ``Tier/note`` tier, so no handler traps on it.
        public static let waitingRequired = Kind(rawValue: "waitingRequired")
        /// A note: a scheduler stopped with delayed work not yet due or a repeating timer still armed,
        /// and cancelled it (a ``ThreadScheduler`` at `shutdown()`).
        ///
        /// Delivered at the ``Tier/note`` tier, so no handler traps on it.
        public static let cancelledAtShutdown = Kind(rawValue: "cancelledAtShutdown")
        /// One of Swift's own dynamic isolation checks (SE-0423) failed: code isolated to the main actor
        /// or to an actor ran outside it (an isolated closure's entry, a `@preconcurrency` witness,
        /// `assumeIsolated`, `preconditionIsolated`). Without SchedulableTesting (or the opt-in of
        /// ``ConfinementSystem/reportSwiftIsolationChecks(_:)``) the Swift runtime stops the process there.
        public static let isolationCheck = Kind(rawValue: "isolationCheck")

        /// The identifier.
        public var description: String { rawValue }
    }

    /// Which check found the violation; decides what happens after the handler returns.
    public enum Tier: Sendable, Hashable {
        /// `assert…` checks and `@Confined`: debug builds only; execution continues when the
        /// handler returns. Diagnostics after which the caller can carry on safely use it in every
        /// build too: a `ScheduledFuture.present()` that would deadlock is reported at this tier, then throws.
        case assert
        /// `precondition…` checks and ``SchedulerBound``: always on; the process traps, because
        /// continuing would be a data race. For a queue owner, libdispatch is asked first and a "no"
        /// traps at once, with the report printed; otherwise the handler runs, then the trap.
        case precondition
        /// Information, not a violation: nothing is wrong, but something is worth knowing (a
        /// `ScheduledFuture.present()` that had to wait). Handlers never trap on it: the trap handler prints it
        /// and carries on, the log handler logs it once per call site, `.off` ignores it.
        case note
    }

    /// What went wrong.
    public var kind: Kind
    /// Which check found it.
    public var tier: Tier
    /// The protected object's type name, when an object is involved.
    public var objectType: String?
    /// The protected object's identity (its address), when an object is involved.
    package var objectIdentity: String?
    /// The member: `#function` spelling for methods; for a `@Confined` property its name (the `name:` it was
    /// given, else the name the class declares it under; its declaration site only where the field lookup
    /// is unavailable — see the Reporting Violations article).
    public var member: String
    /// The owner the object is bound to (its scheduler's description).
    public var expectedOwner: String
    /// Where the access actually ran: the library scheduler running now, "main thread", a queue label,
    /// or a thread id and name.
    public var actualContext: String
    /// Where the object was bound to its owner.
    package var ownerBoundAt: CodeLocation?
    /// Where the check was made, when the code passes it (method guards and scheduling calls, as `#fileID`);
    /// the `accessSite` field is where the access was made, found from the stack, for every report.
    public var callSite: CodeLocation?
    /// Extra explanation for kinds other than ``Kind/wrongContext``.
    public var detail: String?
    /// The object's ownership history — creation, changes of owner, the last legitimate access a slow
    /// path saw — for a ``Kind/wrongContext`` violation of a ``Confinement`` record, in builds with the
    /// debug tier; `nil` otherwise.
    package var history: History?
    /// What the owner was running when a ``Kind/wrongContext`` violation was detected (a snapshot).
    package var ownerActivity: OwnerActivity?
    /// Who made a ``Kind/wrongContext`` access: its work item, task and thread.
    package var intruder: Intruder?
    /// The access site and stack: captured by the library where it makes a violation, symbolicated when
    /// read (see ``accessSite``).
    var access: ViolationAccess = .none
    /// Tells the object apart from any other, even one at the same address later (``ObjectSerials``);
    /// `nil` for a violation made with the public initializer.
    var objectSerial: UInt64?
    /// The owner a wrong-context violation was judged against, for observation (``Observation/Store``).
    var ownerContext: ExecutionContext?

    /// Creates a violation (the library makes them: a handler receives them, and a test collects them
    /// with SchedulableTesting).
    package init(
        kind: Kind,
        tier: Tier,
        objectType: String? = nil,
        objectIdentity: String? = nil,
        member: String,
        expectedOwner: String,
        actualContext: String,
        ownerBoundAt: CodeLocation? = nil,
        callSite: CodeLocation? = nil,
        detail: String? = nil
    ) {
        self.kind = kind
        self.tier = tier
        self.objectType = objectType
        self.objectIdentity = objectIdentity
        self.member = member
        self.expectedOwner = expectedOwner
        self.actualContext = actualContext
        self.ownerBoundAt = ownerBoundAt
        self.callSite = callSite
        self.detail = detail
    }

    /// `Type.member`, or the member alone when no object is involved.
    public var qualifiedMember: String {
        if let objectType { return "\(objectType).\(member)" }
        return member
    }

    /// The whole report: its headline, then ``fields`` one a line (the stack and the history a few).
    public var description: String {
        var lines: [String] = []
        switch kind {
        case .wrongContext:
            lines.append("Schedulable: \(qualifiedMember) used outside its owner")
        case .rejectedWork:
            lines.append("Schedulable: work rejected by \(expectedOwner)")
        case .concurrentQueue:
            lines.append("Schedulable: \(expectedOwner) is not serial")
        case .deadlock:
            lines.append("Schedulable: waiting here would deadlock")
        case .invalidOption:
            lines.append("Schedulable: an option of \(objectType ?? "a protected type") names no protected member")
        case .unstoredConfinement:
            lines.append("Schedulable: \(objectType ?? "a protected type") does not store its confinement record")
        case .fixedOwnerChanged:
            lines.append("Schedulable: \(qualifiedMember) called on an object whose owner is fixed")
        case .waitingRequired:
            lines.append("Schedulable: note: \(qualifiedMember) had to wait")
        case .cancelledAtShutdown:
            lines.append("Schedulable: note: work cancelled by the shutdown of \(expectedOwner)")
        case .isolationCheck:
            lines.append("Schedulable: Swift isolation check failed: \(member) outside \(expectedOwner)")
        default:
            lines.append("Schedulable: \(kind.rawValue) at \(qualifiedMember)")
        }
        lines += fields.flatMap(\.textLines)
        // Labels, names and details come from user code: escaped, every line keeps its one line.
        return lines.map(Self.escapedReportLine).joined(separator: "\n")
    }

    /// The longest a report line may be before it is cut (a label of megabytes must not flood a log).
    static let reportLineLimit = 1_000

    /// `line` with control characters and line separators escaped (`\n`, `\r`, `\t`, `\u{1B}`) and cut
    /// to ``reportLineLimit`` characters, so that a report always has its fixed shape.
    static func escapedReportLine(_ line: String) -> String {
        // Most lines have nothing to escape: printable ASCII and UTF-8 text with no C0, DEL, C1 or line
        // separator, within the limit. One pass over the bytes says so without building a new string.
        if line.utf8.count <= reportLineLimit, !line.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 }) {
            return line
        }
        var escaped = ""
        var count = 0
        var scalars = line.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            let piece: String
            switch scalar {
            case "\n": piece = "\\n"
            case "\r": piece = "\\r"
            case "\t": piece = "\\t"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                || scalar.value == 0x2028 || scalar.value == 0x2029:
                piece = "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: piece = String(scalar)
            }
            if count + piece.count > reportLineLimit {
                var rest = 1
                while scalars.next() != nil { rest += 1 }
                return escaped + "… (\(rest) more characters)"
            }
            escaped += piece
            count += piece.count
        }
        return escaped
    }
}

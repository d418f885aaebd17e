import CSchedulableContext

/// The mutable part of a protection record — who owns the object, since where, and who may still use
/// it while it is being built — guarded by the record's lock.
///
/// The state machine: *detached* (no owner; the next checked use binds one) → *bound* (an owner, and
/// the bind site). While bound, two temporary states make every check take the slow path: the
/// *construction window* (the thread that created the record may use the object until the owner first
/// does) and *unresolved options* (property options not yet matched to wrappers). ``fastID`` is what
/// the fast path compares with: the owner's id once both are over, else a sentinel no token equals.
struct ProtectionBinding: Sendable {
    var owner: ExecutionContext?
    /// The owner's scheduler, held strongly so that an object can always be scheduled onto its owner
    /// (`object.schedule { }`); `nil` only for a context with no known scheduler.
    var scheduler: (any SerialScheduler)?
    var boundAt: CodeLocation?
    /// The unique id of the thread that may use the object until the owner first does, or until that
    /// thread hands work to a library scheduler, whichever comes first.
    var constructingThread: UInt?
    /// The constructing thread's hand-off count when the window opened (`csched_publications`).
    var publicationsAtConstruction: UInt = 0
    /// Which wrappers the options' property entries reach; `nil` until probed.
    var resolvedProperties: ErasedConfinementOptions.ResolvedProperties?

    /// No owner yet: the next checked use binds one.
    static let detachedID = UInt.max
    /// Bound, but the constructing thread may still use the object (see "Construct here, use there").
    static let constructingID = UInt.max - 1
    /// Bound, but property options still have to be matched to wrappers at the next legitimate use.
    static let unresolvedID = UInt.max - 2

    /// What the fast path compares with the thread-local token.
    var fastID: UInt {
        guard let owner else { return Self.detachedID }
        if constructingThread != nil { return Self.constructingID }
        if resolvedProperties == nil { return Self.unresolvedID }
        return owner.id
    }

    /// Whether the calling thread is the one still building the object: the thread that created it,
    /// which has handed no work to a library scheduler since. A hand-off ends the window for good — from
    /// then on the object can be in use elsewhere, whatever the timing.
    mutating func isOnConstructingThread() -> Bool {
        guard let constructingThread, constructingThread == UInt(csched_thread_unique_id()) else { return false }
        if UInt(csched_publications()) != publicationsAtConstruction {
            self.constructingThread = nil
            return false
        }
        return true
    }

    /// Opens the construction window for the calling thread.
    mutating func openConstructionWindow() {
        constructingThread = UInt(csched_thread_unique_id())
        publicationsAtConstruction = UInt(csched_publications())
    }

    /// Whether `owner` is the calling code's context; the owner's first use (a check or a query) also
    /// ends the construction window for good.
    mutating func ownerIsCurrent(_ owner: ExecutionContext) -> Bool {
        guard owner.isIsolated else { return false }
        constructingThread = nil
        return true
    }

    /// Whether a checked use here and now is legitimate: on the owner (which ends the construction
    /// window) or on the constructing thread.
    mutating func allowsUseHere(by owner: ExecutionContext) -> Bool {
        ownerIsCurrent(owner) || isOnConstructingThread()
    }

    /// Binds the object to `newOwner` (or detaches it, with `nil`), ending any construction window.
    mutating func bind(to newOwner: ExecutionContext?, scheduler: (any SerialScheduler)?, at site: CodeLocation?) {
        owner = newOwner
        self.scheduler = scheduler
        boundAt = newOwner == nil ? nil : site
        constructingThread = nil
    }
}

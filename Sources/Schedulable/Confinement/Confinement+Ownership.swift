/// What a confinement says about its binding, and the transfers of it: forwarded to the record, where
/// the verdict decides (`Checking/Checking+Entry.swift`).
extension Confinement {
    /// The owner's context, or `nil` while detached.
    public var owner: ExecutionContext? { _record.owner }

    /// The scheduler the object belongs to, or `nil` while detached, when bound by first use to a context
    /// no library scheduler runs (such as a plain thread), or when that scheduler no longer exists.
    ///
    /// The confinement does not keep its owner's scheduler alive (an object that its own queue retains
    /// would otherwise never be freed); it finds the scheduler through the weak registry of library
    /// schedulers.
    public var ownerScheduler: (any SerialScheduler)? { _record.ownerScheduler }

    /// Where the object was bound to its current owner, if it is bound and the site is kept: `nil` for
    /// a fixed-owner confinement that shares its owner's record (release builds without the debug tier;
    /// see "Fixed or transferable" above).
    public var boundAt: CodeLocation? { _record.boundAt }

    /// Whether the owner is fixed for the object's life (``init(owner:file:line:)-(SerialScheduler,_,_)``,
    /// ``init(file:line:)``
    /// and their `options:` forms): `false` for ``transferable(owner:file:line:)-(SerialScheduler,_,_)`` and
    /// ``detached(file:line:)``.
    public var isFixed: Bool { _record.isFixed }

    /// Whether a checked access made here and now would pass (detached objects: yes, it would bind them
    /// here — except on a concurrent pool thread, where nothing serial could own them).
    ///
    /// Never a false "yes".
    @inlinable
    public var isIsolated: Bool { _record.isIsolated }

    /// Ends the construction window now: from here on only the owner passes a check, the thread that
    /// built the object included.
    ///
    /// The window also ends by itself when the owner first uses the object, or when the building thread
    /// hands any work to a library scheduler (from then on the object can be in use elsewhere). Call
    /// this where an object is published some other way — stored where another thread can reach it.
    public func endConstruction() { _record.endConstruction() }
}

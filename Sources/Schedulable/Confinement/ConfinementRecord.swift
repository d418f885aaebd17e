import CSchedulableContext

/// The ownership record behind a ``Confinement``: the state word the fast path reads, the owner, the
/// bind site, and what only some records need (options, a test's handler).
///
/// Two kinds of instance, chosen when the confinement is created (see ``Confinement``), by the one
/// factory (`ConfinementRecord+Factory.swift`):
/// - an *own* record, one per object: every transferable or detached confinement, every fixed one in a
///   build with the debug tier, with options or a test's handler, or built where a construction window
///   opens; its construction window, history and options are the object's own;
/// - the *shared* settled record of a library scheduler (``SharedFixedRecord``), which every fixed-owner
///   object built on that owner refers to in a release build without the debug tier: it is settled from
///   birth and never changes, so sharing it is indistinguishable from owning it.
///
/// A record created for a fixed owner says so (``isFixed``): `handOff(to:)` and `detach()` on it are
/// reported (``ConfinementViolation/Kind/fixedOwnerChanged``), whether or not the record is shared.
@usableFromInline
package final class ConfinementRecord {
    /// The record's state word (see ``ConfinementState``): the owner's context id once settled, which is
    /// all the fast path reads (see ``_passesFastPath``). It must stay the first stored property:
    /// ``AtomicWord`` finds it there.
    @usableFromInline
    var _fastOwnerID: AtomicWord

    // Guarded by the record's stripe (`StripedLocks`): written only when the binding changes.
    var _owner: ExecutionContext?
    /// Where the record was bound to its owner; while it is detached, where it was created (so that
    /// its first binding can keep that site in the history). Guarded by the stripe once shared. One
    /// word: with the debug tier's word below, a debug-tier record stays at 56 bytes, a 64-byte
    /// allocator chunk instead of 80.
    var _boundAt: PackedCodeLocation
    /// What only some records need (options, a test's handler; see ``extras``), so a default record
    /// stays at 48 bytes, and whether the owner is fixed (``isFixed``), in one word: the extras' address
    /// (retained by the record), or 0, with bit 0 set for a fixed owner. One word because a `Bool` of
    /// its own would move a debug-tier record to the next allocator chunk (the object-cost thresholds
    /// hold the size), and a plain bit so that testing the flag is one instruction.
    private let _extrasAndFixed: UInt

    /// The word of ``_extrasAndFixed`` for `extras` and `isFixed` (retains `extras`).
    private static func extrasWord(_ extras: ConfinementExtras?, isFixed: Bool) -> UInt {
        let address = extras.map { UInt(bitPattern: Unmanaged.passRetained($0).toOpaque()) } ?? 0
        return address | (isFixed ? 1 : 0)
    }

    /// What only some records need (options, a test's handler); `nil` for a default record.
    @inline(__always)
    var extras: ConfinementExtras? {
        let address = _extrasAndFixed & ~1
        guard address != 0 else { return nil }
        return Unmanaged<ConfinementExtras>.fromOpaque(UnsafeRawPointer(bitPattern: address)!).takeUnretainedValue()
    }

    /// Whether the record was created for a fixed owner: `handOff(to:)` and `detach()` are reported.
    package var isFixed: Bool { _extrasAndFixed & 1 != 0 }

    #if SCHEDULABLE_CHECKS
    /// Debug tier only (see `ConfinementRecord+History.swift`): the thread that created the record until its
    /// first ownership event, then its history, which keeps that thread — one word, so the record
    /// stays in a 64-byte chunk (a word each made it 80). Until the history exists: the creating thread's
    /// ``ThreadStamp`` tagged with bit 0 (``ThreadStamp/tagged``); then the history's address, retained
    /// by the record (bit 0 clear: an object's address is aligned). Written once, under the stripe.
    private var _createdOnOrHistory: UInt

    /// The thread that created the record: one word, no string, no system call.
    var _createdOn: ThreadStamp {
        if let history = _history { return history.createdOn }
        return ThreadStamp(tagged: _createdOnOrHistory)
    }

    /// The record's ownership history, allocated by its first ownership event; guarded by the stripe.
    /// Set once (`nil` to a log), never reset.
    var _history: OwnershipLog? {
        get {
            guard _createdOnOrHistory & 1 == 0 else { return nil }
            return Unmanaged<OwnershipLog>.fromOpaque(UnsafeRawPointer(bitPattern: _createdOnOrHistory)!)
                .takeUnretainedValue()
        }
        set {
            precondition(_history == nil, "a record's history is set once")
            guard let newValue else { return }
            _createdOnOrHistory = UInt(bitPattern: Unmanaged.passRetained(newValue).toOpaque())
        }
    }
    #endif

    /// The one initializer: stores what ``make(owner:boundAt:isFixed:options:observedAt:shared:)``
    /// decided (the shared record of `SharedFixedRecord` is made here too). Cheap on purpose — no lock,
    /// no string, no "where am I" beyond one TLS load: records are made once per protected object.
    @inline(__always)
    init(
        owner: ExecutionContext?, state: ConfinementState, boundAt: PackedCodeLocation, extras: ConfinementExtras?,
        isFixed: Bool
    ) {
        self._fastOwnerID = AtomicWord(state.word)
        self._owner = owner
        self._boundAt = boundAt
        self._extrasAndFixed = Self.extrasWord(extras, isFixed: isFixed)
        #if SCHEDULABLE_CHECKS
        self._createdOnOrHistory = ThreadStamp.current.tagged
        #endif
        assert(
            AtomicWord.loadRelaxed(firstIn: self) == state.word,
            "ConfinementRecord._fastOwnerID must be the class's first stored property (see AtomicWord)"
        )
    }

    /// The options, if the record has any besides the default.
    package var options: ErasedConfinementOptions? { extras?.options }

    /// The handler that was in scope when the object was created (test helpers route through it).
    package var capturedHandler: (any ConfinementViolationHandler)? { extras?.capturedHandler }

    /// The state word as the fast path sees it.
    var state: ConfinementState {
        ConfinementState(loadedWord: AtomicWord.loadAcquiring(firstIn: self))
    }

    deinit {
        if _extrasAndFixed > 1 {
            Unmanaged<ConfinementExtras>.fromOpaque(UnsafeRawPointer(bitPattern: _extrasAndFixed & ~1)!).release()
        }
        #if SCHEDULABLE_CHECKS
        if _createdOnOrHistory & 1 == 0 {
            Unmanaged<OwnershipLog>.fromOpaque(UnsafeRawPointer(bitPattern: _createdOnOrHistory)!).release()
        }
        #endif
        // A record freed inside a task's construction window leaves it (one load and a test otherwise).
        if let epoch = ConfinementState(loadedWord: AtomicWord.loadRelaxed(firstIn: self)).taskWindowEpoch {
            TaskConstructionWindows.recordLeft(epoch)
        }
    }

    /// Whether property options still have to be matched to wrappers (read under the stripe).
    package var needsResolution: Bool { extras?.resolvedProperties == nil && extras?.needsResolution == true }

    /// The owner's context, or `nil` while detached.
    package var owner: ExecutionContext? {
        withBinding { _owner }
    }

    /// The scheduler the object belongs to, or `nil` while detached, when bound by first use to a context
    /// no library scheduler runs (such as a plain thread), or when that scheduler no longer exists.
    ///
    /// The record does not keep its owner's scheduler alive (an object that its own queue retains would
    /// otherwise never be freed); it finds the scheduler through the weak registry of library schedulers.
    package var ownerScheduler: (any SerialScheduler)? {
        owner.flatMap(SchedulerRegistry.scheduler(for:))
    }

    /// Where the object was bound to its current owner, if it is bound.
    package var boundAt: CodeLocation? {
        withBinding { _owner == nil ? nil : _boundAt.locationIfAny }
    }

    /// Whether a checked access made here and now would pass (detached objects: yes, it would bind them
    /// here — except on a concurrent pool thread, where nothing serial could own them).
    ///
    /// Never a false "yes".
    @inlinable
    var isIsolated: Bool {
        if _passesFastPath { return true }
        return _isIsolatedSlow()
    }

    /// The verdict on a question (`Checking.verdict`): binds nothing,
    /// reports nothing.
    @usableFromInline
    func _isIsolatedSlow() -> Bool {
        Checking.answers(self)
    }
}

// `_fastOwnerID` is only read and written through AtomicWord's atomic functions; the other mutable
// fields only under the record's stripe.
extension ConfinementRecord: @unchecked Sendable {}

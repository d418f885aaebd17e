import CSchedulableContext

/// The ownership record of one protected object: its owner (or "detached"), its options, and where it was
/// bound.
///
/// A ``ConfinedObject`` type stores one in `confinement`.
///
/// ```swift
/// final class UploadQueue: ConfinedObject {
///     let confinement = Confinement(owner: uploads)
///     @Confined var pending: [Photo] = []
/// }
/// ```
///
/// ## Construct here, use there
/// An object is often built on one thread for an owner elsewhere. The thread that created the
/// record may use the object freely while it builds it (its initializer sets properties and calls
/// methods without reports), until — whichever comes first — that thread hands work to a library
/// scheduler, the owner first uses the object, or ``endConstruction()`` is called. From then on only
/// the owner passes, whatever the timing. The window belongs to the work that created the object: a
/// piece of library work while it runs, the main thread or a plain thread, or a task (on whatever
/// thread it resumes); raw dispatch work outside any task gets none. (The Threading Model article
/// has the details.) Accesses made while the object's `deinit` runs are never reported: the Swift
/// runtime says the object is deallocating, and then nothing else can hold a reference to it.
///
/// ## Binding
/// - ``init(file:line:)``: bound now, to the main thread (the default owner, as in POSSchedulableObject).
/// - ``init(owner:file:line:)``: bound now, to `owner`; the bind site is recorded for reports.
/// - ``detached(file:line:)``: bound on the first checked use, to the context that use runs in.
/// - ``handOff(to:file:line:)`` and ``detach(file:line:)``: explicit transfers, made from the owner.
public final class Confinement {
    /// The record's state word (see ``ConfinementState``): the owner's context id once settled, which is
    /// all the fast path reads (see ``_passesFastPath``). It must stay the first stored property:
    /// ``AtomicWord`` finds it there.
    @usableFromInline
    var _fastOwnerID: AtomicWord

    // Guarded by the record's stripe (`StripedLocks`): written only when the binding changes.
    var _owner: ExecutionContext?
    /// Where the record was bound to its owner; while it is detached, where it was created (so that
    /// its first binding can keep that site in the history).
    var _boundAt: CompactCodeLocation
    /// What only some records need (options, a test's handler), so a default record stays at 56 bytes.
    let extras: ConfinementExtras?

    #if SCHEDULABLE_CHECKS
    // Debug tier only (see `Confinement+History.swift`): 16 bytes, which move the record from a
    // 64-byte to an 80-byte allocator chunk; release builds carry neither.
    /// The thread that created the record: one word, no string, no system call.
    let _createdOn: ThreadStamp
    /// The record's ownership history, allocated by its first ownership event; guarded by the stripe.
    var _history: OwnershipLog? = nil  // a default, not an assignment in init: that would release the old nil
    #endif

    /// Binds the object to `owner` now.
    ///
    /// - Parameters:
    ///   - owner: The scheduler the object belongs to.
    ///   - file: The bind site, for reports.
    ///   - line: The bind site, for reports.
    @inlinable
    public convenience init(owner: some SerialScheduler, file: StaticString = #fileID, line: UInt = #line) {
        self.init(
            owner: owner.executionContext, boundAt: CompactCodeLocation(file: file, line: line),
            allowsConstructionWindow: true
        )
    }

    /// Binds the object to the main thread now: the short form of
    /// `Confinement(owner: MainThreadScheduler.shared)`, for the most common owner (a view model, a
    /// controller), as POSSchedulableObject's plain `init` scheduled its object on the main thread.
    ///
    /// ```swift
    /// final class ProfileViewModel: ConfinedObject {
    ///     let confinement = Confinement()               // owned by the main thread
    ///     @Confined var name = ""
    /// }
    /// ```
    ///
    /// It is the same record as with the explicit owner — the same checks, the same construction window,
    /// reports that name "main thread" as the expected owner.
    ///
    /// - Parameters:
    ///   - file: The bind site, for reports.
    ///   - line: The bind site, for reports.
    @inlinable
    public convenience init(file: StaticString = #fileID, line: UInt = #line) {
        self.init(owner: .main, boundAt: CompactCodeLocation(file: file, line: line), allowsConstructionWindow: true)
    }

    /// Binds the object to the main thread now (see ``init(file:line:)``), checking only the members
    /// `options` selects.
    ///
    /// - Parameters:
    ///   - options: Which guarded members are checked.
    ///   - file: The bind site, for reports.
    ///   - line: The bind site, for reports.
    public convenience init<Object>(
        options: ConfinementOptions<Object>, file: StaticString = #fileID, line: UInt = #line
    ) {
        self.init(
            owner: .main, options: options.erased, boundAt: CompactCodeLocation(file: file, line: line),
            allowsConstructionWindow: true
        )
    }

    /// Binds the object to `owner` now, checking only the members `options` selects.
    ///
    /// - Parameters:
    ///   - owner: The scheduler the object belongs to.
    ///   - options: Which guarded members are checked.
    ///   - file: The bind site, for reports.
    ///   - line: The bind site, for reports.
    public convenience init<Object>(
        owner: some SerialScheduler, options: ConfinementOptions<Object>,
        file: StaticString = #fileID, line: UInt = #line
    ) {
        self.init(
            owner: owner.executionContext, options: options.erased,
            boundAt: CompactCodeLocation(file: file, line: line), allowsConstructionWindow: true
        )
    }

    /// A protection with no owner yet: the first checked use binds it to the context that use runs
    /// in (the library scheduler running the code, else the main thread, else the current thread).
    ///
    /// - Parameters:
    ///   - file: Where the protection was created (the bind site is the first use).
    ///   - line: Where the protection was created.
    /// - Returns: The protection.
    public static func detached(file: StaticString = #fileID, line: UInt = #line) -> Confinement {
        // A detached record keeps its creation site where the bind site goes (``boundAt`` says `nil`
        // until it is bound), so the history can name it.
        Confinement(owner: nil, boundAt: CompactCodeLocation(file: file, line: line), allowsConstructionWindow: false)
    }

    /// A detached protection (see ``detached(file:line:)``) that checks only the members `options` selects.
    ///
    /// - Parameters:
    ///   - options: Which guarded members are checked.
    ///   - file: Where the protection was created.
    ///   - line: Where the protection was created.
    /// - Returns: The protection.
    public static func detached<Object>(
        options: ConfinementOptions<Object>, file: StaticString = #fileID, line: UInt = #line
    ) -> Confinement {
        Confinement(
            owner: nil, options: options.erased, boundAt: CompactCodeLocation(file: file, line: line),
            allowsConstructionWindow: false
        )
    }

    /// The initializer of a record with default options. Cheap on purpose — no lock, no string, no
    /// "where am I" beyond one TLS load: records are made once per protected object.
    @usableFromInline
    package init(owner: ExecutionContext?, boundAt: CompactCodeLocation, allowsConstructionWindow: Bool) {
        #if SCHEDULABLE_CHECKS
        // First, while nothing is live: read later, the call made the optimizer retain and release
        // the owner around it (about 70 instructions per record, measured with callgrind).
        let createdOn = ThreadStamp.current
        #endif
        let extras = ConfinementSystem.mayHaveScopedHandler
            ? ConfinementExtras(options: nil, handler: ConfinementSystem.scopedHandlerIfAny) : nil
        let state = Self.initialState(owner: owner, extras: extras, allowsConstructionWindow: allowsConstructionWindow)
        self._fastOwnerID = AtomicWord(state.word)
        self._owner = owner
        self._boundAt = boundAt
        self.extras = extras
        #if SCHEDULABLE_CHECKS
        self._createdOn = createdOn
        #endif
        assert(
            AtomicWord.loadRelaxed(firstIn: self) == state.word,
            "Confinement._fastOwnerID must be the class's first stored property (see AtomicWord)"
        )
    }

    /// The initializer of a record with options.
    package init(
        owner: ExecutionContext?, options: ErasedConfinementOptions, boundAt: CompactCodeLocation,
        allowsConstructionWindow: Bool
    ) {
        #if SCHEDULABLE_CHECKS
        let createdOn = ThreadStamp.current
        #endif
        let extras = ConfinementExtras(options: options, handler: ConfinementSystem.scopedHandlerIfAny)
        let state = Self.initialState(owner: owner, extras: extras, allowsConstructionWindow: allowsConstructionWindow)
        self._fastOwnerID = AtomicWord(state.word)
        self._owner = owner
        self._boundAt = boundAt
        self.extras = extras
        #if SCHEDULABLE_CHECKS
        self._createdOn = createdOn
        #endif
    }

    /// A new record's state: detached, bound, or — off the owner, where allowed — in the creating
    /// thread's construction window. (On the owner the first use would end the window at once.)
    private static func initialState(
        owner: ExecutionContext?, extras: ConfinementExtras?, allowsConstructionWindow: Bool
    ) -> ConfinementState {
        guard let owner else { return .detached }
        if allowsConstructionWindow && !_CurrentToken.isCurrent(owner.id), let window = ConfinementState.openWindowHere() {
            return window
        }
        return .bound(to: owner, needsResolution: extras?.needsResolution ?? false)
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
        // A record freed inside a task's construction window leaves it (one load and a test otherwise).
        if let epoch = ConfinementState(loadedWord: AtomicWord.loadRelaxed(firstIn: self)).taskWindowEpoch {
            TaskConstructionWindows.recordLeft(epoch)
        }
    }

    /// Whether property options still have to be matched to wrappers (read under the stripe).
    package var needsResolution: Bool { extras?.resolvedProperties == nil && extras?.needsResolution == true }

    /// The owner's context, or `nil` while detached.
    public var owner: ExecutionContext? {
        withBinding { _owner }
    }

    /// The scheduler the object belongs to, or `nil` while detached, when bound by first use to a context
    /// no library scheduler runs (such as a plain thread), or when that scheduler no longer exists.
    ///
    /// The record does not keep its owner's scheduler alive (an object that its own queue retains would
    /// otherwise never be freed); it finds the scheduler through the weak registry of library schedulers.
    public var ownerScheduler: (any SerialScheduler)? {
        owner.flatMap(SchedulerRegistry.scheduler(for:))
    }

    /// Where the object was bound to its current owner, if it is bound.
    public var boundAt: CodeLocation? {
        withBinding { _owner == nil ? nil : _boundAt.locationIfAny }
    }

    /// Whether a checked access made here and now would pass (detached objects: yes, it would bind them
    /// here — except on a concurrent pool thread, where nothing serial could own them).
    ///
    /// Never a false "yes".
    @inlinable
    public var isIsolated: Bool {
        if _passesFastPath { return true }
        return _isIsolatedSlow()
    }

    /// The verdict on a question (`Checking.verdict`): binds nothing,
    /// reports nothing.
    @usableFromInline
    func _isIsolatedSlow() -> Bool {
        if case .no = Checking.verdict(.question, member: nil, object: nil, record: self, here: CurrentHere(), report: Checking.noReport) {
            return false
        }
        return true
    }
}

// `_fastOwnerID` is only read and written through AtomicWord's atomic functions; the other mutable
// fields only under the record's stripe.
extension Confinement: @unchecked Sendable {}

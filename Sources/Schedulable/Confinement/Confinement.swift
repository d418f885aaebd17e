/// The ownership of one protected object: its owner (or "detached"), its options, and where it was
/// bound — one reference to a record that the checks read.
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
/// ## Fixed or transferable
/// Most objects are built for one owner and die with it. ``init(owner:file:line:)-(SerialScheduler,_,_)`` and
/// ``init(file:line:)`` (and their `options:` forms) declare that: the owner is *fixed*, and
/// ``ConfinedObject/handOff(to:file:line:)-(SerialScheduler,_,_)`` or ``ConfinedObject/detach(file:line:)`` on such an
/// object is a violation (``ConfinementViolation/Kind/fixedOwnerChanged``, always on), never a silent
/// no-op. An object that changes hands says so when it is created:
/// ``transferable(owner:file:line:)-(SerialScheduler,_,_)``,
/// or ``detached(file:line:)`` for one that is bound by its first use.
///
/// What it costs: a `Confinement` is one stored reference (8 bytes). In a release build without the
/// debug tier (no `ReleaseChecks` trait), a fixed-owner confinement with default options, created on
/// its owner (or where no construction window opens, such as raw dispatch work outside a task) and
/// owned by a library scheduler (``SerialQueueScheduler``, ``ThreadScheduler``, the main thread),
/// allocates nothing: it refers to the one settled record that scheduler keeps for all of them, which
/// never changes. Everything else has a record of its own, one allocation: transferable and detached
/// confinements, fixed ones with options, created where a handler would be captured (inside a
/// `withConfinementViolationHandler` scope, or in a test's work with `SchedulableTesting`), owned by a custom
/// scheduler, or created off the owner where a construction window opens (the window is per object,
/// and the always-on checks see it in release too) — and every confinement in a build with the debug
/// tier, where construction windows, ownership history and options are exactly as for a transferable
/// one. Checks, reports (except the bind site, which a shared record does not keep) and the hop API
/// behave the same either way.
///
/// ## Construct here, use there
/// An object is often built on one thread for an owner elsewhere. The thread that created the
/// confinement may use the object freely while it builds it (its initializer sets properties and calls
/// methods without reports), until — whichever comes first — that thread hands work to a library
/// scheduler, the owner first uses the object, or ``endConstruction()`` is called. From then on only
/// the owner passes, whatever the timing. The window belongs to the work that created the object: a
/// piece of library work while it runs, the main thread or a plain thread, or a task (on whatever
/// thread it resumes); raw dispatch work outside any task gets none. (The Threading Model article
/// has the details.) Accesses made while the object's `deinit` runs are never reported: the Swift
/// runtime says the object is deallocating, and then nothing else can hold a reference to it.
///
/// ## Binding
/// - ``init(file:line:)``: bound now, to the main thread (the default owner, as in POSSchedulableObject); fixed.
/// - ``init(owner:file:line:)-(SerialScheduler,_,_)``: bound now, to `owner`; fixed.
/// - ``transferable(owner:file:line:)-(SerialScheduler,_,_)``: bound now, to `owner`; may be handed off or detached.
/// - ``detached(file:line:)``: bound on the first checked use, to the context that use runs in; transferable.
/// - ``observed(file:line:)``: no owner declared yet; reports nothing and records who uses the object.
/// - ``ConfinedObject/handOff(to:file:line:)-(SerialScheduler,_,_)`` and ``ConfinedObject/detach(file:line:)``:
///   explicit transfers of a transferable object, made from its owner.
public struct Confinement: Sendable {
    /// The record the checks read: the object's own, or its owner's shared settled record (see above).
    /// The only stored property, so a confinement is one reference wide.
    @usableFromInline
    let _record: ConfinementRecord

    /// A confinement referring to `record`.
    @inlinable
    init(_record record: ConfinementRecord) {
        self._record = record
    }

    /// Binds the object to `owner` for its whole life (a fixed owner).
    ///
    /// In a release build without the debug tier, made on the owner with default options, this
    /// allocates nothing (see "Fixed or transferable" above). Use
    /// ``transferable(owner:file:line:)-(SerialScheduler,_,_)``
    /// for an object that will be handed off or detached.
    ///
    /// - Parameters:
    ///   - owner: The scheduler the object belongs to.
    ///   - file: The bind site, for reports.
    ///   - line: The bind site, for reports.
    @inlinable
    public init(owner: some SerialScheduler, file: StaticString = #fileID, line: UInt = #line) {
        let context = owner.executionContext
        let boundAt = PackedCodeLocation(file: file, line: line)
        // Made in the owner's work, the common case: the token is tested here, inlined (see
        // `ConfinementRecord.fixedInOwnersWork`); both calls make the same decision.
        self.init(
            _record: _CurrentToken.isCurrent(context.id)
                ? .fixedInOwnersWork(owner: context, scheduler: owner, boundAt: boundAt)
                : .fixed(owner: context, scheduler: owner, boundAt: boundAt)
        )
    }

    /// Binds the object to the main thread for its whole life: the short form of
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
    /// It is the same confinement as with the explicit owner — the same checks, the same construction
    /// window, reports that name "main thread" as the expected owner.
    ///
    /// - Parameters:
    ///   - file: The bind site, for reports.
    ///   - line: The bind site, for reports.
    @inlinable
    public init(file: StaticString = #fileID, line: UInt = #line) {
        self.init(
            _record: .fixedOnMain(boundAt: PackedCodeLocation(file: file, line: line))
        )
    }

    /// Binds the object to the main thread for its whole life (see ``init(file:line:)``), checking only
    /// the members `options` selects. A record of its own unless `options` is ``ConfinementOptions/default``.
    ///
    /// - Parameters:
    ///   - options: Which guarded members are checked.
    ///   - file: The bind site, for reports.
    ///   - line: The bind site, for reports.
    public init<Object>(options: ConfinementOptions<Object>, file: StaticString = #fileID, line: UInt = #line) {
        if options.erased.isDefault {
            self.init(file: file, line: line)
            return
        }
        self.init(
            _record: ConfinementRecord.withOptions(
                owner: .main, options: options.erased, boundAt: PackedCodeLocation(file: file, line: line),
                isFixed: true
            )
        )
    }

    /// Binds the object to `owner` for its whole life, checking only the members `options` selects. A
    /// record of its own unless `options` is ``ConfinementOptions/default``.
    ///
    /// - Parameters:
    ///   - owner: The scheduler the object belongs to.
    ///   - options: Which guarded members are checked.
    ///   - file: The bind site, for reports.
    ///   - line: The bind site, for reports.
    public init<Object>(
        owner: some SerialScheduler, options: ConfinementOptions<Object>,
        file: StaticString = #fileID, line: UInt = #line
    ) {
        if options.erased.isDefault {
            self.init(owner: owner, file: file, line: line)
            return
        }
        self.init(
            _record: ConfinementRecord.withOptions(
                owner: owner.executionContext, options: options.erased,
                boundAt: PackedCodeLocation(file: file, line: line), isFixed: true
            )
        )
    }

    /// Binds the object to `owner` now, for an object that changes hands: it may later be handed off
    /// (``ConfinedObject/handOff(to:file:line:)-(SerialScheduler,_,_)``) or detached. Always a record of its own (one
    /// allocation), which keeps the object's owner and, with the debug tier, its ownership history.
    ///
    /// - Parameters:
    ///   - owner: The scheduler the object belongs to first.
    ///   - file: The bind site, for reports.
    ///   - line: The bind site, for reports.
    /// - Returns: The confinement.
    @inlinable
    public static func transferable(
        owner: some SerialScheduler, file: StaticString = #fileID, line: UInt = #line
    ) -> Confinement {
        Confinement(
            _record: ConfinementRecord.transferable(
                owner: owner.executionContext, boundAt: PackedCodeLocation(file: file, line: line)
            )
        )
    }

    /// A transferable confinement (see ``transferable(owner:file:line:)-(SerialScheduler,_,_)``) that checks only
    /// the members `options` selects.
    ///
    /// - Parameters:
    ///   - owner: The scheduler the object belongs to first.
    ///   - options: Which guarded members are checked.
    ///   - file: The bind site, for reports.
    ///   - line: The bind site, for reports.
    /// - Returns: The confinement.
    public static func transferable<Object>(
        owner: some SerialScheduler, options: ConfinementOptions<Object>,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Confinement {
        Confinement(
            _record: ConfinementRecord.withOptions(
                owner: owner.executionContext, options: options.erased,
                boundAt: PackedCodeLocation(file: file, line: line), isFixed: false
            )
        )
    }

    /// A confinement with no owner yet: the first checked use binds it to the context that use runs
    /// in (the library scheduler running the code, else the main thread, else the current thread).
    /// Transferable, like ``transferable(owner:file:line:)-(SerialScheduler,_,_)``.
    ///
    /// - Parameters:
    ///   - file: Where the confinement was created (the bind site is the first use).
    ///   - line: Where the confinement was created.
    /// - Returns: The confinement.
    public static func detached(file: StaticString = #fileID, line: UInt = #line) -> Confinement {
        // A detached record keeps its creation site where the bind site goes (``boundAt`` says `nil`
        // until it is bound), so the history can name it.
        Confinement(
            _record: ConfinementRecord.transferable(
                owner: nil, boundAt: PackedCodeLocation(file: file, line: line)
            )
        )
    }

    /// A confinement whose owner is not declared yet: it reports nothing, and records which contexts use
    /// each instance and in what order, so that a run can propose the owner ("owner unknown, observe
    /// me").
    ///
    /// Like ``detached(file:line:)``, the first checked use binds the object where it runs; a use from
    /// another context then moves it there and is recorded as a step, so that the fast path stays the
    /// same and only a change of user costs anything. What is recorded, and where it is written, is
    /// ``ConfinementObservations``'s; the audit tool turns the file into the owner to declare
    /// (`swift package schedule-audit propose`, then `apply`), replacing this call.
    ///
    /// ```swift
    /// final class UploadQueue: ConfinedObject {
    ///     let confinement = Confinement.observed()
    ///     @Confined var pending: [Photo] = []
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - file: Where the confinement was created: the line the proposal rewrites.
    ///   - line: Where the confinement was created.
    /// - Returns: The confinement.
    public static func observed(file: StaticString = #fileID, line: UInt = #line) -> Confinement {
        Confinement(
            _record: ConfinementRecord.withOptions(
                owner: nil, options: ErasedConfinementOptions(), boundAt: PackedCodeLocation(file: file, line: line),
                isFixed: false, observedAt: CodeLocation(file: file, line: line)
            )
        )
    }

    /// A detached confinement (see ``detached(file:line:)``) that checks only the members `options` selects.
    ///
    /// - Parameters:
    ///   - options: Which guarded members are checked.
    ///   - file: Where the confinement was created.
    ///   - line: Where the confinement was created.
    /// - Returns: The confinement.
    public static func detached<Object>(
        options: ConfinementOptions<Object>, file: StaticString = #fileID, line: UInt = #line
    ) -> Confinement {
        Confinement(
            _record: ConfinementRecord.withOptions(
                owner: nil, options: options.erased, boundAt: PackedCodeLocation(file: file, line: line),
                isFixed: false
            )
        )
    }
}

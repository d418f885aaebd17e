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
/// the owner passes, whatever the timing. Accesses made while the object's `deinit` runs are never reported: the Swift
/// runtime says the object is deallocating, and then nothing else can hold a reference to it.
///
/// ## Binding
/// - ``init(owner:file:line:)``: bound now, to `owner`; the bind site is recorded for reports.
/// - ``detached(file:line:)``: bound on the first checked use, to the context that use runs in.
/// - ``handOff(to:file:line:)`` and ``detach(file:line:)``: explicit transfers, made from the owner.
public final class Confinement {
    /// The owner's context id, read by the fast path (see ``_passesFastPath``); a sentinel while the
    /// binding is not settled, so that every check takes the slow path. It must stay the first stored
    /// property: ``AtomicWord`` finds it there.
    @usableFromInline
    var _fastOwnerID: AtomicWord

    private let binding: ScheduleLock<ProtectionBinding>
    package let options: ErasedConfinementOptions
    /// The handler that was in scope when the object was created (test helpers route through it).
    package let capturedHandler: (any ConfinementViolationHandler)?

    /// Binds the object to `owner` now.
    ///
    /// - Parameters:
    ///   - owner: The scheduler the object belongs to.
    ///   - file: The bind site, for reports.
    ///   - line: The bind site, for reports.
    public convenience init(owner: some SerialScheduler, file: StaticString = #fileID, line: UInt = #line) {
        self.init(
            owner: owner.executionContext, options: ErasedConfinementOptions(),
            boundAt: CodeLocation(file: file, line: line), allowsConstructionWindow: true, scheduler: owner
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
            boundAt: CodeLocation(file: file, line: line), allowsConstructionWindow: true, scheduler: owner
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
        Confinement(owner: nil, options: ErasedConfinementOptions(), boundAt: nil, allowsConstructionWindow: false)
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
        Confinement(owner: nil, options: options.erased, boundAt: nil, allowsConstructionWindow: false)
    }

    package init(
        owner: ExecutionContext?, options: ErasedConfinementOptions, boundAt: CodeLocation?,
        allowsConstructionWindow: Bool, scheduler: (any SerialScheduler)? = nil
    ) {
        var binding = ProtectionBinding(
            owner: owner, scheduler: scheduler ?? owner.flatMap(SchedulerRegistry.scheduler(for:)), boundAt: boundAt
        )
        if let owner, allowsConstructionWindow, !owner.isIsolated {
            binding.openConstructionWindow()
        }
        if !(options.hasPropertyEntries && ConfinementSystem.debugChecksCompiledIn) {
            // Nothing to match: property entries only matter where wrappers check.
            binding.resolvedProperties = ErasedConfinementOptions.ResolvedProperties()
        }
        self._fastOwnerID = AtomicWord(binding.fastID)
        self.binding = ScheduleLock(binding)
        self.options = options
        self.capturedHandler = ConfinementSystem.scopedHandler
        assert(
            AtomicWord.loadRelaxed(firstIn: self) == binding.fastID,
            "Confinement._fastOwnerID must be the class's first stored property (see AtomicWord)"
        )
    }

    /// Runs `body` on the binding under the lock, then publishes its new ``ProtectionBinding/fastID``
    /// to the fast path if it changed: every transition of the state machine goes through here.
    func updateBinding<Result>(_ body: (inout ProtectionBinding) -> Result) -> Result {
        binding.withLock { binding in
            let before = binding.fastID
            let result = body(&binding)
            let after = binding.fastID
            if after != before { AtomicWord.storeReleasing(after, firstIn: self) }
            return result
        }
    }

    /// The owner's context, or `nil` while detached.
    public var owner: ExecutionContext? {
        binding.withLock { $0.owner }
    }

    /// The scheduler the object belongs to, or `nil` while detached (or when bound by first use to a context
    /// no library scheduler runs, such as a plain thread).
    ///
    /// The scheduling API of protected objects (`schedule`, `perform`, `run`) submits through it.
    public var ownerScheduler: (any SerialScheduler)? {
        binding.withLock { $0.scheduler }
    }

    /// Where the object was bound to its current owner, if it is bound.
    public var boundAt: CodeLocation? {
        binding.withLock { $0.boundAt }
    }

    /// Whether a checked access made here and now would pass (detached objects: yes, it would bind them
    /// here).
    ///
    /// Never a false "yes".
    @inlinable
    public var isIsolated: Bool {
        if _passesFastPath { return true }
        return _isIsolatedSlow()
    }

    @usableFromInline
    func _isIsolatedSlow() -> Bool {
        updateBinding { binding in
            guard let owner = binding.owner else { return true }
            return binding.allowsUseHere(by: owner)
        }
    }

    /// Transfers the object to `newOwner`.
    ///
    /// Call it from the current owner (or, for a detached object, from anywhere); a hand-off from elsewhere
    /// is itself a race and is reported at the precondition tier.
    ///
    /// - Parameters:
    ///   - newOwner: The scheduler that owns the object from now on.
    ///   - file: The new bind site.
    ///   - line: The new bind site.
    public func handOff(to newOwner: some SerialScheduler, file: StaticString = #fileID, line: UInt = #line) {
        rebind(to: newOwner.executionContext, scheduler: newOwner, member: "handOff(to:)", file: file, line: line)
    }

    /// Returns the object to the detached state: the next checked use binds it again.
    ///
    /// Call it from the current owner.
    ///
    /// - Parameters:
    ///   - file: The call site, for reports.
    ///   - line: The call site, for reports.
    public func detach(file: StaticString = #fileID, line: UInt = #line) {
        rebind(to: nil, scheduler: nil, member: "detach()", file: file, line: line)
    }

    /// Ends the construction window now: from here on only the owner passes a check, the thread that
    /// built the object included.
    ///
    /// The window also ends by itself when the owner first uses the object, or when the building thread
    /// hands any work to a library scheduler (from then on the object can be in use elsewhere). Call
    /// this where an object is published some other way — stored where another thread can reach it.
    public func endConstruction() {
        updateBinding { $0.constructingThread = nil }
    }

    /// Binds the object to `scheduler` for good, ending any construction window: for an object that was
    /// just *sent* into an always-checked wrapper (``SchedulableObject``), so no other reference to it
    /// can be in use anywhere.
    package func bindSentObject(to scheduler: some SerialScheduler, at site: CodeLocation) {
        updateBinding { $0.bind(to: scheduler.executionContext, scheduler: scheduler, at: site) }
    }

    private func rebind(
        to newOwner: ExecutionContext?, scheduler: (any SerialScheduler)?, member: StaticString, file: StaticString, line: UInt
    ) {
        let here = CodeLocation(file: file, line: line)
        let refused = updateBinding { binding -> ProtectionBinding? in
            if let owner = binding.owner, !binding.allowsUseHere(by: owner) { return binding }
            binding.bind(to: newOwner, scheduler: scheduler, at: here)
            return nil
        }
        if let refused, let owner = refused.owner {
            reportWrongContext(
                object: nil, member: .method(member, callSite: here), tier: .precondition,
                owner: owner, boundAt: refused.boundAt
            )
        }
    }
}

// `_fastOwnerID` is the one mutable stored property: it is only read and written through
// AtomicWord's atomic functions; the binding is behind its lock and the rest is immutable.
extension Confinement: @unchecked Sendable {}

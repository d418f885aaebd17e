import CSchedulableContext
import Synchronization

/// The ownership record of one protected object: its owner (or "detached"), its options, and where it
/// was bound. A ``ScheduleProtectable`` type stores one in `scheduleProtection`.
///
/// ```swift
/// final class UploadQueue: ScheduleProtectable {
///     let scheduleProtection = ScheduleProtection(owner: uploads)
///     @ScheduleProtected var pending: [Photo] = []
/// }
/// ```
///
/// ## Construct here, use there
/// An object is often built on one thread for an owner elsewhere. Until the object is first used in
/// its owner's context, the thread that created the protection may use it freely (its initializer
/// sets properties and calls methods without reports); the first use from the owner closes that
/// window for good. Accesses made while the object's `deinit` runs are never reported: the Swift
/// runtime says the object is deallocating, and then nothing else can hold a reference to it.
///
/// ## Binding
/// - ``init(owner:file:line:)``: bound now, to `owner`; the bind site is recorded for reports.
/// - ``detached(file:line:)``: bound on the first checked use, to the context that use runs in.
/// - ``handOff(to:file:line:)`` and ``detach(file:line:)``: explicit transfers, made from the owner.
public final class ScheduleProtection: Sendable {
    /// The owner's context id, read by the fast path; one of the sentinels below while the owner is
    /// not yet settled, so that every check takes the slow path.
    @usableFromInline
    let _fastOwnerID: Atomic<UInt>

    /// No owner yet: the next checked use binds one.
    static let detachedID = UInt.max
    /// Bound, but the constructing thread may still use the object (see "Construct here, use there").
    static let constructingID = UInt.max - 1
    /// Bound, but property options still have to be matched to wrappers at the next legitimate use.
    static let unresolvedID = UInt.max - 2

    private struct Binding: Sendable {
        var owner: ScheduleContext?
        /// The owner's scheduler, held strongly so that an object can always be scheduled onto its
        /// owner (`object.schedule { }`); `nil` only for a context with no known scheduler.
        var scheduler: (any Scheduler)?
        var boundAt: SourceLocation?
        /// The unique id of the thread that may use the object until the owner first does.
        var constructingThread: UInt?
        /// Which wrappers the options' property entries reach; `nil` until probed.
        var resolvedProperties: ErasedScheduleOptions.ResolvedProperties?
    }

    private let binding: ScheduleLock<Binding>
    package let options: ErasedScheduleOptions
    /// The handler that was in scope when the object was created (test helpers route through it).
    package let capturedHandler: (any ScheduleViolationHandler)?

    /// Binds the object to `owner` now.
    ///
    /// - Parameters:
    ///   - owner: The scheduler the object belongs to.
    ///   - file: The bind site, for reports.
    ///   - line: The bind site, for reports.
    public convenience init(owner: some Scheduler, file: StaticString = #fileID, line: UInt = #line) {
        self.init(
            owner: owner.scheduleContext, options: ErasedScheduleOptions(),
            boundAt: SourceLocation(file: file, line: line), allowsConstructionWindow: true, scheduler: owner
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
        owner: some Scheduler, options: ScheduleProtectionOptions<Object>,
        file: StaticString = #fileID, line: UInt = #line
    ) {
        self.init(
            owner: owner.scheduleContext, options: options.erased,
            boundAt: SourceLocation(file: file, line: line), allowsConstructionWindow: true, scheduler: owner
        )
    }

    /// A protection with no owner yet: the first checked use binds it to the context that use runs
    /// in (the library scheduler running the code, else the main thread, else the current thread).
    ///
    /// - Parameters:
    ///   - file: Where the protection was created (the bind site is the first use).
    ///   - line: Where the protection was created.
    /// - Returns: The protection.
    public static func detached(file: StaticString = #fileID, line: UInt = #line) -> ScheduleProtection {
        ScheduleProtection(owner: nil, options: ErasedScheduleOptions(), boundAt: nil, allowsConstructionWindow: false)
    }

    /// A detached protection (see ``detached(file:line:)``) that checks only the members `options` selects.
    ///
    /// - Parameters:
    ///   - options: Which guarded members are checked.
    ///   - file: Where the protection was created.
    ///   - line: Where the protection was created.
    /// - Returns: The protection.
    public static func detached<Object>(
        options: ScheduleProtectionOptions<Object>, file: StaticString = #fileID, line: UInt = #line
    ) -> ScheduleProtection {
        ScheduleProtection(owner: nil, options: options.erased, boundAt: nil, allowsConstructionWindow: false)
    }

    package init(
        owner: ScheduleContext?, options: ErasedScheduleOptions, boundAt: SourceLocation?,
        allowsConstructionWindow: Bool, scheduler: (any Scheduler)? = nil
    ) {
        var binding = Binding(owner: owner, scheduler: scheduler ?? owner?.scheduler, boundAt: boundAt)
        if let owner, allowsConstructionWindow, !owner.isCurrent {
            binding.constructingThread = UInt(csched_thread_unique_id())
        }
        if !(options.hasPropertyEntries && ScheduleProtectionSystem.debugChecksCompiledIn) {
            // Nothing to match: property entries only matter where wrappers check.
            binding.resolvedProperties = ErasedScheduleOptions.ResolvedProperties()
        }
        self._fastOwnerID = Atomic(Self.fastID(for: binding))
        self.binding = ScheduleLock(binding)
        self.options = options
        self.capturedHandler = ScheduleProtectionSystem.scopedHandler
    }

    /// What the fast path compares with: the owner's id once everything is settled, else a sentinel
    /// that no thread-local token ever equals, so every check takes the slow path.
    private static func fastID(for binding: Binding) -> UInt {
        guard let owner = binding.owner else { return detachedID }
        if binding.constructingThread != nil { return constructingID }
        if binding.resolvedProperties == nil { return unresolvedID }
        return owner.id
    }

    /// The owner's context, or `nil` while detached.
    public var owner: ScheduleContext? {
        binding.withLock { $0.owner }
    }

    /// The scheduler the object belongs to, or `nil` while detached (or when bound by first use to a
    /// context no library scheduler runs, such as a plain thread). The scheduling API of protected
    /// objects (`schedule`, `perform`, `run`) submits through it.
    public var ownerScheduler: (any Scheduler)? {
        binding.withLock { $0.scheduler }
    }

    /// Where the object was bound to its current owner, if it is bound.
    public var boundAt: SourceLocation? {
        binding.withLock { $0.boundAt }
    }

    /// Whether a checked access made here and now would pass (detached objects: yes, it would bind
    /// them here). Never a false "yes".
    @inlinable
    public var isCurrentContextOwner: Bool {
        if _fastOwnerID.load(ordering: .relaxed) == UInt(csched_current_id()) { return true }
        return _isCurrentContextOwnerSlow()
    }

    @usableFromInline
    func _isCurrentContextOwnerSlow() -> Bool {
        binding.withLock { binding in
            guard let owner = binding.owner else { return true }
            if isOwnerCurrent(owner, closingConstructionOf: &binding) { return true }
            return isConstructingThread(binding)
        }
    }

    /// Whether the owner's context is current; the owner's first use (a check or a query) also ends
    /// the construction window for good.
    private func isOwnerCurrent(_ owner: ScheduleContext, closingConstructionOf binding: inout Binding) -> Bool {
        guard owner.isCurrent else { return false }
        if binding.constructingThread != nil {
            binding.constructingThread = nil
            _fastOwnerID.store(Self.fastID(for: binding), ordering: .releasing)
        }
        return true
    }

    private func isConstructingThread(_ binding: Binding) -> Bool {
        binding.constructingThread == UInt(csched_thread_unique_id())
    }

    /// Transfers the object to `newOwner`. Call it from the current owner (or, for a detached object,
    /// from anywhere); a hand-off from elsewhere is itself a race and is reported at the precondition
    /// tier.
    ///
    /// - Parameters:
    ///   - newOwner: The scheduler that owns the object from now on.
    ///   - file: The new bind site.
    ///   - line: The new bind site.
    public func handOff(to newOwner: some Scheduler, file: StaticString = #fileID, line: UInt = #line) {
        rebind(to: newOwner.scheduleContext, scheduler: newOwner, member: "handOff(to:)", file: file, line: line)
    }

    /// Returns the object to the detached state: the next checked use binds it again. Call it from
    /// the current owner.
    ///
    /// - Parameters:
    ///   - file: The call site, for reports.
    ///   - line: The call site, for reports.
    public func detach(file: StaticString = #fileID, line: UInt = #line) {
        rebind(to: nil, scheduler: nil, member: "detach()", file: file, line: line)
    }

    private func rebind(
        to newOwner: ScheduleContext?, scheduler: (any Scheduler)?, member: StaticString, file: StaticString, line: UInt
    ) {
        let here = SourceLocation(file: file, line: line)
        let refused = binding.withLock { binding -> Binding? in
            if let owner = binding.owner, !owner.isCurrent, !isConstructingThread(binding) {
                return binding
            }
            binding.owner = newOwner
            binding.scheduler = scheduler
            binding.boundAt = newOwner == nil ? nil : here
            binding.constructingThread = nil
            _fastOwnerID.store(Self.fastID(for: binding), ordering: .releasing)
            return nil
        }
        if let refused {
            report(
                object: nil, member: .method(member, callSite: here), tier: .precondition,
                owner: refused.owner!, boundAt: refused.boundAt
            )
        }
    }

    /// The slow path of every check: runs only when the thread-local token did not match the owner.
    ///
    /// - Parameters:
    ///   - object: The protected object, when there is one (for reports and the deinit exemption).
    ///   - member: Which member was used.
    ///   - tier: Which check tier.
    @usableFromInline
    func _checkFailedFastPath(object: AnyObject?, member: ScheduleMemberReference, tier: ScheduleViolation.Tier) {
        if case .property(_, let declaredAt) = member, PropertyProbe.recordIfProbing(declaredAt) { return }
        enum Decision {
            case pass(probeProperties: Bool)
            case report(owner: ScheduleContext, boundAt: SourceLocation?, resolved: ErasedScheduleOptions.ResolvedProperties?)
        }
        let decision = binding.withLock { binding -> Decision in
            guard let owner = binding.owner else {
                // Detached: the first checked use binds the object to where it runs.
                guard options.checks(member, resolved: binding.resolvedProperties) else { return .pass(probeProperties: false) }
                let here = ScheduleContext.current
                binding.owner = here
                binding.scheduler = here.scheduler
                binding.boundAt = member.callSite ?? memberDeclaration(member)
                _fastOwnerID.store(Self.fastID(for: binding), ordering: .releasing)
                return .pass(probeProperties: binding.resolvedProperties == nil)
            }
            if isOwnerCurrent(owner, closingConstructionOf: &binding) || isConstructingThread(binding) {
                return .pass(probeProperties: binding.resolvedProperties == nil)
            }
            return .report(owner: owner, boundAt: binding.boundAt, resolved: binding.resolvedProperties)
        }
        switch decision {
        case .pass(let probeProperties):
            if probeProperties, let object { resolveProperties(on: object) }
        case .report(let owner, let boundAt, let resolved):
            if let object, csched_object_is_deallocating(Unmanaged.passUnretained(object).toOpaque()) {
                // deinit: the last reference is gone, nothing else can race with this access.
                return
            }
            guard options.checks(member, resolved: resolved) else { return }
            report(object: object, member: member, tier: tier, owner: owner, boundAt: boundAt)
        }
    }

    /// Matches the options' property key paths to wrappers by reading each property once. Runs only
    /// where the object may be used (its owner, the thread building it, or the use that binds it), so
    /// the reads cannot race; outside the lock, because each read re-enters the slow path.
    private func resolveProperties(on object: AnyObject) {
        var resolved = ErasedScheduleOptions.ResolvedProperties()
        var unmatched: [SourceLocation] = []
        for (probes, isExcluded) in [(options.included.properties, false), (options.excluded.properties, true)] {
            for probe in probes {
                guard let site = probe.declarationSite(on: object) else {
                    unmatched.append(probe.writtenAt)
                    continue
                }
                if isExcluded { resolved.excluded.insert(site) } else { resolved.included.insert(site) }
            }
        }
        binding.withLock { binding in
            binding.resolvedProperties = resolved
            _fastOwnerID.store(Self.fastID(for: binding), ordering: .releasing)
        }
        for option in unmatched {
            ScheduleReporting.report(
                ScheduleViolation(
                    kind: .invalidOption,
                    tier: .assert,
                    objectType: String(describing: type(of: object)),
                    member: "ScheduleProtectionOptions",
                    expectedOwner: owner?.description ?? "detached",
                    actualContext: ScheduleContext.describeCurrentExecution(),
                    ownerBoundAt: boundAt,
                    callSite: option,
                    detail: "the .property key path written at \(option) reaches no @ScheduleProtected property of "
                        + "\(type(of: object)); wrap that property in @ScheduleProtected or remove the option"
                ),
                objectHandler: capturedHandler
            )
        }
    }

    private func memberDeclaration(_ member: ScheduleMemberReference) -> SourceLocation? {
        if case .property(_, let declaredAt) = member { return declaredAt }
        return nil
    }

    private func report(
        object: AnyObject?, member: ScheduleMemberReference, tier: ScheduleViolation.Tier,
        owner: ScheduleContext, boundAt: SourceLocation?
    ) {
        var violation = ScheduleViolation(
            kind: .wrongContext,
            tier: tier,
            member: member.displayName,
            expectedOwner: owner.description,
            actualContext: ScheduleContext.describeCurrentExecution(),
            ownerBoundAt: boundAt,
            callSite: member.callSite
        )
        if let object {
            violation.objectType = String(describing: type(of: object))
            violation.objectIdentity = "0x" + String(UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque()), radix: 16)
        }
        if case .property(let name, let declaredAt) = member, name != nil {
            violation.detail = "property declared at \(declaredAt)"
        }
        ScheduleReporting.report(violation, objectHandler: capturedHandler, owner: owner)
    }
}

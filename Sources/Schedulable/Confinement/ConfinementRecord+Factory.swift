/// How every record is made. ``make(owner:boundAt:isFixed:options:observedAt:shared:)`` decides, once
/// per object: the extras it keeps (options, a test's or a scope's handler, the observed site), whether
/// a construction window opens, and whether a fixed owner's object takes its scheduler's shared settled
/// record (``SharedFixedRecord``) instead of one of its own. The entry points below are its forms for
/// each kind of confinement; the fixed owner's two common-case shortcuts give the record it would give.
extension ConfinementRecord {
    /// The one factory.
    ///
    /// - Parameters:
    ///   - owner: The owner's context; `nil` for a detached or observed record (bound by its first use).
    ///   - boundAt: The bind site; for a detached record, where it was created (its first binding keeps
    ///     that site in the history). Kept by an own record only.
    ///   - isFixed: Whether the owner is fixed: `handOff(to:)` and `detach()` are reported.
    ///   - options: Options other than the default, if any.
    ///   - observedAt: Where ``Confinement/observed(file:line:)`` created the record.
    ///   - shared: The owner scheduler's shared settled record, where it may stand for this one; looked
    ///     up only where it can be used.
    @inline(__always)
    private static func make(
        owner: ExecutionContext?, boundAt: PackedCodeLocation, isFixed: Bool,
        options: ErasedConfinementOptions?, observedAt: CodeLocation?, shared: () -> ConfinementRecord?
    ) -> ConfinementRecord {
        // The handler in scope is captured (a test's or a scope's): the cheap "maybe" first, the
        // task-local read only in processes that installed one.
        let extras = options != nil || observedAt != nil || ConfinementSystem.mayHaveScopedHandler
            ? ConfinementExtras(options: options, handler: ConfinementSystem.scopedHandlerIfAny, observedAt: observedAt)
            : nil
        guard let owner else {
            return ConfinementRecord(owner: nil, state: .detached, boundAt: boundAt, extras: extras, isFixed: isFixed)
        }
        let state: ConfinementState
        if let window = ConfinementState.openWindow(for: owner) {
            state = window
        } else {
            #if !SCHEDULABLE_CHECKS
            // Settled from birth with nothing of its own (no extras, no window, and no history without
            // the debug tier): it would behave as the shared record does, so it is that record.
            if extras == nil, let record = shared() { return record }
            #endif
            state = .bound(to: owner, needsResolution: extras?.needsResolution ?? false)
        }
        return ConfinementRecord(owner: owner, state: state, boundAt: boundAt, extras: extras, isFixed: isFixed)
    }

    /// The record of a transferable confinement with default options; with no `owner`, of a detached one.
    @usableFromInline
    package static func transferable(owner: ExecutionContext?, boundAt: PackedCodeLocation) -> ConfinementRecord {
        make(owner: owner, boundAt: boundAt, isFixed: false, options: nil, observedAt: nil) { nil }
    }

    /// The record of a confinement with `options` (fixed, transferable or detached), or of an observed
    /// one (`observedAt`): always its own.
    package static func withOptions(
        owner: ExecutionContext?, options: ErasedConfinementOptions, boundAt: PackedCodeLocation, isFixed: Bool,
        observedAt: CodeLocation? = nil
    ) -> ConfinementRecord {
        make(owner: owner, boundAt: boundAt, isFixed: isFixed, options: options, observedAt: observedAt) { nil }
    }

    /// The record of a new fixed-owner confinement with default options: in a release build without
    /// the debug tier, with no test's or scope's handler to capture and no construction window opening
    /// here (made on the owner, or where no window exists), the shared settled record of `scheduler`;
    /// otherwise one of its own.
    ///
    /// - Parameters:
    ///   - owner: The owner's context.
    ///   - scheduler: The owner's scheduler, whose shared record it may be (library schedulers keep one).
    ///   - boundAt: The bind site (kept by an own record only).
    @usableFromInline
    @inline(never)  // kept out of `fixedInOwnersWork`, whose common case stays a few tests and jumps
    package static func fixed(
        owner: ExecutionContext, scheduler: AnyObject, boundAt: PackedCodeLocation
    ) -> ConfinementRecord {
        make(owner: owner, boundAt: boundAt, isFixed: true, options: nil, observedAt: nil) {
            SharedFixedRecord.record(of: scheduler, for: owner)
        }
    }

    /// The record of a fixed-owner confinement whose owner has no scheduler to keep a shared record (a
    /// raw serial queue, `Confinement(owner: queue)`): always its own.
    package static func fixed(owner: ExecutionContext, boundAt: PackedCodeLocation) -> ConfinementRecord {
        make(owner: owner, boundAt: boundAt, isFixed: true, options: nil, observedAt: nil) { nil }
    }

    /// ``fixed(owner:scheduler:boundAt:)`` called in the owner's work (the caller tested the token):
    /// the common case first — no scoped handler can exist in this process and the scheduler's shared
    /// record is made — in a function that only tests and jumps; anything else takes the full decision,
    /// which gives the same record in that case.
    ///
    /// The caller tests the token inline because reading it here (a thread-local, which the compiler
    /// reaches through a call that the linker removes) makes this function save and restore registers
    /// on its common path (the `createConfinedOnOwner` threshold holds it).
    @usableFromInline
    package static func fixedInOwnersWork(
        owner: ExecutionContext, scheduler: AnyObject, boundAt: PackedCodeLocation
    ) -> ConfinementRecord {
        #if !SCHEDULABLE_CHECKS
        if !ConfinementSystem.mayHaveScopedHandler, let record = SharedFixedRecord.madeRecord(of: scheduler) {
            return record.takeUnretainedValue()
        }
        #endif
        return fixed(owner: owner, scheduler: scheduler, boundAt: boundAt)
    }

    /// ``fixed(owner:scheduler:boundAt:)`` for the main thread (`Confinement()`).
    @usableFromInline
    package static func fixedOnMain(boundAt: PackedCodeLocation) -> ConfinementRecord {
        #if !SCHEDULABLE_CHECKS
        if !ConfinementSystem.mayHaveScopedHandler && _CurrentToken.isCurrent(ExecutionContext.main.id) {
            return SharedFixedRecord.record(in: SharedFixedRecord.main, for: .main)
        }
        #endif
        return ownOrSharedOnMain(boundAt: boundAt)
    }

    /// ``fixedOnMain(boundAt:)`` beyond its common case.
    @inline(never)
    private static func ownOrSharedOnMain(boundAt: PackedCodeLocation) -> ConfinementRecord {
        make(owner: .main, boundAt: boundAt, isFixed: true, options: nil, observedAt: nil) {
            SharedFixedRecord.record(in: SharedFixedRecord.main, for: .main)
        }
    }
}

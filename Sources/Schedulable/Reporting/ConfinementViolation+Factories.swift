/// The violations the library raises, each built in one place.
extension ConfinementViolation {
    /// A member of a protected object (or a box, or a wrapper) used outside its owner.
    ///
    /// - Parameters:
    ///   - member: Which member was used.
    ///   - tier: Which check tier found it.
    ///   - owner: The owner the check failed for.
    ///   - boundAt: Where the object was bound to `owner`.
    ///   - object: The protected object, when there is one.
    ///   - typeName: The type to name when there is no object (a box: `SchedulerBound<Token>`).
    package static func wrongContext(
        member: ConfinedMemberReference, tier: Tier, owner: ExecutionContext, boundAt: CodeLocation?,
        object: AnyObject?, typeName: String? = nil
    ) -> ConfinementViolation {
        var violation = ConfinementViolation(
            kind: .wrongContext,
            tier: tier,
            member: member.displayName,
            expectedOwner: owner.description,
            actualContext: CurrentExecution.description,
            ownerBoundAt: boundAt,
            callSite: member.callSite
        )
        violation.describe(object)
        violation.ownerContext = owner
        violation.ownerActivity = .snapshot(of: owner)
        violation.intruder = .current
        if object == nil { violation.objectType = typeName }
        if case .property(let name, let declaredAt) = member, name != nil {
            violation.detail = "property declared at \(declaredAt.location)"
        }
        violation.captureAccessSite()
        return violation
    }

    /// A detached object's first checked use ran on a concurrent pool thread (global-queue work, Swift's
    /// cooperative pool): nothing serial owns that thread, so the object stays detached.
    package static func firstUseNotSerial(
        member: ConfinedMemberReference, tier: Tier, object: AnyObject?, typeName: String?
    ) -> ConfinementViolation {
        var violation = ConfinementViolation(
            kind: .concurrentQueue,
            tier: tier,
            member: member.displayName,
            expectedOwner: "a serial context (the object is detached)",
            actualContext: CurrentExecution.description,
            callSite: member.callSite,
            detail: "a detached object's first use ran on a concurrent pool thread, which no serial scheduler "
                + "owns (the next block or task there is unrelated code), so it was not bound; bind it with "
                + "Confinement(owner:), or first use it on a serial scheduler"
        )
        violation.describe(object)
        if object == nil { violation.objectType = typeName }
        violation.captureAccessSite()
        return violation
    }

    /// Work that a scheduler did not accept (it was shut down), or that had no scheduler to go to.
    ///
    /// - Parameters:
    ///   - member: The scheduling call, e.g. `schedule(_:)`.
    ///   - owner: The description of the scheduler (or owner) the work was for.
    ///   - callSite: Where the work was submitted.
    ///   - detail: Why it was rejected and what to do.
    ///   - object: The protected object the work was for, if any.
    ///   - ownerBoundAt: Where that object was bound.
    ///   - tier: ``ConfinementViolation/Tier/assert`` (the default) for work that is fire-and-forget: the
    ///     handler decides — a trap level stops, a warning level reports and the work is dropped, so a
    ///     release build tearing down never crashes unless asked to. ``ConfinementViolation/Tier/precondition``
    ///     for a call that cannot go on without the work's result (`sync`, `run`).
    package static func rejectedWork(
        member: String, owner: String, callSite: CodeLocation?, detail: String,
        object: AnyObject? = nil, ownerBoundAt: CodeLocation? = nil, tier: Tier = .assert
    ) -> ConfinementViolation {
        var violation = ConfinementViolation(
            kind: .rejectedWork,
            tier: tier,
            member: member,
            expectedOwner: owner,
            actualContext: CurrentExecution.description,
            ownerBoundAt: ownerBoundAt,
            callSite: callSite,
            detail: detail
        )
        violation.describe(object)
        violation.captureAccessSite()
        return violation
    }

    /// A synchronous call that could never return: the calling code holds the target's tree (runs in
    /// it, or is the work a blocked caller there waits for). Precondition tier: there is no result.
    ///
    /// - Parameters:
    ///   - context: The target of the call.
    ///   - member: The call, e.g. `sync(_:)`.
    package static func deadlockWaiting(on context: ExecutionContext, member: String) -> ConfinementViolation {
        var violation = ConfinementViolation(
            kind: .deadlock,
            tier: .precondition,
            member: member,
            expectedOwner: context.description,
            actualContext: CurrentExecution.description,
            detail: "\(context.description) cannot run this work until the calling code returns: the caller runs "
                + "in its tree (itself, its tree, a sibling branch) or runs on behalf of it while it is blocked "
                + "waiting; a synchronous call would wait forever. Call it asynchronously (schedule), or from "
                + "outside that tree"
        )
        violation.captureAccessSite()
        return violation
    }

    /// Code isolated to an actor whose executor is `context` that ran outside it.
    ///
    /// - Parameters:
    ///   - context: The executor's context.
    ///   - member: The isolation check, e.g. `checkIsolated()`.
    package static func isolationFailure(_ context: ExecutionContext, member: String) -> ConfinementViolation {
        var violation = ConfinementViolation(
            kind: .wrongContext,
            tier: .precondition,
            member: member,
            expectedOwner: context.description,
            actualContext: CurrentExecution.description,
            detail: "code isolated to an actor whose executor is \(context.description) ran outside it "
                + "(assumeIsolated / preconditionIsolated)"
        )
        violation.captureAccessSite()
        return violation
    }

    /// Fills in the object's type and identity (its address), when there is an object.
    private mutating func describe(_ object: AnyObject?) {
        guard let object else { return }
        objectType = String(describing: type(of: object))
        objectIdentity = "0x" + String(UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque()), radix: 16)
        objectSerial = ObjectSerials.serial(of: object)
    }

    /// A `.property` option whose key path reaches no `@Confined` property of the object.
    ///
    /// - Parameters:
    ///   - writtenAt: Where the option was written.
    ///   - object: The protected object the options belong to.
    ///   - owner: The object's owner, if bound.
    ///   - boundAt: Where the object was bound.
    package static func invalidOption(
        writtenAt: CodeLocation, on object: AnyObject, owner: ExecutionContext?, boundAt: CodeLocation?
    ) -> ConfinementViolation {
        ConfinementViolation(
            kind: .invalidOption,
            tier: .assert,
            objectType: String(describing: type(of: object)),
            member: "ConfinementOptions",
            expectedOwner: owner?.description ?? "detached",
            actualContext: CurrentExecution.description,
            ownerBoundAt: boundAt,
            callSite: writtenAt,
            detail: "the .property key path written at \(writtenAt) reaches no @Confined property of "
                + "\(type(of: object)); wrap that property in @Confined or remove the option"
        )
    }

    /// An object whose `confinement` is not stored (see ``ConfinementViolation/Kind/unstoredConfinement``).
    package static func unstoredConfinement(
        on object: AnyObject, member: ConfinedMemberReference, owner: ExecutionContext?
    ) -> ConfinementViolation {
        var violation = ConfinementViolation(
            kind: .unstoredConfinement,
            tier: .assert,
            objectType: String(describing: type(of: object)),
            member: member.displayName,
            expectedOwner: owner?.description ?? "detached",
            actualContext: CurrentExecution.description,
            ownerBoundAt: nil,
            callSite: member.callSite,
            detail: "\(type(of: object)).confinement returned a different record on a second read; store it "
                + "(`let confinement = Confinement(owner: …)`): a computed record makes every check of the "
                + "type meaningless. Checks of \(type(of: object)) treat each such record as built elsewhere."
        )
        violation.captureAccessSite()
        return violation
    }

    /// `handOff(to:)` or `detach()` on a record created for a fixed owner (see
    /// ``ConfinementViolation/Kind/fixedOwnerChanged``).
    ///
    /// - Parameters:
    ///   - member: The call, with its call site.
    ///   - object: The object, when the call came through it.
    ///   - owner: The owner, which stays.
    ///   - boundAt: Where the confinement was created with its fixed owner; `nil` for the shared record
    ///     of a release build, which keeps no per-object site.
    ///   - newOwner: The owner a hand-off asked for; `nil` for a detach.
    package static func fixedOwnerChanged(
        member: ConfinedMemberReference, object: AnyObject?, owner: ExecutionContext?, boundAt: CodeLocation?,
        newOwner: ExecutionContext?
    ) -> ConfinementViolation {
        let what = newOwner.map { "hand it off to \($0)" } ?? "detach it"
        let declared = boundAt.map { "created with a fixed owner at \($0)" }
            ?? "created with a fixed owner (`Confinement(owner:)` or `Confinement()`; a release build shares "
            + "one record among such objects and keeps no per-object site)"
        var violation = ConfinementViolation(
            kind: .fixedOwnerChanged,
            tier: .precondition,
            member: member.displayName,
            expectedOwner: owner?.description ?? "detached",
            actualContext: CurrentExecution.description,
            ownerBoundAt: boundAt,
            callSite: member.callSite,
            detail: "asked to \(what), but its confinement was \(declared); the owner is unchanged. "
                + "For an object that changes hands, create it with `Confinement.transferable(owner:)`"
        )
        violation.describe(object)
        violation.captureAccessSite()
        return violation
    }
}

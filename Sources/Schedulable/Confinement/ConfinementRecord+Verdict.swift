/// A record as the verdict reads and changes it (``VerdictRecord``): its state word without a lock, its
/// binding under the stripe, and the transitions the rules make there.
extension ConfinementRecord: VerdictRecord {
    package var word: RecordWord {
        if let id = state.settledID { return .settled(id) }
        return .unsettled
    }

    /// Whether `object` stores this record: a computed `confinement` gives a new record on every read.
    @inline(never)
    package func isStored(in object: AnyObject) -> Bool {
        guard let confined = object as? any ConfinedObject else { return true }
        return confined.confinement._record === self
    }

    /// Closes the construction window of a record `object` does not store, so the access is judged
    /// against the owner like any other, and reports the type once.
    @inline(never)
    package func closeUnstored(on object: AnyObject, member: ConfinedMemberReference) {
        endConstruction()
        if UnstoredConfinementTypes.isFirstReport(of: type(of: object)) {
            ConfinementReporting.report(
                .unstoredConfinement(on: object, member: member.named(on: object), owner: owner), objectHandler: capturedHandler
            )
        }
    }

    /// Read without the lock: options are immutable, and matched properties were recorded before the
    /// word settled.
    package func excludesWhenSettled(_ member: ConfinedMemberReference) -> Bool {
        guard let extras else { return false }
        return !extras.options.checks(member, resolved: extras.resolvedProperties)
    }

    package func withStripe<Result>(_ body: () -> Result) -> Result { withBinding(body) }

    package var lockedOwner: ExecutionContext? { _owner }

    package var lockedBoundAt: PackedCodeLocation { _boundAt }

    package var constructionWindowHere: ConstructionWindowHere { state.constructionWindowHere }

    package func bindByFirstUse(to context: ExecutionContext, member: ConfinedMemberReference) {
        #if SCHEDULABLE_CHECKS
        bind(to: context, at: member.bindSite ?? .none, event: .boundByFirstUse, access: member)
        #else
        bind(to: context, at: member.bindSite ?? .none, event: .boundByFirstUse)
        #endif
    }

    package func endWindowOnOwnersUse(_ owner: ExecutionContext) {
        if state.constructionEpoch != nil { publish(.bound(to: owner, needsResolution: needsResolution)) }
    }

    package func endWindowOnExecutorHop() {
        guard let epoch = state.taskWindowEpoch, let owner = _owner else { return }
        TaskConstructionWindows.close(epoch)
        publish(.bound(to: owner, needsResolution: needsResolution))
    }

    package func recordLegitimateUse(_ member: ConfinedMemberReference) {
        recordLegitimateAccess(member)
    }

    package func transfer(to newOwner: ExecutionContext?, member: ConfinedMemberReference) {
        let event: OwnershipEventKind = newOwner == nil ? .detach : .handOff
        // A transfer's member is `handOff(to:)` or `detach()`, a method: rebuilt from its trivial parts
        // rather than copied, which would go through the enum's value witness on every transfer (the
        // `handOffRoundTrip` threshold holds it). One stamp for the event and the access; without the
        // debug tier there is no history, and nothing to pass.
        #if SCHEDULABLE_CHECKS
        if case .method(let name, let callSite) = member {
            bind(to: newOwner, at: member.bindSite ?? .none, event: event, access: .method(name, callSite: callSite))
        } else {
            bind(to: newOwner, at: member.bindSite ?? .none, event: event, access: member)
        }
        #else
        bind(to: newOwner, at: member.bindSite ?? .none, event: event)
        #endif
    }

    package var observedAt: CodeLocation? { extras?.observedAt }

    package func exchangeLastUse(_ use: Observation.Use) -> Observation.Use? {
        guard let extras else { return nil }
        defer { extras.lastObservedUse = use }
        return extras.lastObservedUse
    }

    @inline(never)
    package func named(_ member: ConfinedMemberReference, on object: AnyObject) -> ConfinedMemberReference {
        member.named(on: object)
    }
}

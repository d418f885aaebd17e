/// The record's transitions: every change of its binding happens under its stripe and publishes the new
/// state word. Which transition an access makes is the verdict's to say (`Checking/Checking.swift`).
extension ConfinementRecord {
    /// Runs `body` under the record's stripe. Every transition of the state machine happens here, and
    /// publishes its new word with ``publish(_:)``; nothing in `body` may take another stripe.
    func withBinding<Result>(_ body: () -> Result) -> Result {
        StripedLocks.withLock(for: self, body)
    }

    /// Publishes a new state word to the fast path (call under the stripe). A record that leaves a
    /// task's construction window tells ``TaskConstructionWindows``.
    func publish(_ state: ConfinementState) {
        // Relaxed: only the stripe's holder writes the word.
        let previous = ConfinementState(loadedWord: AtomicWord.loadRelaxed(firstIn: self))
        AtomicWord.storeReleasing(state.word, firstIn: self)
        if let epoch = previous.taskWindowEpoch, previous != state { TaskConstructionWindows.recordLeft(epoch) }
    }

    /// Transfers the object to `newOwner` (see ``Confinement/handOff(to:file:line:)``).
    ///
    /// - Parameters:
    ///   - newOwner: The new owner's context.
    ///   - object: The object, when the call came through it (named by a report).
    ///   - file: The new bind site.
    ///   - line: The new bind site.
    @usableFromInline
    package func handOff(to newOwner: ExecutionContext, object: AnyObject?, file: StaticString, line: UInt) {
        rebind(to: newOwner, member: "handOff(to:)", object: object, file: file, line: line)
    }

    /// Returns the object to the detached state (see ``Confinement/detach(file:line:)``).
    ///
    /// - Parameters:
    ///   - object: The object, when the call came through it (named by a report).
    ///   - file: The call site, for reports.
    ///   - line: The call site, for reports.
    @usableFromInline
    package func detach(object: AnyObject?, file: StaticString, line: UInt) {
        rebind(to: nil, member: "detach()", object: object, file: file, line: line)
    }

    /// Ends the construction window now: from here on only the owner passes a check, the thread that
    /// built the object included.
    ///
    /// The window also ends by itself when the owner first uses the object, or when the building thread
    /// hands any work to a library scheduler (from then on the object can be in use elsewhere). Call
    /// this where an object is published some other way — stored where another thread can reach it.
    package func endConstruction() {
        withBinding {
            if let owner = _owner, state.constructionEpoch != nil {
                publish(.bound(to: owner, needsResolution: needsResolution))
            }
        }
    }

    /// Binds the object to `scheduler` for good, ending any construction window: for an object that was
    /// just *sent* into an always-checked wrapper (``SchedulableObject``), so no other reference to it
    /// can be in use anywhere.
    package func bindSentObject(to scheduler: some SerialScheduler, at site: PackedCodeLocation) {
        withBinding { bind(to: scheduler.executionContext, at: site, event: .boundBySending) }
    }

    /// Binds the object to `newOwner` (or detaches it), ending any construction window (call under
    /// the stripe); the debug tier records the change as `event` in the history, and `access`, the
    /// legitimate access that made it, if any.
    func bind(
        to newOwner: ExecutionContext?, at site: PackedCodeLocation, event: OwnershipEventKind,
        access: ConfinedMemberReference? = nil
    ) {
        recordOwnershipEvent(event, newOwner: newOwner, at: site, access: access)
        _owner = newOwner
        _boundAt = newOwner == nil ? .none : site
        guard let newOwner else { return publish(.detached) }
        // An observed record never settles (TM "Observing"); `extras` is `nil` for most records.
        publish(extras?.observedAt == nil ? .bound(to: newOwner, needsResolution: needsResolution) : .observing)
    }

    /// Whether the options leave `member` unchecked (call under the stripe; the verdict's rules 7 and 12). Property entries not yet
    /// matched to wrappers on this object are matched from what earlier probes of the same key paths
    /// found — nothing is read here, which may be off the owner — so options hold from the first
    /// access of every object but the first of its type (see ``PropertyProbe``).
    package func excludes(_ member: ConfinedMemberReference) -> Bool {
        guard let extras else { return false }
        if extras.resolvedProperties == nil, let resolved = extras.options.resolvedFromEarlierProbes() {
            extras.resolvedProperties = resolved
            if let owner = _owner, state == .unresolved { publish(.settled(owner.id)) }
        }
        return !extras.options.checks(member, resolved: extras.resolvedProperties)
    }

    /// Records the options' property entries matched to wrappers (see `resolveProperties(on:)`).
    func recordResolution(_ resolved: ErasedConfinementOptions.ResolvedProperties) {
        withBinding {
            guard let extras, extras.resolvedProperties == nil else { return }
            extras.resolvedProperties = resolved
            if let owner = _owner, state == .unresolved { publish(.settled(owner.id)) }
        }
    }

    /// Hands the record to `newOwner` (or detaches it) when the verdict allows it here: from the owner,
    /// or from anywhere while detached, never for a record created with a fixed owner (rule 0); a
    /// refusal is reported at the precondition tier.
    private func rebind(
        to newOwner: ExecutionContext?, member: StaticString, object: AnyObject?, file: StaticString, line: UInt
    ) {
        let reference = ConfinedMemberReference.method(member, callSite: PackedCodeLocation(file: file, line: line))
        // The verdict gets no object: its deinit rule is for uses; a transfer is judged the same whether
        // it came through the object or the confinement. Only a report names the object.
        let verdict = Checking.transfer(self, to: newOwner, by: reference) {
            [unowned(unsafe) self] refusal, member in
            transferReport(for: refusal, member: member, newOwner: newOwner, object: object)
        }
        if case .report(let delivery) = verdict {
            delivery.deliver()
        } else if let observedAt, let object, let newOwner {
            // An observed object handed off: a step to its new owner, made here (the hand-off's line),
            // since the new owner's first use then takes the fast path.
            Observation.record(.observed(object, createdAt: observedAt), in: Observation.Context(newOwner)) {
                .handOff(reference, at: CodeLocation(file: file, line: line))
            }
        }
    }

    /// The violation a refused transfer becomes (out of line: reporting path only).
    @inline(never)
    private func transferReport(
        for refusal: Refusal, member: ConfinedMemberReference, newOwner: ExecutionContext?, object: AnyObject?
    ) -> PendingReport {
        guard case .fixedOwner(let owner, let boundAt) = refusal else {
            return pendingReport(for: refusal, object: nil, member: member, tier: .precondition, typeName: nil)
        }
        let violation = ConfinementViolation.fixedOwnerChanged(
            member: member, object: object, owner: owner, boundAt: boundAt.locationIfAny, newOwner: newOwner
        )
        return PendingReport(violation, objectHandler: capturedHandler)
    }
}

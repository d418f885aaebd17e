/// The slow path of every check: runs only when the thread's token did not match the settled owner.
/// It asks the verdict (`Checking.verdict`, `Checking/Checking.swift`)
/// and does what it says: nothing, match the options' properties, or deliver a report.
///
/// A settled record is judged without any lock and without allocating; strings are built only for a
/// report.
extension ConfinementRecord {
    /// The slow path of a method guard or a box accessor (see ``_checkMethod(_:_:_:_:tier:)``): builds
    /// the member reference here, out of line, so the inlined fast path stays three instructions. The
    /// caller packs the call site in its miss branch, where the literal's flags and the line are
    /// constants. `message`, a check verb's, is evaluated only for a report.
    @usableFromInline
    func _methodCheckFailedFastPath(
        object: AnyObject?, member: StaticString, callSite: PackedCodeLocation, tier: ConfinementViolation.Tier,
        message: () -> String = { String() }
    ) {
        checkGuardFailedFastPath(object: object, member: .method(member, callSite: callSite), tier: tier, message: message)
    }

    #if SCHEDULABLE_CHECKS
    /// The slow path of a `@Confined` access (`Confined._check`), after its inline main-queue test:
    /// builds the member reference here, out of line. Inlined into each property accessor, the
    /// reference (the declaration site unpacked, with its interned case's call) made the miss branch
    /// big enough that `-O` kept the property's own accessors as calls in user code (Benchmarks/README.md,
    /// "Realistic workload"); one call with the object and 8 bytes leaves the accessor small.
    ///
    /// - Parameters:
    ///   - object: The protected object.
    ///   - declaredAt: The property's declaration site (no name: a given name is found by the site when a
    ///     report or an options predicate needs it, `GivenPropertyNames`).
    @usableFromInline
    @inline(never)
    func _propertyCheckFailedFastPath(_ object: AnyObject, declaredAt: PackedCodeLocation) {
        checkFailedFastPath(
            object: object, member: .property(name: nil, declaredAt: declaredAt), tier: .assert,
            mainQueueAsked: true  // inline by the caller (`Confined._check`), with the same helper
        )
    }
    #endif

    /// The slow path of a box's accessor (see ``_checkAccessor(_:)``): always-on tier, no call site.
    @usableFromInline
    func _accessorCheckFailedFastPath(_ member: StaticString, typeName: String? = nil) {
        _checkFailedFastPath(object: nil, member: .accessor(member), tier: .precondition, typeName: typeName)
    }

    /// The slow path of every check.
    ///
    /// - Parameters:
    ///   - object: The protected object, when there is one (for reports and the deinit exemption).
    ///   - member: Which member was used.
    ///   - tier: Which check tier.
    ///   - typeName: The type to name in a report when there is no object (a box).
    @usableFromInline
    func _checkFailedFastPath(
        object: AnyObject?, member: ConfinedMemberReference, tier: ConfinementViolation.Tier, typeName: String? = nil
    ) {
        checkFailedFastPath(object: object, member: member, tier: tier, typeName: typeName)
    }

    /// The body of every entry above (the verdict is inlined into it), out of line.
    ///
    /// - Parameter mainQueueAsked: Whether the caller already asked the main-queue proof inline.
    @inline(never)
    private func checkFailedFastPath(
        object: AnyObject?, member: ConfinedMemberReference, tier: ConfinementViolation.Tier, typeName: String? = nil,
        mainQueueAsked: Bool = false
    ) {
        checkSlowPath(
            object: object, member: member, tier: tier, typeName: typeName, mainQueueAsked: mainQueueAsked,
            message: { String() }
        )
    }

    /// The same for a method guard, whose report carries its caller's message. A function of its own,
    /// so that the other entry points keep a call of their own shape and each caller's legitimate slow
    /// path stays a tail call.
    @inline(never)
    private func checkGuardFailedFastPath(
        object: AnyObject?, member: ConfinedMemberReference, tier: ConfinementViolation.Tier, message: () -> String
    ) {
        checkSlowPath(object: object, member: member, tier: tier, typeName: nil, mainQueueAsked: false, message: message)
    }

    /// The one body of both: the verdict, inlined into each (even at -Onone).
    @_transparent
    private func checkSlowPath(
        object: AnyObject?, member: ConfinedMemberReference, tier: ConfinementViolation.Tier, typeName: String?,
        mainQueueAsked: Bool, message: () -> String
    ) {
        // unowned(unsafe): the closure runs, if at all, inside this call, which the caller keeps `self`
        // and `object` alive for; a strong capture retained both on every legitimate slow path.
        let verdict = Checking.use(member, object: object, record: self, mainQueueAsked: mainQueueAsked) {
            [unowned(unsafe) self, unowned(unsafe) object] refusal, member in
            pendingReport(for: refusal, object: object, member: member, tier: tier, typeName: typeName)
        }
        switch verdict {
        case .pass, .no:
            return
        case .passResolving:
            if let object { resolveProperties(on: object) }
        case .report(let delivery):
            delivery.deliver(addingDetail: message)
        }
    }

    /// The violation a refusal of `member` becomes (out of line, like every report: the legitimate
    /// slow path inlined above stays as it was).
    @inline(never)
    func pendingReport(
        for refusal: Refusal, object: AnyObject?, member: ConfinedMemberReference, tier: ConfinementViolation.Tier,
        typeName: String?
    ) -> PendingReport {
        switch refusal {
        case .wrongContext(let owner, let boundAt):
            var violation = ConfinementViolation.wrongContext(
                member: member.named(on: object), tier: tier, owner: owner, boundAt: boundAt.locationIfAny,
                object: object, typeName: typeName
            )
            violation.history = historyForReport()
            return PendingReport(violation, objectHandler: capturedHandler)
        case .notSerial:
            let violation = ConfinementViolation.firstUseNotSerial(
                member: member.named(on: object), tier: tier, object: object, typeName: typeName
            )
            return PendingReport(violation, objectHandler: capturedHandler)
        case .fixedOwner:
            preconditionFailure("a use transfers nothing")
        }
    }

    /// Matches the options' property key paths to wrappers by reading each property once. Runs only
    /// where the object may be used (its owner, the thread building it, or the use that binds it), so
    /// the reads cannot race; outside the lock, because each read re-enters the slow path.
    private func resolveProperties(on object: AnyObject) {
        guard let options else { return }
        var resolved = ErasedConfinementOptions.ResolvedProperties()
        var unmatched: [CodeLocation] = []
        for (probes, isExcluded) in [(options.included.properties, false), (options.excluded.properties, true)] {
            for probe in probes {
                guard let site = probe.declarationSite(on: object) else {
                    unmatched.append(probe.writtenAt)
                    continue
                }
                if isExcluded { resolved.excluded.insert(site) } else { resolved.included.insert(site) }
            }
        }
        recordResolution(resolved)
        for option in unmatched {
            ConfinementReporting.report(
                .invalidOption(writtenAt: option, on: object, owner: owner, boundAt: boundAt),
                objectHandler: capturedHandler
            )
        }
    }
}

extension ConfinedMemberReference {
    /// The reference with a `@Confined` property's name filled in from `object`'s fields when it was
    /// not given (reporting path only, kept out of line so the slow path that inlines its callers does not
    /// grow; see ``ConfinedPropertyNames``).
    @inline(never)
    func named(on object: AnyObject?) -> ConfinedMemberReference {
        #if SCHEDULABLE_CHECKS
        if case .property(nil, let declaredAt) = self, let object,
            let name = ConfinedPropertyNames.name(declaredAt: declaredAt, in: object)
        {
            return .property(name: name, declaredAt: declaredAt)
        }
        #endif
        return self
    }
}

/// The types already reported for an unstored confinement record: each is reported once (rule 2 of the
/// verdict).
enum UnstoredConfinementTypes {
    private static let reported = LockedValue(Set<ObjectIdentifier>())

    /// Whether `type` is reported now for the first time (and remembers it).
    static func isFirstReport(of type: AnyObject.Type) -> Bool {
        reported.withLock { $0.insert(ObjectIdentifier(type)).inserted }
    }
}

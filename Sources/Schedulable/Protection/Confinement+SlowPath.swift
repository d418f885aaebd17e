import CSchedulableContext

/// The verdict of a slow path.
enum Judgement {
    /// Legitimate.
    case pass
    /// Legitimate, and the options' property entries still have to be matched to wrappers.
    case passResolving
    /// Not legitimate: the record is bound to `owner` elsewhere.
    case refuse(owner: ExecutionContext, boundAt: CompactCodeLocation)
    /// Not legitimate: a detached record's first use runs on a concurrent pool thread, which nothing
    /// serial owns, so there is nothing to bind it to.
    case notSerial
}

/// The slow path of every check: runs only when the thread's token did not match the settled owner.
///
/// A settled record is judged without any lock and without allocating (its word is the owner's id,
/// and "does the calling code hold this id" is a walk of this thread's frames, then the main thread,
/// then one `getSpecific`); the options' exclusions are consulted before any other work on a miss.
/// Only records that are not settled (detached, being built, options not yet matched) take their
/// stripe, and strings are built only for a report.
extension Confinement {
    /// The slow path of a method guard or a box accessor (see ``_checkMethod(_:_:_:_:tier:)``): builds
    /// the member reference here, out of line, so the inlined fast path stays three instructions.
    @usableFromInline
    func _methodCheckFailedFastPath(
        object: AnyObject?, member: StaticString, file: StaticString, line: UInt, tier: ConfinementViolation.Tier
    ) {
        checkFailedFastPath(
            object: object, member: .method(member, callSite: CompactCodeLocation(file: file, line: line)), tier: tier
        )
    }

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

    /// The body of ``_checkFailedFastPath(object:member:tier:typeName:)``, inlined into each entry
    /// point so that a legitimate slow path is one call deep.
    @inline(__always)
    private func checkFailedFastPath(
        object: AnyObject?, member: ConfinedMemberReference, tier: ConfinementViolation.Tier, typeName: String? = nil
    ) {
        if case .property(_, let declaredAt) = member, PropertyProbe.recordIfProbing(declaredAt) { return }
        // Only records that are not settled (checked first: binding `object` here would retain it on
        // the legitimate slow path of every settled record).
        if state.settledID == nil { checkStored(in: object, member: member) }
        switch judge(member: member) {
        case .pass:
            return
        case .passResolving:
            if let object { resolveProperties(on: object) }
        case .refuse(let owner, let boundAt):
            if let object, PlatformInternals.isDeallocating(object) == true {
                // deinit: the last reference is gone, nothing else can race with this access.
                return
            }
            reportWrongContext(
                object: object, member: member, tier: tier, owner: owner, boundAt: boundAt.locationIfAny, typeName: typeName
            )
        case .notSerial:
            reportNotSerial(object: object, member: member, tier: tier, typeName: typeName)
        }
    }

    /// Makes sure `object` stores this record: a computed `confinement` gives a new record on every
    /// read — one that is always "being built" by the thread that reads it, so every check would pass.
    /// Such a record is reported (once per type) and its construction window closed, so the access is
    /// judged against the owner like any other. Asked only of records that are not settled: a stored
    /// record settles, an unstored one off its owner never does.
    @inline(never)
    private func checkStored(in object: AnyObject?, member: ConfinedMemberReference) {
        guard let object, let confined = object as? any ConfinedObject, confined.confinement !== self else { return }
        endConstruction()
        if UnstoredConfinementTypes.isFirstReport(of: type(of: object)) {
            ScheduleReporting.report(
                .unstoredConfinement(on: object, member: member.named(on: object), owner: owner), objectHandler: capturedHandler
            )
        }
    }

    /// Judges a use here and now; `member` is `nil` for a question (``isIsolated``), which binds nothing
    /// and is never excluded.
    @inline(__always)
    func judge(member: ConfinedMemberReference?) -> Judgement {
        let state = self.state
        if let id = state.settledID {
            // Settled: no lock. Legitimate misses of the fast path (raw work on the owner's queue, a
            // branch of a tree owner, main-queue work under dispatchMain()) end here.
            if CurrentExecution.holds(contextID: id) { return .pass }
            // A miss: exclusions first (read without the lock: options are immutable and matched
            // properties were recorded before the word settled).
            if let member, let extras, !extras.options.checks(member, resolved: extras.resolvedProperties) { return .pass }
        }
        // Not settled: the stripe. (Even on the constructing thread: the owner's first use, which may
        // happen on this very thread through raw work on the owner's queue, must end the window.)
        return judgeUnderLock(member: member)
    }

    /// Reports an access outside `owner` (see ``ScheduleReporting/reportWrongContext(_:owner:objectHandler:)``).
    func reportWrongContext(
        object: AnyObject?, member: ConfinedMemberReference, tier: ConfinementViolation.Tier,
        owner: ExecutionContext, boundAt: CodeLocation?, typeName: String? = nil
    ) {
        var violation = ConfinementViolation.wrongContext(
            member: member.named(on: object), tier: tier, owner: owner, boundAt: boundAt, object: object, typeName: typeName
        )
        violation.history = historyForReport()
        ScheduleReporting.reportWrongContext(violation, owner: owner, objectHandler: capturedHandler)
    }

    /// Reports a detached record's first use on a concurrent pool thread (out of line, like every report:
    /// the legitimate slow path inlined above stays as it was).
    @inline(never)
    private func reportNotSerial(
        object: AnyObject?, member: ConfinedMemberReference, tier: ConfinementViolation.Tier, typeName: String?
    ) {
        ScheduleReporting.report(
            .firstUseNotSerial(member: member.named(on: object), tier: tier, object: object, typeName: typeName),
            objectHandler: capturedHandler
        )
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
            ScheduleReporting.report(
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

/// The types already reported for an unstored confinement record: each is reported once.
enum UnstoredConfinementTypes {
    private static let reported = ScheduleLock(Set<ObjectIdentifier>())

    /// Whether `type` is reported now for the first time (and remembers it).
    static func isFirstReport(of type: AnyObject.Type) -> Bool {
        reported.withLock { $0.insert(ObjectIdentifier(type)).inserted }
    }
}

import CSchedulableContext

/// The slow path of every check: runs only when the thread's token did not match the settled owner.
/// It decides (under the binding's lock) whether the access is legitimate, binds a detached object,
/// matches property options to wrappers, and hands a real violation to reporting.
extension Confinement {
    /// The slow path of a method guard or a box accessor (see ``_checkMethod(_:_:_:_:tier:)``): builds
    /// the member reference here, out of line, so the inlined fast path stays three instructions.
    @usableFromInline
    func _methodCheckFailedFastPath(
        object: AnyObject?, member: StaticString, file: StaticString, line: UInt, tier: ConfinementViolation.Tier
    ) {
        _checkFailedFastPath(
            object: object, member: .method(member, callSite: CodeLocation(file: file, line: line)), tier: tier
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
        if case .property(_, let declaredAt) = member, PropertyProbe.recordIfProbing(declaredAt) { return }
        enum Decision {
            case pass(probeProperties: Bool)
            case report(owner: ExecutionContext, boundAt: CodeLocation?, resolved: ErasedConfinementOptions.ResolvedProperties?)
        }
        let decision = updateBinding { binding -> Decision in
            guard let owner = binding.owner else {
                // Detached: the first checked use binds the object to where it runs.
                guard options.checks(member, resolved: binding.resolvedProperties) else { return .pass(probeProperties: false) }
                let here = CurrentExecution.innermostContext
                binding.bind(
                    to: here, scheduler: SchedulerRegistry.scheduler(for: here),
                    at: member.callSite ?? member.declarationSite
                )
                return .pass(probeProperties: binding.resolvedProperties == nil)
            }
            if binding.allowsUseHere(by: owner) {
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
            reportWrongContext(object: object, member: member, tier: tier, owner: owner, boundAt: boundAt, typeName: typeName)
        }
    }

    /// Reports an access outside `owner` (see ``ScheduleReporting/reportWrongContext(_:owner:objectHandler:)``).
    func reportWrongContext(
        object: AnyObject?, member: ConfinedMemberReference, tier: ConfinementViolation.Tier,
        owner: ExecutionContext, boundAt: CodeLocation?, typeName: String? = nil
    ) {
        ScheduleReporting.reportWrongContext(
            .wrongContext(member: member, tier: tier, owner: owner, boundAt: boundAt, object: object, typeName: typeName),
            owner: owner, objectHandler: capturedHandler
        )
    }

    /// Matches the options' property key paths to wrappers by reading each property once. Runs only
    /// where the object may be used (its owner, the thread building it, or the use that binds it), so
    /// the reads cannot race; outside the lock, because each read re-enters the slow path.
    private func resolveProperties(on object: AnyObject) {
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
        updateBinding { $0.resolvedProperties = resolved }
        for option in unmatched {
            ScheduleReporting.report(
                .invalidOption(writtenAt: option, on: object, owner: owner, boundAt: boundAt),
                objectHandler: capturedHandler
            )
        }
    }
}

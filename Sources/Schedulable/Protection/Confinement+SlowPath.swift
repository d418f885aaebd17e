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

    /// The slow path of every check.
    ///
    /// - Parameters:
    ///   - object: The protected object, when there is one (for reports and the deinit exemption).
    ///   - member: Which member was used.
    ///   - tier: Which check tier.
    @usableFromInline
    func _checkFailedFastPath(object: AnyObject?, member: ConfinedMemberReference, tier: ConfinementViolation.Tier) {
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
            reportWrongContext(object: object, member: member, tier: tier, owner: owner, boundAt: boundAt)
        }
    }

    /// Reports an access outside `owner` — after asking libdispatch, for a queue owner, when the
    /// outcome would be a trap anyway and the library has no evidence of its own
    /// (``CurrentExecution/mayHoldQueuesUnseen``): libdispatch alone sees raw `someQueue.sync {}`
    /// nested in raw work on the owner's queue, and its "yes" means the access was legitimate after
    /// all. Everywhere else the report is delivered without asking, so it is printed before anything
    /// traps (a debugger stops at libdispatch's trap before a report armed for it prints).
    func reportWrongContext(
        object: AnyObject?, member: ConfinedMemberReference, tier: ConfinementViolation.Tier,
        owner: ExecutionContext, boundAt: CodeLocation?
    ) {
        let violation = ConfinementViolation.wrongContext(
            member: member, tier: tier, owner: owner, boundAt: boundAt, object: object
        )
        let handler = ScheduleReporting.handler(objectHandler: capturedHandler)
        // Not while a handler runs on this thread: a violation raised there is printed, never trapped
        // on for the assert tier (see ScheduleReporting.report).
        if !ScheduleReporting.isDeliveringOnThisThread, ScheduleReporting.endsInTrap(violation, handledBy: handler),
            CurrentExecution.mayHoldQueuesUnseen,
            owner.confirmedByDispatch(elseTrapPrinting: violation.description + "\n")
        {
            return
        }
        ScheduleReporting.report(violation, to: handler)
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

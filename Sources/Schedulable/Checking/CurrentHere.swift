import CSchedulableContext

/// "Here" in production: the calling code, as ``CurrentExecution`` and libdispatch see it.
///
/// A zero-sized value whose members are one call each, so the verdict specialised for it is the code
/// the checks ran before the verdict was one function: no existential, no allocation.
package struct CurrentHere: VerdictHere {
    package init() {}

    @inline(__always)
    package func recordIfProbing(_ site: PackedCodeLocation) -> Bool {
        // The slot a `PropertyProbe` sets for the one read it makes on this thread.
        guard let slot = csched_probe_slot() else { return false }
        let recorded = slot.assumingMemoryBound(to: PackedCodeLocation?.self)
        if recorded.pointee == nil { recorded.pointee = site }
        return true
    }

    @inline(__always)
    package func holds(contextID id: UInt) -> Bool {
        CurrentExecution.holds(contextID: id)
    }

    package func holds(_ owner: ExecutionContext) -> Bool {
        CurrentExecution.holds(owner)
    }

    package var bindableContext: ExecutionContext? {
        CurrentExecution.bindableContext
    }

    package var observingContext: ExecutionContext? {
        CurrentExecution.observingContext
    }

    package func isDeallocating(_ object: AnyObject) -> Bool {
        // Unknown (the internal switched off or its self-check failed) is "no": the access is judged.
        PlatformInternals.isDeallocating(object) == true
    }

    package var isDelivering: Bool {
        ConfinementReporting.isDeliveringOnThisThread
    }

    package var mayHoldQueuesUnseen: Bool {
        CurrentExecution.mayHoldQueuesUnseen
    }

    package func dispatchConfirms(_ owner: ExecutionContext, elseTrapPrinting report: String) -> Bool {
        owner.confirmedByDispatch(elseTrapPrinting: report)
    }

    package func observedUse(of member: ConfinedMemberReference, in context: ExecutionContext?) -> Observation.Use {
        .here(member, in: context)
    }

    package func recordStep(of object: AnyObject, createdAt: CodeLocation?, _ step: () -> Observation.Step) {
        Observation.record(.observed(object, createdAt: createdAt), in: CurrentExecution.observed, step: step)
    }
}

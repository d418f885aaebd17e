/// The check verbs of the fixed-owner wrappers (``SchedulerBound``, ``SchedulableObject``) with their
/// caller's message. Kept apart from the accessors' checks, which take no message: a closure argument
/// on their shared slow path cost every legitimate slow path instructions it never used.
extension FixedOwner {
    /// Checks a check verb: the fast path inline; `message` is handed to the slow path only, and
    /// evaluated only for a report.
    @inlinable
    @inline(__always)
    func _checkVerb(
        _ member: StaticString, _ file: StaticString, _ line: UInt, tier: ConfinementViolation.Tier,
        wrapper: StaticString, argument: Any.Type, message: () -> String
    ) {
        if _slowPath(!_passesFastPath) {
            _verbCheckFailedFastPath(
                member: .method(member, callSite: PackedCodeLocation(file: file, line: line)), tier: tier,
                wrapper: wrapper, argument: argument, handler: nil, message: message
            )
        }
    }

    /// The slow path of a check verb, reporting to `handler` (a wrapper's captured one) when there is
    /// one, with `message` on the report's detail line.
    @usableFromInline
    package func _verbCheckFailedFastPath(
        member: ConfinedMemberReference, tier: ConfinementViolation.Tier, wrapper: StaticString, argument: Any.Type,
        handler: (any ConfinementViolationHandler)?, message: () -> String
    ) {
        check(member) { owner, boundAt in
            var violation = ConfinementViolation.wrongContext(
                member: member, tier: tier, owner: owner, boundAt: boundAt.locationIfAny, object: nil,
                typeName: "\(wrapper)<\(argument)>"
            )
            violation.addDetail(message())
            return PendingReport(violation, objectHandler: handler)
        }
    }
}

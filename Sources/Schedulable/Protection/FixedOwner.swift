/// The check of a wrapper whose owner never changes (``SchedulerBound``, ``SchedulableObject``): the
/// owner's context and the bind site, kept inline in the wrapper — no record, no allocation, no lock.
///
/// Such wrappers have no construction window, no options and no hand-off, so they need none of a
/// ``Confinement``'s state: the fast path reads the context's immutable id, and a miss asks
/// ``CurrentExecution`` about that id. The context is held strongly; it keeps nothing alive (its queue
/// reference is weak), unlike the scheduler.
@usableFromInline
package struct FixedOwner: Sendable {
    @usableFromInline
    let context: ExecutionContext
    @usableFromInline
    let boundAt: CompactCodeLocation

    /// Binds to `context`, at `boundAt`.
    @inlinable
    package init(_ context: ExecutionContext, boundAt: CompactCodeLocation) {
        self.context = context
        self.boundAt = boundAt
    }

    /// Whether the thread's token is the owner's id: the whole fast path.
    @usableFromInline
    @_transparent  // inlined even at -Onone, where checks run by default
    var _passesFastPath: Bool {
        _CurrentToken.isCurrent(context.id)
    }

    /// Whether the calling code runs on the owner. Never a false "yes".
    package var isIsolated: Bool {
        _passesFastPath || CurrentExecution.holds(contextID: context.id)
    }

    /// Checks an accessor (always-on tier): the fast path inline, the rest out of line.
    ///
    /// - Parameters:
    ///   - member: The accessor's name.
    ///   - wrapper: The wrapper's type, named in a report as `wrapper<Argument>`.
    ///   - argument: The wrapper's generic argument.
    @inlinable
    @inline(__always)
    func _checkAccessor(_ member: StaticString, wrapper: StaticString, argument: Any.Type) {
        if _slowPath(!_passesFastPath) {
            _checkFailedFastPath(member: .accessor(member), tier: .precondition, wrapper: wrapper, argument: argument)
        }
    }

    /// Checks a method (or an accessor with a call site): the fast path inline, the rest out of line.
    @inlinable
    @inline(__always)
    func _checkMethod(
        _ member: StaticString, _ file: StaticString, _ line: UInt, tier: ConfinementViolation.Tier,
        wrapper: StaticString, argument: Any.Type
    ) {
        if _slowPath(!_passesFastPath) {
            _checkFailedFastPath(
                member: .method(member, callSite: CompactCodeLocation(file: file, line: line)), tier: tier,
                wrapper: wrapper, argument: argument
            )
        }
    }

    /// The slow path: legitimate when the calling code holds the owner by any layer (no lock, no
    /// allocation), else a report. The type's name is only spelt for a report.
    @usableFromInline
    func _checkFailedFastPath(
        member: ConfinedMemberReference, tier: ConfinementViolation.Tier, wrapper: StaticString, argument: Any.Type
    ) {
        checkFailedFastPath(member: member, tier: tier, wrapper: wrapper, argument: argument, handler: nil)
    }

    /// The slow path, reporting to `handler` (a wrapper's captured one) when there is one. Kept apart
    /// from the inlined checks: an optional existential argument there is built and destroyed on every
    /// access, fast path included.
    package func checkFailedFastPath(
        member: ConfinedMemberReference, tier: ConfinementViolation.Tier, wrapper: StaticString, argument: Any.Type,
        handler: (any ConfinementViolationHandler)?
    ) {
        if CurrentExecution.holds(contextID: context.id) { return }
        ScheduleReporting.reportWrongContext(
            .wrongContext(
                member: member, tier: tier, owner: context, boundAt: boundAt.locationIfAny, object: nil,
                typeName: "\(wrapper)<\(argument)>"
            ),
            owner: context, objectHandler: handler
        )
    }
}

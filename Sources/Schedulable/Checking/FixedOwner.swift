/// The record of a wrapper whose owner never changes (``SchedulerBound``, ``SchedulableObject``, a
/// scheduler's own check verbs): the owner's context and the bind site, kept inline in the wrapper — no
/// allocation, no lock.
///
/// It is a record in the one state ``RecordWord/fixed(_:)``: the verdict's rules about binding,
/// construction windows and options never fire for it, and everything else — the tracked layers,
/// libdispatch's drain lock, the deinit rule, libdispatch's last word, the report — is the same verdict
/// every ``Confinement`` gets (`Checking.verdict`). The context is held
/// strongly; it keeps nothing alive (its queue reference is weak).
@usableFromInline
package struct FixedOwner: Sendable, VerdictRecord {
    @usableFromInline
    let context: ExecutionContext
    /// The bind site in one word, as a record keeps it: a `SchedulerBound<Int>` is 24 bytes, not 32.
    @usableFromInline
    let boundAt: PackedCodeLocation

    /// Binds to `context`, at `boundAt`.
    @inlinable
    package init(_ context: ExecutionContext, boundAt: PackedCodeLocation) {
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
        _passesFastPath || Checking.answers(self)
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
                member: .method(member, callSite: PackedCodeLocation(file: file, line: line)), tier: tier,
                wrapper: wrapper, argument: argument
            )
        }
    }

    /// The slow path of the inlined checks. The type's name is only spelt for a report.
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
        check(member) { owner, boundAt in
            PendingReport(
                .wrongContext(
                    member: member, tier: tier, owner: owner, boundAt: boundAt.locationIfAny, object: nil,
                    typeName: "\(wrapper)<\(argument)>"
                ),
                objectHandler: handler
            )
        }
    }

    /// Applies the verdict on a use of `member` here: delivers the report, if there is one.
    ///
    /// - Parameter violation: The wrong-context violation, from the owner and bind site.
    @inline(__always)
    package func check(
        _ member: ConfinedMemberReference,
        violation: (ExecutionContext, PackedCodeLocation) -> PendingReport
    ) {
        let verdict = Checking.use(member, object: nil, record: self) { refusal, _ in
            // A fixed owner is never detached and a use transfers nothing: every refusal is a wrong context.
            guard case .wrongContext(let owner, let boundAt) = refusal else { preconditionFailure("a fixed owner binds nothing") }
            return violation(owner, boundAt)
        }
        if case .report(let delivery) = verdict { delivery.deliver() }
    }

    // VerdictRecord: the one state `.fixed`; the other members keep their defaults (nothing to bind,
    // no window, no options).
    package var word: RecordWord { .fixed(context.id) }
    package var isFixed: Bool { true }
    package func withStripe<Result>(_ body: () -> Result) -> Result { body() }
    package var lockedOwner: ExecutionContext? { context }
    package var lockedBoundAt: PackedCodeLocation { boundAt }
}

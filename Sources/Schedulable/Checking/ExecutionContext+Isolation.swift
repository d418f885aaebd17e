/// A context's own questions and checks — ``ExecutionContext/isIsolated``, a scheduler's check verbs,
/// an executor's `checkIsolated()` and `isIsolatingCurrentContext()` — are the verdict on the context
/// as a ``FixedOwner``: a scheduler cannot answer differently from the objects bound to it.
extension ExecutionContext {
    /// Whether the current code runs inside this context (or inside one of its branches).
    ///
    /// May give a false "no" only for work that reached a foreign queue behind the library's back in
    /// ways no non-trapping API can see (documented in the Threading Model article); never a false
    /// "yes".
    @inlinable
    public var isIsolated: Bool {
        if _CurrentToken.isCurrent(id) { return true }
        return _isIsolatedSlow()
    }

    /// The verdict on the question when the fast path said "no".
    @usableFromInline
    func _isIsolatedSlow() -> Bool {
        Checking.answers(FixedOwner(self, boundAt: .none))
    }

    /// Checks a use of this context by `member` (a scheduler's check verb, an executor's check): the
    /// fast path, then the verdict on the context as a fixed owner without a bind site.
    ///
    /// - Parameters:
    ///   - member: The verb, with its call site when it has one.
    ///   - violation: The report of a refusal, from the owner.
    @inline(__always)
    package func checkUse(_ member: ConfinedMemberReference, violation: (ExecutionContext) -> PendingReport) {
        if _CurrentToken.isCurrent(id) { return }
        FixedOwner(self, boundAt: .none).check(member) { owner, _ in violation(owner) }
    }
}

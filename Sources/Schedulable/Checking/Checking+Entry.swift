import CSchedulableContext

/// The entries of the verdict: every slow path of the library — a record's, a fixed owner's, a
/// scheduler's verbs, an executor's checks, the public `isIsolated` queries — comes in through one of
/// these, and only these ask the main-queue proof.
extension Checking {
    /// The verdict on a use whose fast path missed: main-queue work first
    /// (``passesAsMainQueueWork(settledWord:)``), then `verdict(.use, …)`.
    ///
    /// - Parameters:
    ///   - member: The member used.
    ///   - object: The protected object, when there is one.
    ///   - record: The object's record.
    ///   - mainQueueAsked: `true` when the caller already asked ``passesAsMainQueueWork(settledWord:)``
    ///     inline (a `@Confined` access): the proof is then not asked twice.
    ///   - report: The violation a refusal becomes.
    @inline(__always)
    package static func use<Record: VerdictRecord>(
        _ member: ConfinedMemberReference, object: AnyObject?, record: Record, mainQueueAsked: Bool = false,
        report: (Refusal, ConfinedMemberReference) -> PendingReport
    ) -> Verdict {
        if !mainQueueAsked, passesAsMainQueueWork(settledWord: record.word.ownerID ?? 0) { return .pass }
        return verdict(.use, member: member, object: object, record: record, here: CurrentHere(), report: report)
    }

    /// The verdict on a question (`isIsolated`): binds nothing, reports nothing, never a false "yes".
    @inline(__always)
    package static func answers<Record: VerdictRecord>(_ record: Record) -> Bool {
        let answer = verdict(.question, member: nil, object: nil, record: record, here: CurrentHere(), report: noReport)
        if case .no = answer { return false }
        return true
    }

    /// The verdict on a hand-off to `newOwner` (`nil`: a detach) by `member`.
    @inline(__always)
    package static func transfer<Record: VerdictRecord>(
        _ record: Record, to newOwner: ExecutionContext?, by member: ConfinedMemberReference,
        report: (Refusal, ConfinedMemberReference) -> PendingReport
    ) -> Verdict {
        verdict(
            .transfer, member: member, newOwner: newOwner, object: nil, record: record, here: CurrentHere(), report: report
        )
    }

    /// The one main-queue proof (rule 3 for main-queue work, asked at the entry of a use's slow path,
    /// before the probe slot, the verdict and anything built for a report): a record settled on main,
    /// used by a thread other than the main thread that holds the main queue's drain lock (a worker
    /// draining it under `dispatchMain()`, a raw `sync` nested in that work, `DispatchQueue.main.sync`).
    ///
    /// Rule 3 would pass it too (``CurrentExecution/holds(contextID:)`` asks the same lock, and its
    /// first call on a thread settles what this inline test reads: until then this says no); here it
    /// is a call and a compare. The lock is the one proof that ends with the block: only what never
    /// changes on the thread (its tid, whether it may prove anything) is kept, never an answer.
    ///
    /// The pass is the fast path's answer, so it skips what the fast path skips: rule 1 (a property
    /// probe reading through another, main-owned object records nothing, as on the main thread).
    /// Unsettled records, other owners and the main thread (whose miss adopts main as its base) go on
    /// to the verdict.
    ///
    /// `word` is the owner's id as the fast path compares it (a record's state word, relaxed: it
    /// equals main's id only once the record is settled on main, an unsettled word has the
    /// construction flag). A `@Confined` access asks it inline in its miss branch, before it builds
    /// the member: reading the declaration site there is an exclusivity access, and the
    /// `confinedMainQueue` instruction threshold holds that branch to no call.
    @usableFromInline
    @_transparent  // inlined even at -Onone, where checks run by default
    static func passesAsMainQueueWork(settledWord word: UInt) -> Bool {
        word == UInt(CSCHED_MAIN_CONTEXT_ID) && csched_runs_main_queue_work_settled()
    }
}

/// The ownership history of a record (debug tier only; see ``ConfinementViolation/History``).
///
/// What it costs, and why there: the creating thread is one word stored at creation (two thread-local
/// loads); everything else waits for an ownership event — a hand-off, a detach, a first-use binding —
/// which already takes the record's stripe, and allocates the history then. Legitimate accesses are
/// recorded only by slow paths that take the stripe anyway (the construction window, the owner's first
/// use, bindings, hand-offs) and only into an existing history: the fast path stays three
/// instructions, and the legitimate slow path of a settled record stays lock-free and allocation-free.
/// In release builds without the debug tier these functions are empty.
extension ConfinementRecord {
    /// Records an ownership event, before the binding changes (call under the stripe), and, when the
    /// event is made by a legitimate access (`access`), that access too, with the same stamp: one
    /// "where am I" for both.
    @inline(__always)
    func recordOwnershipEvent(
        _ kind: OwnershipEventKind, newOwner: ExecutionContext?, at site: PackedCodeLocation,
        access: ConfinedMemberReference? = nil
    ) {
        #if SCHEDULABLE_CHECKS
        let log: OwnershipLog
        if let existing = _history {
            log = existing
        } else {
            // Nothing rebinds a record before its first event, so `_boundAt` is still the creation
            // site (an explicit owner's bind site, or the site a detached record was created at).
            log = OwnershipLog(createdAt: _boundAt, createdOn: _createdOn)
            _history = log
        }
        let stamp = ExecutionStamp.current
        log.record(OwnershipLog.Event(kind: kind, newOwner: newOwner, site: site, madeOn: stamp))
        if let access { log.lastLegitimateAccess = OwnershipLog.Access(member: access, madeOn: stamp) }
        #endif
    }

    /// Records a legitimate access a slow path saw under the stripe, if the record has a history.
    @inline(__always)
    func recordLegitimateAccess(_ member: ConfinedMemberReference) {
        #if SCHEDULABLE_CHECKS
        guard let log = _history else { return }
        log.lastLegitimateAccess = OwnershipLog.Access(member: member, madeOn: .current)
        #endif
    }

    /// The history as a report gives it (takes the stripe; builds the strings). `nil` when the debug
    /// tier is compiled out.
    func historyForReport() -> ConfinementViolation.History? {
        #if SCHEDULABLE_CHECKS
        // Copies under the stripe; the strings are built after it is released.
        let (boundAt, createdOn, log) = withBinding { (_boundAt, _createdOn, _history) }
        // Without a log nothing has rebound the record: `_boundAt` is still its creation site.
        guard let log else {
            return ConfinementViolation.History(createdAt: boundAt.locationIfAny, createdOn: Self.describe(createdOn, detail: nil))
        }
        let (createdOnDetail, eventCount, events, lastAccess) = withBinding {
            (log.createdOnDetail, log.eventCount, log.events, log.lastLegitimateAccess)
        }
        var history = ConfinementViolation.History(
            createdAt: log.createdAt.locationIfAny, createdOn: Self.describe(log.createdOn, detail: createdOnDetail)
        )
        history.ownerChangeCount = eventCount
        history.ownerChanges = events.map { event in
            ConfinementViolation.History.OwnerChange(
                kind: event.kind.rawValue, newOwner: event.newOwner?.description ?? "detached",
                at: event.site.locationIfAny, context: event.madeOn.description
            )
        }
        history.lastLegitimateAccess = lastAccess.map { access in
            ConfinementViolation.History.Access(
                member: access.member.displayName, at: access.member.callSite ?? access.member.declarationSite,
                context: access.madeOn.description
            )
        }
        return history
        #else
        return nil
        #endif
    }

    #if SCHEDULABLE_CHECKS
    /// The creating thread as a report spells it: `main thread`; the OS id and context when the first
    /// ownership event ran on the same thread; the reporting thread in full when it is that thread;
    /// else the library's never-reused thread number.
    private static func describe(_ thread: ThreadStamp, detail: ExecutionStamp?) -> String {
        if thread.isMainThread { return "main thread" }
        if let detail { return detail.description }
        if thread == .current { return CurrentExecution.threadDescription + " (this thread)" }
        return "another thread (library thread #\(thread.uniqueID))"
    }
    #endif
}

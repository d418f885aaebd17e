import CSchedulableContext

/// The one verdict on an access: every check of the library — a record's, a fixed owner's, a
/// scheduler's verbs, an executor's `checkIsolated()` — ends here after its fast path missed.
///
/// The rules run in this order; the first that decides, decides. To change what an access may do, change
/// its rule here, its row in `VerdictTests` and its line in the Threading Model article's "The verdict,
/// in order" (`Schedulable.docc/ThreadingModel.md`, "TM" below), which states each rule for users.
@usableFromInline
package enum Checking {
    /// Judges `access` to `record`'s object here and now.
    ///
    /// Inlined into each caller and specialised for its record and "here": on a legitimate slow path
    /// (rules 1–4) nothing is allocated, boxed or retained, and no lock is taken. `report` builds the
    /// violation of a refusal of the access's member; it runs at most once, only when a report may
    /// follow (the member is passed to it, not captured: a capture copied it on every slow path).
    ///
    /// - Parameters:
    ///   - access: What is checked.
    ///   - member: The member used or transferred by; `nil` for a question.
    ///   - newOwner: A transfer's new owner (`nil`: detach).
    ///   - object: The protected object, when there is one (the unstored-record rule, the deinit rule).
    ///   - record: The object's record.
    ///   - here: Where the calling code runs.
    ///   - report: The violation a refusal becomes, with the handler the object captured.
    /// - Returns: What to do.
    @inline(__always)
    package static func verdict<Record: VerdictRecord, Here: VerdictHere>(
        _ access: CheckedAccess, member: ConfinedMemberReference?, newOwner: ExecutionContext? = nil,
        object: AnyObject?, record: Record, here: Here, report: (Refusal, ConfinedMemberReference) -> PendingReport
    ) -> Verdict {
        if access == .transfer, record.isFixed {
            // 0. TM "Detached objects, hand-off": a record created with a fixed owner is never
            //    handed off or detached, from anywhere — the record's flag decides, not whether it is
            //    shared, so debug and release agree. The owner stays; the report stops the process.
            let refusal = record.withStripe { Refusal.fixedOwner(owner: record.lockedOwner, boundAt: record.lockedBoundAt) }
            guard let member else { return .no }
            return refused(refusal, member, object: object, here: here, report: report)
        }
        if access != .transfer {
            // 1. TM "The verdict, in order" (options name properties by key path): a property read by a
            //    running probe is the probe finding which wrapper the key path reaches; it is recorded,
            //    not checked.
            if case .property(_, let declaredAt)? = member, here.recordIfProbing(declaredAt) { return .pass }
            var word = record.word
            // 2. TM "Construct here, use there" (a stored record): a record the object does not store (a
            //    computed `confinement`) would be "being built" on every read. Close its window, report it
            //    once per type, and judge the use like any other. (Asked only unsettled: reading `object`
            //    first would retain it on every legitimate slow path.)
            if case .unsettled = word, access == .use, let member, let object, !record.isStored(in: object) {
                record.closeUnstored(on: object, member: member)
                word = record.word
            }
            if let id = word.ownerID {
                // 3. TM "The rule", "The slow path": the calling code holds the owner by a layer the
                //    library tracks (raw work on the owner's queue, a branch of a tree owner,
                //    main-queue work under dispatchMain()). No lock: the word is the owner's id.
                if here.holds(contextID: id) { return .pass }
                // 4. TM "The verdict, in order" (exclusion wins): an excluded member is not checked.
                if access == .use, let member, record.excludesWhenSettled(member) { return .pass }
            }
        }
        if access == .use, let member, record.observedAt != nil {
            return observed(member, object: object, record: record, here: here)
        }
        // Everything else reads the binding under the record's stripe (a fixed owner has none).
        let ruling: Ruling = record.withStripe {
            guard let owner = record.lockedOwner else {
                return detachedRuling(access, member: member, newOwner: newOwner, record: record, here: here)
            }
            // 10. TM "Construct here, use there" (the owner's first use), "What libdispatch knows": the
            //     owner — by a tracked layer or by libdispatch's drain lock (raw `sync` nested
            //     in raw owner work). Its first use ends the construction window.
            if here.holds(owner) {
                record.endWindowOnOwnersUse(owner)
                return legitimate(access, member: member, newOwner: newOwner, record: record)
            }
            // 11. TM "Construct here, use there": the work that built the object, while its window is
            //     open — for a task, while it runs on the executor it built the object on. Once the
            //     task runs on another (an actor, the main actor), the object can be in use elsewhere,
            //     as after a hand-off: the window ends for every record the task built in it.
            switch record.constructionWindowHere {
            case .open: return legitimate(access, member: member, newOwner: newOwner, record: record)
            case .creatingTaskOnAnotherExecutor: record.endWindowOnExecutorHop()
            case .none: break
            }
            // 12. TM "The verdict, in order" (exclusion wins), after the owner's rules: the owner's use
            //     of an excluded member still ends the window.
            if access == .use, let member, record.excludes(member) { return .pass }
            // 13. TM "Observing": an observed record is handed off from anywhere; a question is
            //     answered by its context, like any owner's.
            if record.observedAt != nil, let member, access == .transfer {
                record.transfer(to: newOwner, member: member)
                return .pass
            }
            return .refused(.wrongContext(owner: owner, boundAt: record.lockedBoundAt))
        }
        switch ruling {
        case .pass: return .pass
        case .passResolving: return .passResolving
        case .refused(let refusal):
            // 14. TM "The rule" (the query never says a false "yes"): a question answers "no" and
            //     reports nothing.
            guard let member else { return .no }
            return refused(refusal, member, object: object, here: here, report: report)
        }
    }

    /// Rule 5, an observed record's use (its word never settles, so every use comes here: the token
    /// cannot see a raw `queue.sync {}`). Never a refusal: it passes, and a use that moves the record is
    /// a step of observation (``Observation``), recorded, never reported. Out of line: observed records
    /// are adoption-time only, and the declared records' slow paths the verdict is inlined into stay as
    /// they were.
    @inline(never)
    private static func observed<Record: VerdictRecord, Here: VerdictHere>(
        _ member: ConfinedMemberReference, object: AnyObject?, record: Record, here: Here
    ) -> Verdict {
        // 5. TM "Observing": the use is in the innermost serial context the thread holds — inside a raw
        //    `queue.sync {}` called from the main thread, that queue. There, a use of the record's
        //    context is legitimate; anywhere else the record moves there (or, outside anything serial,
        //    is detached) and the use is a step — the same thread included. The record remembers its
        //    most recent use (return addresses, captured outside the stripe), so that a step says where
        //    the context it leaves let go. A deinit's uses are no step (TM "Construct here, use there",
        //    destruction), and only a use through its object is one: the step is the object's.
        let context = here.observingContext
        let use = here.observedUse(of: member, in: context)
        var letGo: Observation.Use?
        let moved: Bool = record.withStripe {
            if record.excludes(member) { return false }
            let previous = record.exchangeLastUse(use)
            guard let owner = record.lockedOwner else {
                if let context { record.bindByFirstUse(to: context, member: member) }
                return true
            }
            if owner.id == context?.id {
                record.recordLegitimateUse(member)
                return false
            }
            // Known only when the last use was in the owner this step leaves (not before a hand-off).
            if let previous, previous.contextID == owner.id { letGo = previous }
            record.transfer(to: context, member: member)
            return true
        }
        guard moved, let object, !here.isDeallocating(object) else { return .pass }
        here.recordStep(of: object, createdAt: record.observedAt) {
            .use(
                record.named(member, on: object), stack: use.stack,
                letGo: letGo.map { (record.named($0.member, on: object), $0.stack) }
            )
        }
        return .pass
    }

    /// Rules 15–17: a use or transfer the record's rules refused (rule 0's refusal and a first use off
    /// anything serial are reported as they are). Inlined too, so that `report` is
    /// called in place: passed to a call, its captures would be copied on every slow path.
    @inline(__always)
    private static func refused<Here: VerdictHere>(
        _ refusal: Refusal, _ member: ConfinedMemberReference, object: AnyObject?, here: Here,
        report: (Refusal, ConfinedMemberReference) -> PendingReport
    ) -> Verdict {
        guard case .wrongContext(let owner, _) = refusal else {
            let pending = report(refusal, member)
            return .report(Delivery(pending.violation, to: handler(for: pending)))
        }
        // 15. TM "Construct here, use there" (destruction): nothing else holds an object whose deinit
        //     runs.
        if let object, here.isDeallocating(object) { return .pass }
        let pending = report(refusal, member)
        let handler = handler(for: pending)
        // 16. TM "What libdispatch knows" (the fallback): where the outcome is a trap anyway and the
        //     thread may run dispatch work the library cannot account for, libdispatch answers (drain
        //     lock, else `dispatchPrecondition` with the report armed: ARCHITECTURE.md "Invariants", the
        //     report is out before any trap). Not while a handler runs here: a violation raised there is
        //     printed, not asked about.
        if !here.isDelivering, ConfinementReporting.endsInTrap(pending.violation, handledBy: handler),
            here.mayHoldQueuesUnseen,
            here.dispatchConfirms(owner, elseTrapPrinting: ConfinementReporting.reportBeforeTrap(pending.violation))
        {
            return .pass
        }
        // 17. TM "The verdict, in order", the Reporting Violations article: anything else is a violation.
        return .report(Delivery(pending.violation, to: handler))
    }

    private static func handler(for pending: PendingReport) -> any ConfinementViolationHandler {
        ConfinementReporting.handler(for: pending.violation, objectHandler: pending.objectHandler)
    }

    /// Rules 6–9, under the stripe: a record without an owner.
    @inline(__always)
    private static func detachedRuling<Record: VerdictRecord, Here: VerdictHere>(
        _ access: CheckedAccess, member: ConfinedMemberReference?, newOwner: ExecutionContext?, record: Record, here: Here
    ) -> Ruling {
        guard let member else {
            // 6. TM "Detached objects, hand-off" (`isIsolated` on a pool thread): a use here would bind,
            //    unless nothing serial runs here.
            return here.bindableContext == nil ? .refused(.notSerial) : .pass
        }
        if access == .transfer {
            // Confinement `handOff`/`detach`: a detached record may be handed off from anywhere.
            record.transfer(to: newOwner, member: member)
            return .pass
        }
        // 7. TM "The verdict, in order" (exclusion wins): an excluded member binds nothing.
        if record.excludes(member) { return .pass }
        // 8. TM "The rule" (concurrent queues cannot be owners), "Detached objects, hand-off": a pool
        //    thread's next block or task is unrelated code, so nothing is bound to it.
        guard let context = here.bindableContext else { return .refused(.notSerial) }
        // 9. `Confinement.detached(file:line:)`: the first checked use binds the object where it runs,
        //    in the innermost serial context with a library identity (TM "Where am I").
        record.bindByFirstUse(to: context, member: member)
        return record.needsResolution ? .passResolving : .pass
    }

    /// A legitimate access under the stripe: a transfer is applied, a use is recorded in the history.
    @inline(__always)
    private static func legitimate<Record: VerdictRecord>(
        _ access: CheckedAccess, member: ConfinedMemberReference?, newOwner: ExecutionContext?, record: Record
    ) -> Ruling {
        if let member {
            if access == .transfer {
                record.transfer(to: newOwner, member: member)
                return .pass
            }
            record.recordLegitimateUse(member)
        }
        return record.needsResolution ? .passResolving : .pass
    }

    /// What the rules under the stripe conclude (small: it leaves the stripe on every slow path).
    private enum Ruling {
        case pass
        case passResolving
        case refused(Refusal)
    }

    /// The `report` argument of a question, which never reports (rule 14 answers first).
    package static func noReport(_ refusal: Refusal, _ member: ConfinedMemberReference) -> PendingReport {
        preconditionFailure("a question reports nothing")
    }
}

/// What a check is asked about. Trivial on purpose: the member travels beside it, borrowed, so that
/// nothing is copied on a legitimate slow path.
package enum CheckedAccess {
    /// A use of a guarded member, an accessor or a check verb: it may bind a detached record, and it is
    /// reported when it is not legitimate.
    case use
    /// ``Confinement/isIsolated`` and the other `is…` queries: binds nothing, reports nothing.
    case question
    /// ``Confinement/handOff(to:file:line:)`` or ``Confinement/detach(file:line:)``: made from the owner,
    /// or from anywhere while the record is detached; applied under the stripe when allowed.
    case transfer
}

/// Why an access is not legitimate (before the last rules, which may still let it pass).
package enum Refusal {
    /// The record is bound to `owner`, elsewhere.
    case wrongContext(owner: ExecutionContext, boundAt: PackedCodeLocation)
    /// A detached record's first use runs on a concurrent pool thread: nothing serial owns it.
    case notSerial
    /// A transfer of a record whose owner never changes (rule 0): `owner` stays; `boundAt` is where it
    /// was bound (``PackedCodeLocation/none`` for a record that keeps no site).
    case fixedOwner(owner: ExecutionContext?, boundAt: PackedCodeLocation)
}

/// The violation a refusal becomes, and the handler the object captured (built only for a report).
package struct PendingReport {
    package var violation: ConfinementViolation
    package var objectHandler: (any ConfinementViolationHandler)?

    package init(_ violation: ConfinementViolation, objectHandler: (any ConfinementViolationHandler)?) {
        self.violation = violation
        self.objectHandler = objectHandler
    }
}

/// The answer of `Checking.verdict`. Small on purpose (a report is one
/// reference): it is returned through the legitimate slow path, where a large payload would be copied.
package enum Verdict {
    /// Legitimate.
    case pass
    /// Legitimate, and the options' property entries still have to be matched to wrappers (the caller
    /// reads them, outside the stripe: each read re-enters the check).
    case passResolving
    /// A question's "no" (nothing is reported).
    case no
    /// Not legitimate: deliver the report (``ConfinementReporting/report(_:to:)``).
    case report(Delivery)
}

/// A violation and the handler it goes to, decided by the verdict and delivered by the caller.
package final class Delivery {
    package let violation: ConfinementViolation
    package let handler: any ConfinementViolationHandler

    init(_ violation: ConfinementViolation, to handler: any ConfinementViolationHandler) {
        self.violation = violation
        self.handler = handler
    }

    /// Delivers the violation to its handler.
    package func deliver() {
        Self.deliver(violation, to: handler)
    }

    /// Delivers `violation` to `handler` and, at the `observe` level, records the use as a step of a
    /// declared owner (``ConfinementReporting/observes(_:handledBy:)``): observation's one entry from
    /// a report, taken only where the handler is reached (not inside another handler, where the
    /// violation is printed instead).
    static func deliver(_ violation: ConfinementViolation, to handler: any ConfinementViolationHandler) {
        if ConfinementReporting.observes(violation, handledBy: handler), !ConfinementReporting.isDeliveringOnThisThread {
            Observation.record(.declared(violation), in: CurrentExecution.observed) { .declared(violation) }
        }
        ConfinementReporting.report(violation, to: handler)
    }
}

/// An ownership record as the verdict sees it: a ``Confinement``, or a ``FixedOwner`` (whose state is
/// always ``RecordWord/fixed(_:)``, so the rules about binding, windows and options never fire for it:
/// the defaults below say so).
///
/// The members marked "under the stripe" are read and called only inside ``withStripe(_:)``.
package protocol VerdictRecord {
    /// The state word, read without a lock.
    var word: RecordWord { get }
    /// Whether the owner was fixed at creation: no transfer is ever allowed (rule 0).
    var isFixed: Bool { get }
    /// Whether `object` stores this record (asked only of an unsettled record, for a use).
    func isStored(in object: AnyObject) -> Bool
    /// Closes the window of a record that `object` does not store and reports that once per type.
    func closeUnstored(on object: AnyObject, member: ConfinedMemberReference)
    /// Whether the options leave `member` unchecked, read without the lock (settled records only).
    func excludesWhenSettled(_ member: ConfinedMemberReference) -> Bool
    /// Runs `body` under the record's stripe (a fixed owner has nothing that changes: no lock).
    func withStripe<Result>(_ body: () -> Result) -> Result
    /// Under the stripe: the owner, or `nil` while detached.
    var lockedOwner: ExecutionContext? { get }
    /// Under the stripe: where the record was bound.
    var lockedBoundAt: PackedCodeLocation { get }
    /// Under the stripe: whether the calling code is the work still building the object (its
    /// construction window is open here), and for a task's window, whether the task still runs on the
    /// executor it built the object on.
    var constructionWindowHere: ConstructionWindowHere { get }
    /// Under the stripe: whether the options leave `member` unchecked (may settle the word from what
    /// earlier probes found).
    func excludes(_ member: ConfinedMemberReference) -> Bool
    /// Under the stripe: whether property options still have to be matched to wrappers.
    var needsResolution: Bool { get }
    /// Under the stripe: binds a detached record to `context` by its first use, `member`.
    func bindByFirstUse(to context: ExecutionContext, member: ConfinedMemberReference)
    /// Under the stripe: ends the construction window, if open, on the owner's first use.
    func endWindowOnOwnersUse(_ owner: ExecutionContext)
    /// Under the stripe: ends the construction window of the task that built the object, which now
    /// runs on another executor — for every record the task built in it.
    func endWindowOnExecutorHop()
    /// Under the stripe: records a legitimate use in the ownership history.
    func recordLegitimateUse(_ member: ConfinedMemberReference)
    /// Under the stripe: hands the record to `newOwner` (or detaches it) by `member`.
    func transfer(to newOwner: ExecutionContext?, member: ConfinedMemberReference)
    /// Where ``Confinement/observed(file:line:)`` created the record; `nil` for a record that reports.
    var observedAt: CodeLocation? { get }
    /// Under the stripe, an observed record's: remembers `use` as its most recent use and returns the
    /// one it replaces (where the context a step leaves let go).
    func exchangeLastUse(_ use: Observation.Use) -> Observation.Use?
    /// `member` as a report or a step names it (a `@Confined` property's name read from `object`'s
    /// fields). Reporting and observation paths only.
    func named(_ member: ConfinedMemberReference, on object: AnyObject) -> ConfinedMemberReference
}

/// Whether the calling code is the work that built a record's object, while its construction window
/// is open (rule 11).
package enum ConstructionWindowHere {
    /// No: the window is over, or it is other work's.
    case none
    /// The work that built the object (a library work item, a thread, a task), its window open.
    case open
    /// The task that built the object, its window open, now running on another executor than the one
    /// it built the object on (an actor's, the main actor's, or the generic executor after either).
    case creatingTaskOnAnotherExecutor
}

/// What the verdict reads of a record's state word without a lock.
package enum RecordWord {
    /// The owner never changes (``FixedOwner``): its context's id.
    case fixed(UInt)
    /// Bound, nothing left to do: the owner's context id (what the fast path compares).
    case settled(UInt)
    /// Detached, in a construction window, or options still to match: the stripe decides.
    case unsettled

    /// The owner's id when it can be judged without a lock.
    @inline(__always)
    var ownerID: UInt? {
        switch self {
        case .fixed(let id), .settled(let id): return id
        case .unsettled: return nil
        }
    }
}

extension VerdictRecord {
    package var isFixed: Bool { false }
    package func isStored(in object: AnyObject) -> Bool { true }
    package func closeUnstored(on object: AnyObject, member: ConfinedMemberReference) {}
    package func excludesWhenSettled(_ member: ConfinedMemberReference) -> Bool { false }
    package var constructionWindowHere: ConstructionWindowHere { .none }
    package func excludes(_ member: ConfinedMemberReference) -> Bool { false }
    package var needsResolution: Bool { false }
    package func bindByFirstUse(to context: ExecutionContext, member: ConfinedMemberReference) {}
    package func endWindowOnOwnersUse(_ owner: ExecutionContext) {}
    package func endWindowOnExecutorHop() {}
    package func recordLegitimateUse(_ member: ConfinedMemberReference) {}
    package func transfer(to newOwner: ExecutionContext?, member: ConfinedMemberReference) {}
    package var observedAt: CodeLocation? { nil }
    package func exchangeLastUse(_ use: Observation.Use) -> Observation.Use? { nil }
    package func named(_ member: ConfinedMemberReference, on object: AnyObject) -> ConfinedMemberReference { member }
}

/// "Here": what the verdict asks about the calling code. Production: ``CurrentHere``; tests: a fake.
package protocol VerdictHere {
    /// Records `site` if a property probe runs on this thread; whether one did.
    func recordIfProbing(_ site: PackedCodeLocation) -> Bool
    /// Whether the calling code runs in the context whose id is `id` (or a branch), by a layer the
    /// library tracks: frames, main thread, library queue, plain thread. No lock, no allocation.
    func holds(contextID id: UInt) -> Bool
    /// The same, and last libdispatch's drain lock for `owner`'s queue.
    func holds(_ owner: ExecutionContext) -> Bool
    /// The context a first use here binds to; `nil` on a concurrent pool thread.
    var bindableContext: ExecutionContext? { get }
    /// The context an observed record is in here: the innermost serial context the thread holds, a
    /// raw queue known by its label included; `nil` outside anything serial (a pool thread, a task).
    var observingContext: ExecutionContext? { get }
    /// Whether `object` is deallocating (its `deinit` runs).
    func isDeallocating(_ object: AnyObject) -> Bool
    /// Whether a violation is being delivered on this thread (a handler runs).
    var isDelivering: Bool { get }
    /// Whether the calling code may run in dispatch work the library cannot account for.
    var mayHoldQueuesUnseen: Bool { get }
    /// libdispatch's answer for `owner`'s queue: `true` if held, `false` if read and not held;
    /// otherwise traps (`dispatchPrecondition`) after arming `report` to print.
    func dispatchConfirms(_ owner: ExecutionContext, elseTrapPrinting report: String) -> Bool
    /// An observed record's use of `member` here, in `context`: the calling thread's return addresses,
    /// for the step it may make and as where its context lets go before a later one.
    func observedUse(of member: ConfinedMemberReference, in context: ExecutionContext?) -> Observation.Use
    /// Records a step of the observed `object` here (``Observation/record(_:in:step:)``); `step` builds
    /// it, only when it is kept.
    func recordStep(of object: AnyObject, createdAt: CodeLocation?, _ step: () -> Observation.Step)
}

/// The scheduling API of protected objects: hop to the object's owner and use the object there.
///
/// None of these members checks where it is called from — sending work to an object's owner is how
/// code that runs elsewhere is *meant* to reach the object. The object itself crosses to the owner
/// inside the work, which is safe whatever its type: it is only used by the work, and the work runs
/// only on the owner.
///
/// The members need the type's metatype to cross threads (`SendableMetatype`), which every class
/// whose `ConfinedObject` conformance is not isolated to a global actor satisfies.
extension ConfinedObject where Self: SendableMetatype {
    /// Runs `work` with this object on the object's owner, later (after the work already submitted
    /// there).
    ///
    /// The object must be bound to a scheduler (see ``Confinement/ownerScheduler``); for a
    /// detached object, or an owner that rejects work (shut down), the request is reported as a
    /// ``ConfinementViolation/Kind/rejectedWork`` violation at the precondition tier — never dropped.
    ///
    /// - Parameters:
    ///   - file: The call site, for a rejection report.
    ///   - line: The call site, for a rejection report.
    ///   - work: The work, given the object.
    public func schedule(
        file: StaticString = #fileID, line: UInt = #line, _ work: @escaping @Sendable (Self) -> Void
    ) {
        let scheduler = ownerSchedulerForScheduling(member: "schedule(_:)", file: file, line: line)
        let object = OwnerBound(self)
        scheduler.schedule({ work(object.value) }, file: file, line: line)
    }

    /// Runs `work` with this object now when the calling code already runs on the object's owner,
    /// otherwise schedules it there (see ``schedule(file:line:_:)``).
    ///
    /// - Parameters:
    ///   - file: The call site, for a rejection report.
    ///   - line: The call site, for a rejection report.
    ///   - work: The work, given the object.
    public func perform(
        file: StaticString = #fileID, line: UInt = #line, _ work: @escaping @Sendable (Self) -> Void
    ) {
        let scheduler = ownerSchedulerForScheduling(member: "perform(_:)", file: file, line: line)
        let object = OwnerBound(self)
        scheduler.performInlineOrSchedule(file: file, line: line) { work(object.value) }
    }

    /// Runs `body` with this object on the object's owner and returns its result to the caller.
    ///
    /// Runs `body` inline when the calling code already runs on the owner (an actor whose executor is
    /// the owner, for instance); otherwise suspends until the owner has run it. The work runs even if
    /// the calling task is cancelled meanwhile: it was already submitted.
    ///
    /// - Parameters:
    ///   - file: The call site, for a rejection report.
    ///   - line: The call site, for a rejection report.
    ///   - body: The work, given the object.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public func run<T: Sendable, E: Error>(
        file: StaticString = #fileID, line: UInt = #line, _ body: @escaping @Sendable (Self) throws(E) -> T
    ) async throws(E) -> T {
        let scheduler = ownerSchedulerForScheduling(member: "run(_:)", file: file, line: line)
        let object = OwnerBound(self)
        return try await scheduler.runInlineOrHop(file: file, line: line) { () throws(E) -> T in try body(object.value) }
    }

    /// The owner's scheduler, or a rejection report (precondition tier: it stops the process) when
    /// the object has none.
    func ownerSchedulerForScheduling(member: String, file: StaticString, line: UInt) -> any SerialScheduler {
        let protection = confinement
        if let scheduler = protection.ownerScheduler { return scheduler }
        let owner = protection.owner
        ScheduleReporting.report(
            .rejectedWork(
                member: member,
                owner: owner?.description ?? "none (detached)",
                callSite: CodeLocation(file: file, line: line),
                detail: owner.map {
                    "the object's owner \($0.description) has no scheduler (a plain thread, or its scheduler no "
                        + "longer exists); hand the object off to a scheduler first"
                } ?? "the object is detached, so there is no owner to send the work to; bind it with "
                    + "Confinement(owner:) or handOff(to:) first",
                object: self,
                ownerBoundAt: protection.boundAt
            ),
            objectHandler: protection.capturedHandler
        )
        // Reached only when the precondition tier did not trap, which it always does.
        fatalError("Schedulable: \(member): no owner scheduler")
    }
}

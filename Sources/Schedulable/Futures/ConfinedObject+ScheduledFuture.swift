extension ConfinedObject where Self: SendableMetatype {
    /// Starts `body` with this object on the object's owner and returns its future at once — STMQ's
    /// `[object future]`.
    ///
    /// The body runs after the work already submitted to the owner; the futures of one owner run in the order
    /// they were made.
    ///
    /// ```swift
    /// let count = uploads.future { uploads in uploads.pendingCount }
    /// …
    /// print(try count.present())
    /// ```
    ///
    /// Like ``schedule(file:line:_:)``, this does not check where it is called from, and the object
    /// must be bound to a scheduler: a detached object is reported as
    /// ``ConfinementViolation/Kind/rejectedWork`` (precondition tier). Violations and notes about the
    /// future go to the handler the object captured.
    ///
    /// - Parameters:
    ///   - file: Where the future is made, for reports.
    ///   - line: Where the future is made, for reports.
    ///   - body: The work, given the object. It may throw: ``ScheduledFuture/present(file:line:)`` rethrows.
    /// - Returns: The future of the body's value.
    public func future<Value: Sendable>(
        file: StaticString = #fileID, line: UInt = #line, _ body: @escaping @Sendable (Self) throws -> Value
    ) -> ScheduledFuture<Value> {
        let scheduler = ownerSchedulerForScheduling(member: "future(_:)", file: file, line: line)
        return makeFuture(on: scheduler, file: file, line: line, body)
    }

    /// A future of `body` with this object on `scheduler`, reporting to the object's handler.
    func makeFuture<Value: Sendable>(
        on scheduler: any SerialScheduler, file: StaticString, line: UInt, _ body: @escaping @Sendable (Self) throws -> Value
    ) -> ScheduledFuture<Value> {
        let object = OwnerBound(self)
        return ScheduledFuture.make(
            on: scheduler, handler: confinement.capturedHandler ?? ConfinementSystem.scopedHandler,
            createdAt: CodeLocation(file: file, line: line), body: { try body(object.value) }
        )
    }
}

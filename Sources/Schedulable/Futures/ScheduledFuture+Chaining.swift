extension ScheduledFuture {
    /// A future of `transform` applied to this future's value, run on the same scheduler once the value is
    /// there.
    ///
    /// An error skips `transform` and passes through.
    ///
    /// The transform is a new event of the scheduler, submitted when this future completes: it runs
    /// after this future's work, and after whatever reached the scheduler before that moment.
    ///
    /// - Parameters:
    ///   - file: Where the future is made, for reports.
    ///   - line: Where the future is made, for reports.
    ///   - transform: Turns the value into the new one; runs on ``scheduler``.
    /// - Returns: The future of the transformed value.
    public func map<NewValue: Sendable>(
        file: StaticString = #fileID, line: UInt = #line, _ transform: @escaping @Sendable (Value) throws -> NewValue
    ) -> ScheduledFuture<NewValue> {
        map(level: levelForDerivedFuture(), file: file, line: line, transform)
    }

    /// ``map(file:line:_:)`` at a given level (``flatMap(file:line:_:)`` derives once for both its
    /// futures).
    private func map<NewValue: Sendable>(
        level: EntanglementLevel, file: StaticString, line: UInt, _ transform: @escaping @Sendable (Value) throws -> NewValue
    ) -> ScheduledFuture<NewValue> {
        let mapped = ScheduledFuture<NewValue>(
            scheduler: scheduler, createdAt: CodeLocation(file: file, line: line), handler: capturedHandler,
            entanglementLevel: level,
            site: WorkSite(location: PackedCodeLocation(file: file, line: line), function: nil)
        )
        if level.runsInThePresent {
            // In the present: this value first (waiting for it as present() does, with its note and its
            // deadlock detection), then the transform, run inline — the future is complete on return.
            switch Result(catching: { try present(file: file, line: line) }) {
            case .success(let value): mapped.start(FutureJob(future: mapped) { try transform(value) })
            case .failure(let error): mapped.complete(.failure(error))
            }
            return mapped
        }
        onComplete { result in
            switch result {
            case .success(let value):
                mapped.start(FutureJob(future: mapped) { try transform(value) })
            case .failure(let error):
                mapped.complete(.failure(error))
            }
        }
        return mapped
    }

    /// A future that continues with the future `transform` returns — to start dependent work, on this
    /// scheduler or another, once this value is there.
    ///
    /// An error skips `transform` and passes through.
    ///
    /// `transform` runs on ``scheduler`` (see ``map(file:line:_:)``). The returned future belongs to
    /// this scheduler: ``present(file:line:)`` detects a deadlock on it (and its tree), not on the
    /// scheduler of the future `transform` returns.
    ///
    /// - Parameters:
    ///   - file: Where the future is made, for reports.
    ///   - line: Where the future is made, for reports.
    ///   - transform: Starts the next step from the value; runs on ``scheduler``.
    /// - Returns: A future of the next step's value.
    public func flatMap<NewValue: Sendable>(
        file: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (Value) throws -> ScheduledFuture<NewValue>
    ) -> ScheduledFuture<NewValue> {
        let level = levelForDerivedFuture()
        let flattened = ScheduledFuture<NewValue>(
            scheduler: scheduler, createdAt: CodeLocation(file: file, line: line), handler: capturedHandler,
            entanglementLevel: level,
            site: WorkSite(location: PackedCodeLocation(file: file, line: line), function: nil)
        )
        let transformed = map(level: level, file: file, line: line) { value in
            // The transform is the flattened future's own work: it begins only if that future was not
            // cancelled, and once it has begun, cancelling that future changes nothing.
            guard flattened.beginWork().runs else {
                throw FutureError(reason: .cancelled, schedulerLabel: flattened.scheduler.label, createdAt: flattened.createdAt)
            }
            return try transform(value)
        }
        if level.runsInThePresent {
            // The transform has run; the future it returned is collected in the present as well.
            flattened.complete(Result { try transformed.present(file: file, line: line).present(file: file, line: line) })
            return flattened
        }
        transformed.onComplete { result in
            switch result {
            case .success(let next):
                next.onComplete { flattened.complete($0) }
            case .failure(let error):
                flattened.complete(.failure(error))
            }
        }
        return flattened
    }

    /// Runs `body` with the outcome on `scheduler` once it is there — STMQ's `whenPresent:`, which never
    /// waits.
    ///
    /// The outcome is a `Result` so that a failed future cannot be dropped silently.
    ///
    /// `body` is always a new event of the target scheduler, even when the value is already there:
    /// it never runs before this call returns. A target that was shut down reports
    /// ``ConfinementViolation/Kind/rejectedWork`` (see ``SerialScheduler/schedule(_:file:line:function:)``).
    ///
    /// - Parameters:
    ///   - scheduler: Where `body` runs. Default: the library scheduler running the calling code
    ///     (the main scheduler on the main thread), else the future's own ``scheduler``.
    ///   - file: The call site, for a rejection report.
    ///   - line: The call site, for a rejection report.
    ///   - body: Receives the value or the error.
    public func whenPresent(
        on scheduler: (any SerialScheduler)? = nil, file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        let target = scheduler ?? SchedulerRegistry.currentScheduler ?? self.scheduler
        onComplete { result in
            target.submit(member: "schedule(_:)", file: file, line: line) { body(result) }
        }
    }

    /// The value, for async code: suspends the task (never a thread) until the work has finished.
    ///
    /// No deadlock is possible here and no note is sent: a suspended task holds no scheduler, even
    /// when it runs on an actor whose executor is the future's scheduler. Cancelling the task does
    /// not cancel the work, and the wait goes on until the value is there.
    ///
    /// - Throws: The body's error, or a ``FutureError`` when the work never ran.
    public var value: Value {
        get async throws {
            let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, any Error>, Never>) in
                onComplete { continuation.resume(returning: $0) }
            }
            return try result.get()
        }
    }
}

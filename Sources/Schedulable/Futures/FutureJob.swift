/// One future's work, carried to its scheduler inside an event.
final class FutureJob<Value: Sendable>: Sendable {
    let future: ScheduledFuture<Value>
    private let body: @Sendable () throws -> Value

    init(future: ScheduledFuture<Value>, body: @escaping @Sendable () throws -> Value) {
        self.future = future
        self.body = body
    }

    /// Runs the body (on behalf of a blocked caller, if one lent its chain) and completes the future.
    func run() {
        let result: Result<Value, any Error>
        let start = future.beginWork()
        // Cancelled before it began: the future already has its outcome, and the body never runs.
        guard start.runs else { return }
        if let blockedCaller = start.blockedCaller {
            // The caller stays blocked until `complete` below wakes it, so its chain is valid for the
            // whole body.
            result = future.scheduler.executionContext.run(onBehalfOf: blockedCaller, site: future.site) {
                Result { try body() }
            }
        } else {
            result = Result { try body() }
        }
        future.complete(result)
    }

    deinit {
        // Released without having run: the scheduler dropped accepted work. Completing here keeps
        // every waiter from hanging. (After `run` the future is complete; skip building the error.)
        if future.isPresent { return }
        future.complete(
            .failure(FutureError(reason: .discarded, schedulerLabel: future.scheduler.label, createdAt: future.createdAt))
        )
    }
}

extension ScheduledFuture {
    /// Makes a future on `scheduler` and starts its work.
    static func make(
        on scheduler: any SerialScheduler, handler: (any ConfinementViolationHandler)?, file: StaticString, line: UInt,
        body: @escaping @Sendable () throws -> Value
    ) -> ScheduledFuture<Value> {
        let future = ScheduledFuture(
            scheduler: scheduler, createdAt: CodeLocation(file: file, line: line), handler: handler,
            entanglementLevel: FutureSystem.defaultEntanglementLevel,
            site: WorkSite(location: PackedCodeLocation(file: file, line: line), function: nil)
        )
        future.start(FutureJob(future: future, body: body))
        return future
    }
}

/// A value that work on a scheduler is computing: started now, collected later — STMQ's futures on
/// this library's schedulers.
///
/// ```swift
/// let layout = timeline.future { timeline in timeline.layout(hiding: event) }  // on its owner
/// let other = timeline.future { timeline in timeline.layout(hiding: calendar) }
/// …                                            // the user picks one meanwhile
/// let frames = try layout.present()            // the value (or the body's error)
/// ```
///
/// Make futures with ``SchedulableObject/future(file:line:_:)`` (on the wrapper's scheduler),
/// `future(_:)` of a ``FutureScheduled`` type (on the scheduler the type chose) or
/// ``SerialScheduler/future(file:line:_:)``. The futures of one scheduler run one at a time, in the order
/// they were made (each is an event of the scheduler, after the work already submitted there).
///
/// Collect the value in one of three ways:
/// - ``present(file:line:)`` blocks until the value is there. When it has to wait it sends a
///   "waiting required" note (see ``FutureSystem/logsWhenWaitingIsRequired``); called where the work
///   must run, before it ran, it reports a ``ConfinementViolation/Kind/deadlock`` and throws instead of
///   hanging.
/// - ``whenPresent(on:file:line:_:)`` runs a closure on a scheduler once the value is there.
/// - `await` ``value`` suspends a task.
///
/// A future always completes: with the body's value, with the body's error, or with a
/// ``FutureError`` when the scheduler was shut down before it could run the work.
public final class ScheduledFuture<Value: Sendable>: Sendable {
    /// Called once with the outcome, on the thread that completes the future.
    typealias Callback = @Sendable (Result<Value, any Error>) -> Void

    /// The scheduler that runs the future's work.
    public let scheduler: any SerialScheduler

    /// Where the future was made (``SerialScheduler/future(file:line:_:)``, `map`, …).
    public let createdAt: CodeLocation

    /// The handler that was in scope when the future was made (the object's, for an object's
    /// future), so that its reports reach the same place as the object's violations.
    let capturedHandler: (any ConfinementViolationHandler)?

    private struct State {
        var result: Result<Value, any Error>?
        /// The work has begun; from then on no caller may lend it a context chain.
        var started = false
        /// A caller blocked in `present()` before the work began: the work runs on its behalf.
        var blockedCaller: BlockedCallerToken?
        var callbacks: [Callback] = []
        /// How far futures derived from this one may queue their work.
        var entanglementLevel: EntanglementLevel
        /// A future was derived from this one: its level is fixed from then on.
        var hasDerived = false
        /// The work was queued as an event of the scheduler (not run in the present).
        var wasQueued = false
    }

    private let state: LockedValue<State>
    /// Where the future was made, published while its work runs.
    let site: WorkSite

    init(
        scheduler: any SerialScheduler, createdAt: CodeLocation, handler: (any ConfinementViolationHandler)?,
        entanglementLevel: EntanglementLevel, site: WorkSite = .unrecorded
    ) {
        self.scheduler = scheduler
        self.site = site
        self.createdAt = createdAt
        self.capturedHandler = handler
        self.state = LockedValue(State(entanglementLevel: entanglementLevel))
    }

    /// How far futures derived from this one may queue their work (see ``EntanglementLevel``).
    public var entanglementLevel: EntanglementLevel {
        state.withLock { $0.entanglementLevel }
    }

    /// Changes ``entanglementLevel`` — STMQ's `setEntanglementLevel:` on one future — as long as no
    /// future has been derived from this one yet.
    ///
    /// - Parameter level: The new level; it bounds the futures derived from this one from now on.
    /// - Returns: `true` when the level was set; `false`, leaving it unchanged, once a future was
    ///   derived from this one (its chain was already shaped by the old level).
    @discardableResult
    public func setEntanglementLevel(_ level: EntanglementLevel) -> Bool {
        state.withLock { state in
            guard !state.hasDerived else { return false }
            state.entanglementLevel = level
            return true
        }
    }

    /// Whether the work was queued as an event of the scheduler rather than run in the present (for
    /// this package's tests, which count the events a chain queues).
    package var wasQueued: Bool {
        state.withLock { $0.wasQueued }
    }

    /// The level of a future derived from this one now; fixes this future's level for good.
    func levelForDerivedFuture() -> EntanglementLevel {
        state.withLock { state in
            state.hasDerived = true
            return state.entanglementLevel.derived
        }
    }

    /// Whether the value (or an error) is there: ``present(file:line:)`` would return at once.
    public var isPresent: Bool {
        state.withLock { $0.result != nil }
    }

    // MARK: Collecting

    /// Returns the value, waiting for the work to finish if it has not yet.
    ///
    /// - When the work has finished, returns at once.
    /// - Otherwise, when the calling code runs on the future's scheduler — or holds it: a branch of
    ///   the same tree, a caller blocked in a synchronous call whose context is lent here — the work
    ///   cannot run until the caller returns, so waiting would never end. That is reported as a
    ///   ``ConfinementViolation/Kind/deadlock`` violation (assert tier, in every build: the default trap
    ///   handler of debug builds stops there; a log handler logs it) and, if the handler returns,
    ///   `present` throws ``FutureError/Reason/wouldDeadlock`` at once.
    /// - Otherwise it waits, after sending a ``ConfinementViolation/Kind/waitingRequired`` note with this
    ///   call site (unless ``FutureSystem/logsWhenWaitingIsRequired`` is off). A thread scheduler's
    ///   event keeps its loop turning while it waits, like ``ThreadScheduler/sync(file:line:function:_:)``, so
    ///   the work may call back into it; any other caller blocks, and if the work has not begun yet
    ///   it runs on the caller's behalf (the caller's objects pass their checks inside it).
    ///
    /// - Parameters:
    ///   - file: The call site, for the note and the deadlock report.
    ///   - line: The call site, for the note and the deadlock report.
    /// - Returns: The value the body returned.
    /// - Throws: The body's error; ``FutureError`` when the work never ran or waiting would deadlock.
    public func present(file: StaticString = #fileID, line: UInt = #line) throws -> Value {
        if let result = state.withLock({ $0.result }) { return try result.get() }
        if callerHoldsScheduler {
            reportDeadlock(callSite: CodeLocation(file: file, line: line))
            throw FutureError(reason: .wouldDeadlock, schedulerLabel: scheduler.label, createdAt: createdAt)
        }
        CallerWait.wait(lendingQoSTo: (scheduler as? ThreadScheduler)?.loop) { blockedCaller, wake in
            let waits = state.withLock { state -> Bool in
                if state.result != nil { return false }
                if let blockedCaller, !state.started, state.blockedCaller == nil {
                    state.blockedCaller = blockedCaller
                }
                state.callbacks.append { _ in wake() }
                return true
            }
            if !waits {
                wake()
            } else if FutureSystem.logsWhenWaitingIsRequired {
                reportWaiting(callSite: CodeLocation(file: file, line: line))
            }
        }
        return try state.withLock({ $0.result })!.get()
    }

    /// Whether the work cannot run while the calling code runs: the calling code runs on the
    /// scheduler or on anything that drains through it (a branch's tree, a sibling branch), or holds
    /// it through a lent chain.
    var callerHoldsScheduler: Bool {
        CurrentExecution.waitingWouldDeadlock(on: scheduler.executionContext)
    }

    // MARK: Completing (module)

    /// Calls `callback` with the outcome: at once when there is one, otherwise when it arrives.
    func onComplete(_ callback: @escaping Callback) {
        let result = state.withLock { state -> Result<Value, any Error>? in
            if state.result == nil { state.callbacks.append(callback) }
            return state.result
        }
        if let result { callback(result) }
    }

    /// Sets the outcome (the first one wins) and calls the callbacks, in the order they were added.
    ///
    /// - Parameters:
    ///   - result: The outcome.
    ///   - onlyBeforeStart: Set it only if the work has not begun (cancellation).
    /// - Returns: Whether this call set the outcome.
    @discardableResult
    func complete(_ result: Result<Value, any Error>, onlyBeforeStart: Bool = false) -> Bool {
        let callbacks = state.withLock { state -> [Callback]? in
            guard state.result == nil, !(onlyBeforeStart && state.started) else { return nil }
            state.result = result
            state.blockedCaller = nil
            defer { state.callbacks = [] }
            return state.callbacks
        }
        guard let callbacks else { return false }
        callbacks.forEach { $0(result) }
        return true
    }

    /// Marks the work as begun and hands over the blocked caller it runs for, if any. `runs` is false
    /// when the future already has an outcome (it was cancelled): the work must not run.
    func beginWork() -> (runs: Bool, blockedCaller: BlockedCallerToken?) {
        state.withLock { state in
            if state.result != nil { return (false, nil) }
            state.started = true
            return (true, state.blockedCaller.take())
        }
    }

    /// Starts `job`: submits it to the scheduler, or — at entanglement level 0 — runs it to completion
    /// before returning.
    func start(_ job: FutureJob<Value>) {
        if entanglementLevel.runsInThePresent {
            runInline(job)
        } else {
            state.withLock { $0.wasQueued = true }
            submit(job)
        }
    }

    private func submit(_ job: FutureJob<Value>) {
        // The job must outlive a rejection: its deinit would otherwise complete the future as
        // "discarded" before the rejection is recorded.
        withExtendedLifetime(job) {
            do {
                try scheduler.trySchedule({ job.run() }, site: site)
            } catch {
                complete(.failure(FutureError(reason: .rejected, schedulerLabel: scheduler.label, createdAt: createdAt)))
            }
        }
    }

    private func runInline(_ job: FutureJob<Value>) {
        let context = scheduler.executionContext
        if callerHoldsScheduler, !context.isIsolated, context.root.kind.isThreadAffine {
            // Held only on the main thread's behalf, elsewhere: running main's work here would run it
            // off its thread, and waiting for main would never end.
            ConfinementReporting.report(.deadlockWaiting(on: context, member: "future(_:)"), objectHandler: capturedHandler)
            return
        }
        if callerHoldsScheduler {
            // Exclusion already holds (this code is the scheduler, or blocks it): run here, inside the
            // scheduler's context, so the body's checks see its owner.
            scheduler.executionContext.run(site: site) { job.run() }
            return
        }
        CallerWait.wait(lendingQoSTo: (scheduler as? ThreadScheduler)?.loop) { blockedCaller, wake in
            // Before the submission, so that the work always runs on a blocked caller's behalf.
            if let blockedCaller { state.withLock { $0.blockedCaller = blockedCaller } }
            onComplete { _ in wake() }
            submit(job)
        }
    }

    // MARK: Reports

    private var typeName: String { String(describing: ScheduledFuture<Value>.self) }

    private func reportDeadlock(callSite: CodeLocation) {
        ConfinementReporting.report(
            ConfinementViolation(
                kind: .deadlock,
                tier: .assert,
                objectType: typeName,
                member: "present()",
                expectedOwner: scheduler.executionContext.description,
                actualContext: CurrentExecution.description,
                callSite: callSite,
                detail: "the future made at \(createdAt) has not finished, and its work cannot run while this code "
                    + "runs on (or holds) \(scheduler.executionContext.description); present() throws "
                    + "FutureError.wouldDeadlock instead of waiting forever. Call present() from elsewhere, or use "
                    + "whenPresent(on:) or await value"
            ).capturingAccessSite(),
            objectHandler: capturedHandler
        )
    }

    private func reportWaiting(callSite: CodeLocation) {
        ConfinementReporting.report(
            ConfinementViolation(
                kind: .waitingRequired,
                tier: .note,
                objectType: typeName,
                member: "present()",
                expectedOwner: scheduler.executionContext.description,
                actualContext: CurrentExecution.description,
                callSite: callSite,
                detail: "the future made at \(createdAt) had not finished, so present() waited for it; start it "
                    + "earlier or use whenPresent(on:) to avoid the wait (FutureSystem.logsWhenWaitingIsRequired "
                    + "= false turns this note off)"
            ).capturingAccessSite(),
            objectHandler: capturedHandler
        )
    }
}

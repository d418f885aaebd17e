extension ScheduledFuture {
    /// Cancels the future's work if it has not begun: the future completes at once with
    /// ``FutureError/Reason/cancelled`` and the work never runs.
    ///
    /// Work that has begun (it runs on its scheduler right now) or finished is not affected: the
    /// future keeps the outcome its work gives it, and this returns `false`. The race between
    /// `cancel()` and the scheduler starting the work is decided under the future's lock, so exactly
    /// one of them wins.
    ///
    /// ```swift
    /// let preview = renderer.future { $0.render(draft) }
    /// …                                           // the user closed the draft
    /// preview.cancel()                            // never rendered if it had not started
    /// ```
    ///
    /// Waiters wake up with the error: ``present(file:line:)`` throws it, ``value`` throws it, and
    /// ``whenPresent(on:file:line:_:)`` receives it. Futures derived with ``map(file:line:_:)`` and
    /// ``flatMap(file:line:_:)`` fail with the same error (their transforms never run). Cancelling a
    /// derived future stops its own transform if that has not begun, never the future it was derived
    /// from.
    ///
    /// - Returns: Whether this call cancelled the work; `false` when the work had begun or the future
    ///   already had its outcome.
    @discardableResult
    public func cancel() -> Bool {
        complete(
            .failure(FutureError(reason: .cancelled, schedulerLabel: scheduler.label, createdAt: createdAt)),
            onlyBeforeStart: true
        )
    }
}

extension SchedulerBound {
    /// Binds `value`, which already lives on `owner`, to it — for a value that is not *sent* into the
    /// box because other references to it stay on the owner (part of a graph built there).
    ///
    /// Call it on `owner`: that is checked in every build (the precondition tier). Anywhere else the
    /// call is reported and the process stops before the box exists, as with swift-nio's
    /// `NIOLoopBound` initializer that takes a value which is not `sending`.
    ///
    /// ```swift
    /// let (cache, index) = images.sync {
    ///     let cache = ImageCache()
    ///     return (SchedulerBound(cache, onCurrent: images), SchedulerBound(Index(cache), onCurrent: images))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - value: The value to protect; every other reference to it must also be used only on
    ///     `owner`, which holds when it is built there and reached through boxes.
    ///   - owner: The scheduler that may access it; the calling code must run on it.
    ///   - file: The bind site, for reports.
    ///   - line: The bind site, for reports.
    @inlinable
    public init(_ value: Value, onCurrent owner: some SerialScheduler, file: StaticString = #fileID, line: UInt = #line) {
        // No construction window: the always-on tier must never let a second thread through.
        _owner = FixedOwner(owner.executionContext, boundAt: PackedCodeLocation(file: file, line: line))
        _value = value
        // The value may keep references elsewhere only because they are all on the owner, so the box
        // must be made there: the same argument as NIOLoopBound's non-sending initializer.
        _check("init(_:onCurrent:)", file, line)
    }
}

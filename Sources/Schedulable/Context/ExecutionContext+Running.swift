import CSchedulableContext

/// Entering a context: the frames schedulers push on the thread-local chain around the work they run.
extension ExecutionContext {
    /// Runs `body` with this context as the current one on this thread, then restores the previous one.
    ///
    /// The library's schedulers call this around every piece of work they run; checks made inside
    /// `body` for objects owned by this context take the fast path. Not public: marking a thread as
    /// running a context is what a scheduler does, and custom schedulers do it through their
    /// ``ExecutionContext/Runner``.
    package func run<T, E: Error>(site: WorkSite = .unrecorded, _ body: () throws(E) -> T) throws(E) -> T {
        try _run(outer: csched_top_frame(), site: site, body)
    }

    /// Runs `body` on behalf of a caller that is blocked until `body` returns (a synchronous call
    /// that had to execute on another thread): the caller's contexts stay valid inside `body`, since
    /// the caller can do nothing else meanwhile.
    ///
    /// Never pass the token of a caller that keeps doing other work while it waits (a thread scheduler
    /// that pumps its own loop): two threads would then both pass checks for that caller's objects.
    package func run<T, E: Error>(
        onBehalfOf blockedCaller: BlockedCallerToken, site: WorkSite = .unrecorded, _ body: () throws(E) -> T
    ) throws(E) -> T {
        try _run(outer: blockedCaller.frame, site: site, body)
    }

    /// ``_run(outer:site:_:)`` for work whose scheduling site is unknown (a custom scheduler's runner).
    @usableFromInline
    func _run<T, E: Error>(outer: UnsafePointer<csched_frame>?, _ body: () throws(E) -> T) throws(E) -> T {
        try _run(outer: outer, site: .unrecorded, body)
    }

    /// Pushes the frame and publishes `site` as what this context runs now (``workSlot``), started now;
    /// both are undone when `body` returns, restoring an item this one was nested in.
    func _run<T, E: Error>(
        outer: UnsafePointer<csched_frame>?, site: WorkSite, _ body: () throws(E) -> T
    ) throws(E) -> T {
        var frame = csched_frame()
        var saved = csched_work_saved()
        return try withUnsafeMutablePointer(to: &frame) { (pointer) throws(E) -> T in
            try withUnsafeMutablePointer(to: &saved) { (savedPointer) throws(E) -> T in
                csched_enter(pointer, UInt(id), Unmanaged.passUnretained(self).toOpaque(), outer)
                csched_work_begin(workSlot, site.location.bits, site.function, savedPointer)
                defer {
                    csched_work_end(workSlot, savedPointer)
                    csched_leave(pointer)
                }
                return try body()
            }
        }
    }
}

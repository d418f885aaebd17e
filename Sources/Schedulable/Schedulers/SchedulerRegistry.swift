/// Which scheduler runs a context's work, by context id — so that a context (the identity, a lower
/// layer) never refers to its scheduler.
///
/// Needed where the library only has a context and must send work to it: an object bound by its first
/// use to the context that use ran in (`object.schedule { }` then needs that context's scheduler),
/// and `whenPresent` with no explicit target. Entries are weak: a registry entry never keeps a
/// scheduler alive, and a scheduler removes its entry when it goes away.
package enum SchedulerRegistry {
    private struct Entry {
        weak var scheduler: (any SerialScheduler)?
    }

    private static let entries = LockedValue<[UInt: Entry]>([:])

    /// Records that `scheduler` runs its context's work. Library schedulers call it once, when they are
    /// created; the last scheduler registered for a context wins (a queue wrapped twice).
    package static func register(_ scheduler: some SerialScheduler) {
        let id = scheduler.executionContext.id
        entries.withLock { $0[id] = Entry(scheduler: scheduler) }
    }

    /// Drops the entry for `contextID` if its scheduler is gone. Schedulers call it from `deinit`, where
    /// their own weak references already read `nil`.
    package static func forget(_ contextID: UInt) {
        entries.withLock { entries in
            if let entry = entries[contextID], entry.scheduler == nil { entries[contextID] = nil }
        }
    }

    /// The scheduler that runs `context`'s work, if it still exists and is known (the main context's
    /// is always ``MainThreadScheduler/shared``).
    package static func scheduler(for context: ExecutionContext) -> (any SerialScheduler)? {
        if context.kind == .main { return MainThreadScheduler.shared }
        return entries.withLock { $0[context.id]?.scheduler }
    }

    /// The library scheduler running the calling code, if any: the resolver's innermost layer with a
    /// library identity (a raw queue known by its label only is passed over) — a frame's scheduler, a
    /// library queue entered or reached directly, the main scheduler on the main thread.
    package static var currentScheduler: (any SerialScheduler)? {
        if case .frame(let context, _)? = CurrentExecution.first(where: hasIdentity), let scheduler = scheduler(for: context) {
            return scheduler
        }
        switch CurrentExecution.first(includingFrames: false, where: hasIdentity) {
        case .mainThread?: return MainThreadScheduler.shared
        case .queue(let context)?: return scheduler(for: context)
        case .frame?, .thread?, .rawQueue?, nil: return nil
        }
    }

    private static func hasIdentity(_ layer: ExecutionLayer) -> Bool {
        if case .rawQueue = layer { return false }
        return true
    }
}

import CSchedulableContext
import Dispatch

/// The identity that ownership checks compare against: one per scheduler (and one per branch).
///
/// A check asks one question: "is the code running right now inside this context?" The answer comes
/// from a thread-local token that the library's schedulers set while they run work (one load and a
/// compare on the fast path), with exact fallbacks for work that reached a queue behind the library's
/// back, for synchronous calls that block the owner, for target-queue chains and for the main thread.
///
/// Context ids are process-unique and never reused, so a new thread that happens to reuse a dead
/// thread's `pthread_t` can never pass a check for the dead thread's objects.
///
/// Custom schedulers create their own context and run each piece of work inside ``run(_:)``.
public final class ScheduleContext: Sendable, CustomStringConvertible {
    /// What kind of execution context this is; used for report wording and for the fallbacks.
    package enum Kind: Sendable {
        case main
        case queue
        case thread
        case threadScheduler
        case custom
    }

    /// The scheduler's label (`com.app.network.images`, "main thread", …).
    public let label: String

    /// The context this one is a branch of, if any. Work running in a branch also holds its parent:
    /// a branch's queue targets the parent's, so their work never overlaps.
    public let parent: ScheduleContext?

    /// The process-unique id the fast path compares with the thread-local token.
    @usableFromInline
    package let id: UInt

    package let kind: Kind

    /// The serial queue behind a queue context, so a failing check can ask libdispatch itself before
    /// trapping. Weak: the queue keeps its context alive (as a queue-specific value), not the reverse.
    package weak let queue: DispatchQueue?

    /// The scheduler that runs this context's work, so that a protected object can be scheduled onto
    /// its owner (`object.schedule { }`). Weak: a context never keeps its scheduler alive.
    private let attachedScheduler = ScheduleLock(WeakSchedulerReference())

    /// Creates a context for a custom scheduler.
    ///
    /// - Parameters:
    ///   - label: A human-readable name used in violation reports.
    ///   - parent: The context whose exclusion this one shares (a branch's tree), if any.
    public convenience init(label: String, parent: ScheduleContext? = nil) {
        self.init(label: label, parent: parent, kind: .custom, id: UInt(csched_next_id()))
    }

    package init(label: String, parent: ScheduleContext?, kind: Kind, id: UInt, queue: DispatchQueue? = nil) {
        self.label = label
        self.parent = parent
        self.kind = kind
        self.id = id
        self.queue = queue
    }

    /// Records the scheduler that runs this context's work (library schedulers call it once, when
    /// they are created).
    package func attach(_ scheduler: some Scheduler) {
        attachedScheduler.withLock { $0.scheduler = scheduler }
    }

    /// The scheduler that runs this context's work, if it still exists and is known (the main
    /// context's is always ``MainScheduler/shared``).
    package var scheduler: (any Scheduler)? {
        if kind == .main { return MainScheduler.shared }
        return attachedScheduler.withLock { $0.scheduler }
    }

    /// The main thread's context (also the context of `DispatchQueue.main` work).
    public static let main: ScheduleContext = {
        let context = ScheduleContext(
            label: "main thread", parent: nil, kind: .main, id: UInt(CSCHED_MAIN_CONTEXT_ID)
        )
        // On Linux `dispatchMain()` parks the main thread and drains the main queue on a worker
        // thread; the queue-specific value lets checks recognise that work as main-thread work.
        DispatchQueue.main.setSpecific(key: scheduleContextQueueKey, value: context)
        return context
    }()

    /// A textual description for reports, e.g. `queue "com.app.uploads"`.
    public var description: String {
        switch kind {
        case .main: return "main thread"
        case .queue: return "queue \"\(label)\""
        case .thread: return label
        case .threadScheduler: return "thread scheduler \"\(label)\""
        case .custom: return "scheduler \"\(label)\""
        }
    }

    /// Whether the current code runs inside this context (or inside one of its branches).
    ///
    /// May give a false "no" only for work that reached a foreign queue behind the library's back in
    /// ways no non-trapping API can see (documented in the Threading Model article); never a false
    /// "yes".
    @inlinable
    public var isCurrent: Bool {
        if UInt(csched_current_id()) == id { return true }
        return _isCurrentSlow()
    }

    /// Whether `self` is `other` or one of `other`'s branches (at any depth).
    package func isWithin(_ other: ScheduleContext) -> Bool {
        var candidate: ScheduleContext? = self
        while let context = candidate {
            if context.id == other.id { return true }
            candidate = context.parent
        }
        return false
    }

    /// Runs `body` with this context as the current one on this thread, then restores the previous one.
    ///
    /// Schedulers call this around every piece of work they run; checks made inside `body` for objects
    /// owned by this context take the fast path.
    @inlinable
    public func run<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        try _run(outer: csched_top_frame(), body)
    }

    /// Runs `body` on behalf of a caller that is blocked until `body` returns (a synchronous call
    /// that had to execute on another thread): the caller's contexts stay valid inside `body`, since
    /// the caller can do nothing else meanwhile.
    ///
    /// Never pass the token of a caller that keeps doing other work while it waits (a thread scheduler
    /// that pumps its own loop): two threads would then both pass checks for that caller's objects.
    package func run<T, E: Error>(
        onBehalfOf blockedCaller: BlockedCallerToken, _ body: () throws(E) -> T
    ) throws(E) -> T {
        try _run(outer: blockedCaller.frame, body)
    }

    @usableFromInline
    func _run<T, E: Error>(outer: UnsafePointer<csched_frame>?, _ body: () throws(E) -> T) throws(E) -> T {
        var frame = csched_frame()
        return try withUnsafeMutablePointer(to: &frame) { (pointer) throws(E) -> T in
            csched_enter(pointer, UInt(id), Unmanaged.passUnretained(self).toOpaque(), outer)
            defer { csched_leave(pointer) }
            return try body()
        }
    }
}

private struct WeakSchedulerReference {
    weak var scheduler: (any Scheduler)?
}

/// The current thread's context chain, captured by a caller that is about to block on a synchronous
/// call, so that the work it waits for can be run on its behalf (see
/// ``ScheduleContext/run(onBehalfOf:_:)``).
package struct BlockedCallerToken: @unchecked Sendable {
    // Points into the blocked caller's stack. Valid only while that caller stays blocked, which is
    // exactly the lifetime of the synchronous call that carries it; never stored beyond it.
    package let frame: UnsafePointer<csched_frame>?

    /// Runs `body` with a token for the calling thread's whole chain. Code with no library frame
    /// (top-level main-thread code, raw work on a library queue, a plain thread that owns objects)
    /// gets a frame for that context first, so the chain it lends says what it holds.
    package static func withCurrent<T, E: Error>(_ body: (BlockedCallerToken) throws(E) -> T) throws(E) -> T {
        if csched_top_frame() == nil, let context = ScheduleContext.unframedCurrent {
            return try context.run { () throws(E) -> T in try body(BlockedCallerToken(frame: csched_top_frame())) }
        }
        return try body(BlockedCallerToken(frame: csched_top_frame()))
    }
}

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
/// Only the scheduler that made a context can run work in it: library schedulers inside the module,
/// a custom scheduler through the ``Runner`` it keeps to itself. Code that merely sees a context (every
/// scheduler's `executionContext` is public) cannot mark a thread as running in it, so an owner cannot
/// be impersonated.
public final class ExecutionContext: Sendable, CustomStringConvertible {
    /// What kind of execution context this is; used for report wording and for the fallbacks.
    package enum Kind: Sendable {
        case main
        case queue
        case thread
        case threadScheduler
        case custom

        /// Whether the owner is a thread and not only an exclusion: work on behalf of a blocked caller
        /// may pass a queue owner's checks elsewhere, never a thread-affine one's (main-owned objects
        /// are often thread-bound: user interface, run-loop state, thread-local caches).
        package var isThreadAffine: Bool { self == .main }
    }

    // The work item this context runs now (`csched_work.h`), on a cache line of its own inside this
    // room: the first stored property, so its address is the object's stored-property base (as
    // ``AtomicWord``'s), and only ever touched through that address by the C functions, never as a
    // Swift property.
    private nonisolated(unsafe) var _workSlotRoom = csched_work_slot_room()

    /// The scheduler's label (`com.app.network.images`, "main thread", …).
    public let label: String

    /// The context this one is a branch of, if any.
    ///
    /// Work running in a branch also holds its parent: a branch's queue targets the parent's, so their work
    /// never overlaps.
    public let parent: ExecutionContext?

    /// The process-unique id the fast path compares with the thread-local token.
    @usableFromInline
    package let id: UInt

    package let kind: Kind

    /// The serial queue behind a queue context, so a failing check can ask libdispatch itself before
    /// trapping. Weak: the queue keeps its context alive (as a queue-specific value), not the reverse.
    package weak let queue: DispatchQueue?

    /// Whether this context stands for a dispatch queue the program made, not a library scheduler:
    /// one named as an owner (`Confinement(owner: queue)`) or one observation met by its label.
    /// Observation names it as a queue (the observation file's kind `queue`), so the audit can name
    /// the queue's variable.
    package let isRawQueue: Bool

    package init(
        label: String, parent: ExecutionContext?, kind: Kind, id: UInt, queue: DispatchQueue? = nil, isRawQueue: Bool = false
    ) {
        self.label = label
        self.parent = parent
        self.kind = kind
        self.id = id
        self.queue = queue
        self.isRawQueue = isRawQueue
    }

    /// The main thread's context (also the context of `DispatchQueue.main` work).
    public static let main: ExecutionContext = {
        let context = ExecutionContext(
            label: "main thread", parent: nil, kind: .main, id: UInt(CSCHED_MAIN_CONTEXT_ID)
        )
        // On Linux `dispatchMain()` parks the main thread and drains the main queue on a worker
        // thread; the queue-specific value lets checks recognise that work as main-thread work.
        DispatchQueue.main.setSpecific(key: executionContextQueueKey, value: context)
        return context
    }()

    /// The slot the thread running this context's work publishes that work in (see `WorkSite`).
    package var workSlot: UnsafeMutablePointer<csched_work_slot> {
        csched_work_slot_in(_getUnsafePointerToStoredProperties(self))
    }

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

    /// The tree this context belongs to: itself, or its outermost parent. Work anywhere in a tree drains
    /// through the root's queue, one piece at a time.
    package var root: ExecutionContext {
        var context = self
        while let parent = context.parent { context = parent }
        return context
    }

    /// Whether `self` is `other` or one of `other`'s branches (at any depth).
    package func isWithin(_ other: ExecutionContext) -> Bool {
        isWithin(contextID: other.id)
    }

    /// Whether `self` is the context whose id is `id`, or one of its branches (at any depth).
    package func isWithin(contextID id: UInt) -> Bool {
        // unowned(unsafe): every context in the chain is kept alive by its child, and `self` by the
        // caller; walking without retains keeps this off the slow path's bill.
        unowned(unsafe) var context = self
        while context.id != id {
            guard let parent = context.parent else { return false }
            context = parent
        }
        return true
    }
}

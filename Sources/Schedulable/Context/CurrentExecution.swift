import CSchedulableContext
import Dispatch

/// The queue-specific key every library queue carries, so that work submitted straight to the
/// `DispatchQueue` (behind the library's back) is still recognised.
let executionContextQueueKey = DispatchSpecificKey<ExecutionContext>()

/// One layer of what the calling code runs in, as far as the library can tell without trapping.
package enum ExecutionLayer {
    /// A frame a library scheduler pushed on this thread (`lent: false`), or one in a chain a blocked
    /// caller lent to work done on its behalf on this thread (`lent: true`).
    case frame(ExecutionContext, lent: Bool)
    /// The process's main thread.
    case mainThread
    /// A library queue found through its queue-specific value: raw work submitted straight to the
    /// queue (or to a queue targeting it), or main-queue work that `dispatchMain()` drains on a worker.
    case queue(ExecutionContext)
    /// The calling thread itself, by its never-reused unique id.
    case thread(id: UInt)
}

/// The one resolver of "where does the calling code run": every check, report, future and executor
/// asks here.
///
/// The cascade, innermost first: the frames library schedulers pushed on this thread (through the
/// chains that blocked callers lent), the main thread, the library queue running the code (its
/// queue-specific value), the thread itself. Each layer is computed only when the previous ones did not
/// answer: `getSpecific` costs tens of nanoseconds, and the common answers come before it.
package enum CurrentExecution {
    /// Walks the layers innermost first and returns the first one `matches` accepts.
    ///
    /// - Parameters:
    ///   - includingFrames: Whether to start with the frame chain (`false`: code outside any frame).
    ///   - matches: Decides whether the walk stops at a layer.
    /// - Returns: The layer the walk stopped at, or `nil` when none matched.
    @discardableResult
    @inline(__always)  // so each caller's `matches` is specialised in: no closure, no layer values built
    package static func first(
        includingFrames: Bool = true, where matches: (ExecutionLayer) -> Bool
    ) -> ExecutionLayer? {
        if includingFrames {
            var frame = csched_top_frame()
            var lent = false
            while let current = frame {
                if let raw = current.pointee.context {
                    let context = Unmanaged<ExecutionContext>.fromOpaque(raw).takeUnretainedValue()
                    let layer = ExecutionLayer.frame(context, lent: lent)
                    if matches(layer) { return layer }
                }
                // A frame whose outer chain is not the one it interrupted on this thread runs on behalf
                // of a blocked caller: everything further out is that caller's, lent.
                if current.pointee.outer != current.pointee.saved_top { lent = true }
                frame = current.pointee.outer
            }
        }
        if csched_is_main_thread(), matches(.mainThread) { return .mainThread }
        if let context = libraryQueueContext(), matches(.queue(context)) { return .queue(context) }
        let thread = ExecutionLayer.thread(id: UInt(csched_thread_unique_id()))
        return matches(thread) ? thread : nil
    }

    /// The innermost layer: the top frame, else the main thread, else a library queue, else the thread.
    package static var innermost: ExecutionLayer {
        first { _ in true }!
    }

    /// Whether the calling code runs in `context` or one of its branches, by any layer — the slow
    /// path of ``ExecutionContext/isIsolated``. A main-thread answer makes the main context this
    /// thread's base, so the next main-owned check takes the fast path.
    ///
    /// Last, when no layer the library tracks matches, libdispatch's own answer for the context's queue
    /// (``ExecutionContext/isHeldInDispatch``): the one nesting nothing else can see is a raw
    /// `someQueue.sync {}` inside raw work on the owner's queue, where the owner's queue is held by this
    /// very thread. Asked only on a miss, so it costs nothing on a legitimate path.
    package static func holds(_ context: ExecutionContext) -> Bool {
        holds(contextID: context.id) || context.isHeldInDispatch == true
    }

    /// Whether the calling code runs in the context whose id is `id`, or one of its branches (see
    /// ``holds(_:)``). Needs no reference to the context, so a settled record answers without a lock.
    ///
    /// The one definition of "holds": the cascade of ``first(includingFrames:where:)``, each layer
    /// giving the calling code the context it names and that context's parents — except that a lent
    /// chain (a blocked caller's) never gives main, because a blocked caller proves exclusion, not
    /// affinity to the main thread. Written out so that no layer value is built and no context
    /// retained: this is the legitimate slow path of every check (`ResolverTests` states the same
    /// meaning per layer and compares). Ids alone decide: contexts and plain threads draw their ids
    /// from one never-reused counter, and the main context has its own reserved id. For main, off the
    /// main thread, the main queue's drain lock is asked before the queue-specific read: the answer
    /// ``holds(_:)`` gets last from ``ExecutionContext/isHeldInDispatch``, early and cheaper.
    package static func holds(contextID id: UInt) -> Bool {
        let isMainID = id == UInt(CSCHED_MAIN_CONTEXT_ID)
        var frame = csched_top_frame()
        var lent = false
        while let current = frame {
            if let raw = current.pointee.context, !(lent && isMainID),
                Unmanaged<ExecutionContext>.fromOpaque(raw)._withUnsafeGuaranteedRef({ $0.isWithin(contextID: id) })
            {
                return true
            }
            if current.pointee.outer != current.pointee.saved_top { lent = true }
            frame = current.pointee.outer
        }
        if isMainID, csched_is_main_thread() {
            csched_adopt_main_context()
            return true
        }
        // Main-queue work on another thread (a worker draining it under `dispatchMain()`): libdispatch's
        // drain lock says so, for this block only — cheaper than the queue-specific read below and
        // never a pass for a pool thread between blocks. Not made the thread's base (the next block on
        // this thread may be anyone's), so each check that misses asks again.
        if isMainID, PlatformInternals.runsMainQueueWork { return true }
        if let key = QueueSpecificReader.verifiedKey {
            if let raw = PlatformInternals.currentSpecificValue(key),
                Unmanaged<ExecutionContext>.fromOpaque(raw)._withUnsafeGuaranteedRef({ $0.isWithin(contextID: id) })
            {
                return true
            }
        } else if libraryQueueContext()?.isWithin(contextID: id) == true {
            return true
        }
        return UInt(csched_thread_unique_id()) == id
    }

    /// The context of the innermost layer, for binding a detached object on first use. A plain
    /// thread gets a context of its own, made its base so that later checks take the fast path.
    ///
    /// `nil` on a concurrent pool thread (global-queue work, Swift's cooperative pool): nothing serial
    /// owns it — the next block or task on that thread is unrelated code — so it can own nothing and
    /// must not be marked as an owner.
    package static var bindableContext: ExecutionContext? {
        switch innermost {
        case .frame(let context, _), .queue(let context):
            return context
        case .mainThread:
            csched_adopt_main_context()
            return .main
        case .thread:
            return PlatformInternals.runningOnPool ? nil : threadContext()
        }
    }

    /// The context of code that runs outside any library frame, if it has one: the main thread, a
    /// library queue reached directly, or a plain thread that objects were bound to.
    package static var unframedContext: ExecutionContext? {
        switch first(includingFrames: false, where: { _ in true })! {
        case .mainThread: return .main
        case .queue(let context): return context
        case .frame, .thread: return _CurrentToken.isSet ? threadContext() : nil
        }
    }

    /// A context that stands for the calling plain thread and nothing else, made the thread's base.
    private static func threadContext() -> ExecutionContext {
        let id = UInt(csched_thread_unique_id())
        csched_adopt_base_context(id)
        return ExecutionContext(label: threadDescription, parent: nil, kind: .thread, id: id)
    }

    /// Where the calling code runs, for the "actual context" line of a report: the library context
    /// running now, else "main thread", else the dispatch queue's label, else the OS thread id and name.
    package static var description: String {
        switch innermost {
        case .frame(let context, _), .queue(let context):
            return context.description + " (\(threadDescription))"
        case .mainThread:
            return "main thread"
        case .thread:
            // A worker of a global queue is named after it anyway, so the thread line says everything.
            if let queueLabel = nonRootQueueLabel { return "queue \"\(queueLabel)\" (\(threadDescription))" }
            return threadDescription
        }
    }

    /// The label of the dispatch queue whose work the calling code runs, unless it is a root (global)
    /// queue's: with no current queue libdispatch answers with a root queue's label too. `nil` then.
    package static var nonRootQueueLabel: String? {
        let label = String(cString: csched_current_queue_label())
        return label.isEmpty || PlatformInternals.isRootQueueLabel(label) == true ? nil : label
    }

    /// The OS thread id and name of the calling thread, e.g. `thread 4242 "com.app.business"` (the
    /// name as ``ThreadName`` chooses it).
    package static var threadDescription: String {
        let tid = csched_os_thread_id()
        guard let name = ThreadName.current else { return "thread \(tid)" }
        return "thread \(tid) \"\(name)\""
    }

    /// Whether the calling code may run inside dispatch work that the library did not enter and
    /// cannot account for — nested in a raw `someQueue.sync {}` that only libdispatch can see, where
    /// a queue the library does not see may be held further up the thread.
    ///
    /// `false` — the library has the evidence itself — when the current dispatch queue is none or a
    /// global (root) queue (a plain thread, a thread scheduler, a global queue's worker), the main queue,
    /// or the queue of the innermost frame a library scheduler pushed (the library entered it itself).
    /// `true` for a foreign queue, and for a library queue reached without a frame of its own (raw
    /// work, or a raw `sync`). Reports then ask `dispatchPrecondition` first; otherwise they are printed
    /// before anything can trap — under Xcode's debugger a trap inside libdispatch stops the process
    /// before a report armed for the signal handler prints.
    ///
    /// Used only where libdispatch's drain lock cannot be read (``DispatchQueueState``): there, raw
    /// work on a queue owner that calls `DispatchQueue.global().sync {}` leaves the current queue a
    /// root queue, so an access in it is reported although the owner is blocked (documented in the
    /// Threading Model article).
    package static var mayHoldQueuesUnseen: Bool {
        if nonRootQueueLabel == nil { return false }
        guard let queueContext = libraryQueueContext() else { return true }
        if queueContext.kind == .main { return false }
        guard let raw = csched_top_frame()?.pointee.context else { return true }
        return Unmanaged<ExecutionContext>.fromOpaque(raw).takeUnretainedValue() !== queueContext
    }

    /// Whether waiting here for work on `context` would never end: the calling code holds `context`'s
    /// tree — it runs in it (the context itself, its parent, a sibling branch), or a caller blocked
    /// waiting for this code does (a lent chain) — so that work cannot start before this code returns.
    /// The one deadlock detection behind `sync`, `present()` and futures in the present.
    package static func waitingWouldDeadlock(on context: ExecutionContext) -> Bool {
        let root = context.root
        let heldByALayer = first { layer in
            switch layer {
            case .frame(let held, _), .queue(let held): return held.isWithin(root)
            case .mainThread: return root.kind == .main
            case .thread: return false
            }
        } != nil
        // A raw `sync` nested in raw work on the tree leaves no layer: libdispatch still knows.
        return heldByALayer || root.isHeldInDispatch == true
    }

    /// The library context of the dispatch queue running the calling code (or of a queue it targets).
    ///
    /// Creates ``ExecutionContext/main`` first (through `QueueSpecificReader.verifiedKey`): that lazy
    /// initializer is what tags the main queue, and main-queue work drained by `dispatchMain()` on a
    /// worker thread can be the first code in the process to ask — before anything else has.
    private static func libraryQueueContext() -> ExecutionContext? {
        guard let key = QueueSpecificReader.verifiedKey else { return DispatchQueue.getSpecific(key: executionContextQueueKey) }
        guard let raw = PlatformInternals.currentSpecificValue(key) else { return nil }
        // Unretained is enough to take a reference: the running queue holds the value while this runs.
        return Unmanaged<ExecutionContext>.fromOpaque(raw).takeUnretainedValue()
    }
}

/// The fast read of the library's queue-specific value, used only where `PlatformInternals` showed
/// that the direct read of the overlay's box agrees with `DispatchQueue.getSpecific`.
package enum QueueSpecificReader {
    /// The verified C key for ``executionContextQueueKey``, or `nil` when the direct read is off or
    /// unconfirmed (then every read goes through `getSpecific`). Touching it first creates
    /// ``ExecutionContext/main``, whose initializer tags the main queue: main-queue work drained by
    /// `dispatchMain()` on a worker can be the first code to ask.
    ///
    /// Kept in a C global after the first read (`csched_context_key_word`): a `static let` costs a
    /// `swift_once` call on every read, and the legitimate slow path of every check reads it.
    @inline(__always)
    static var verifiedKey: PlatformInternals.VerifiedSpecificKey? {
        let word = csched_context_key_word_load()
        if _fastPath(word > 1) { return PlatformInternals.VerifiedSpecificKey(keptWord: word) }
        return word == 1 ? nil : settledKey
    }

    /// The first read of ``verifiedKey``: verifies the key and keeps it.
    @inline(never)
    private static var settledKey: PlatformInternals.VerifiedSpecificKey? {
        let key = firstKey
        csched_context_key_word_store(key?.word ?? 1)
        return key
    }

    private static let firstKey: PlatformInternals.VerifiedSpecificKey? = {
        _ = ExecutionContext.main
        return PlatformInternals.verifiedSpecificKey(executionContextQueueKey)
    }()
}

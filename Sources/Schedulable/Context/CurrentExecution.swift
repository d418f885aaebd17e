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
    /// A serial queue with a library identity found through its queue-specific value: a library
    /// queue or a named raw queue (`Confinement(owner: queue)`) whose work runs here — raw work, a raw
    /// `queue.sync {}`, a queue targeting it — or main-queue work that `dispatchMain()` drains on a worker.
    case queue(ExecutionContext)
    /// A serial dispatch queue with no library identity whose work runs here (raw work, a raw
    /// `queue.sync {}`), known by its label only. Observation's answer; nothing is owned by it.
    case rawQueue(label: String)
    /// The calling thread itself, by its never-reused unique id.
    case thread(id: UInt)
}

/// The one resolver of "where does the calling code run": every check, binding, observation, report,
/// future, executor and wait asks here.
///
/// The rule: the calling code is in the innermost serial context the thread holds. The cascade,
/// innermost first: the serial dispatch queue the thread entered after its innermost library frame
/// (a raw `queue.sync {}` called from the main thread, from another queue's or a scheduler's work, from a
/// task: that queue, not the caller), the frames library schedulers pushed on this thread (through
/// the chains that blocked callers lent), the main thread, the library queue running the code (its
/// queue-specific value), the thread itself. Each layer is computed only when the previous ones did
/// not answer: `getSpecific` costs tens of nanoseconds, and the common answers come before it.
///
/// Whether a declared owner is held asks every layer (``holds(contextID:)``): the caller of a `sync`
/// still holds its contexts, and exclusion is what confinement needs. What a first use binds to and
/// what observation records is the innermost layer.
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
        if let entered = enteredQueue(framed: includingFrames), matches(entered) { return entered }
        if includingFrames {
            var found: ExecutionLayer?
            let stopped = walkFrames { context, lent in
                let layer = ExecutionLayer.frame(context.takeUnretainedValue(), lent: lent)
                if matches(layer) { found = layer }
                return found != nil
            }
            if stopped { return found }
        }
        if csched_is_main_thread(), matches(.mainThread) { return .mainThread }
        if let context = libraryQueueContext(), matches(.queue(context)) { return .queue(context) }
        let thread = ExecutionLayer.thread(id: UInt(csched_thread_unique_id()))
        return matches(thread) ? thread : nil
    }

    /// The one frame walk: calls `visit` with each frame's context (unretained: a frame's context is
    /// alive while its work runs, and this thread runs it) and whether it is lent, innermost first,
    /// until `visit` returns `true`; returns whether it did.
    ///
    /// A frame whose outer chain is not the one it interrupted on this thread runs on behalf of a
    /// blocked caller: everything further out is that caller's, lent.
    @inline(__always)  // each caller's `visit` specialised in: no closure, nothing retained
    static func walkFrames(_ visit: (Unmanaged<ExecutionContext>, _ lent: Bool) -> Bool) -> Bool {
        var frame = csched_top_frame()
        var lent = false
        while let current = frame {
            if let raw = current.pointee.context, visit(Unmanaged<ExecutionContext>.fromOpaque(raw), lent) { return true }
            if current.pointee.outer != current.pointee.saved_top { lent = true }
            frame = current.pointee.outer
        }
        return false
    }

    /// The serial dispatch queue the thread entered after its innermost library frame (or, with no
    /// frame, at all), when there is one: `nil` outside dispatch work, in a pool's work (a global
    /// queue's, Swift's executor's), in the main queue's (the main-thread layers answer), and in the
    /// innermost frame's own queue (the frame answers, with its work item). Work a custom scheduler
    /// runs in a queue the library does not know is the scheduler's: the frame answers.
    ///
    /// - Parameter framed: Whether the frames are part of the walk (`false`: judge as if none).
    private static func enteredQueue(framed: Bool) -> ExecutionLayer? {
        let top: ExecutionContext? = framed
            ? csched_top_frame()?.pointee.context.map { Unmanaged<ExecutionContext>.fromOpaque($0).takeUnretainedValue() }
            : nil
        if let context = libraryQueueContext() {
            return context.kind == .main || context === top ? nil : .queue(context)
        }
        if top?.kind == .custom { return nil }
        guard let label = nonRootQueueLabel, label != mainQueueLabel, !PlatformInternals.runningOnPool else { return nil }
        return .rawQueue(label: label)
    }

    /// libdispatch's label of the main queue.
    static let mainQueueLabel = "com.apple.main-thread"

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
    /// The one definition of "holds": the cascade of ``first(includingFrames:where:)`` (the same frame
    /// walk, ``walkFrames(_:)``; an entered queue is a library queue layer further out too), each layer
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
        let heldByAFrame = walkFrames { context, lent in
            !(lent && isMainID) && context._withUnsafeGuaranteedRef { $0.isWithin(contextID: id) }
        }
        if heldByAFrame { return true }
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

    /// The context of the innermost layer that has a library identity, for binding a detached object
    /// on first use: a raw queue known only by its label is skipped (nothing could later tell its work
    /// apart from another queue's of the same label), and the walk goes on outwards. A plain thread
    /// gets a context of its own, made its base so that later checks take the fast path.
    ///
    /// `nil` on a concurrent pool thread (global-queue work, Swift's cooperative pool): nothing serial
    /// owns it — the next block or task on that thread is unrelated code — so it can own nothing and
    /// must not be marked as an owner.
    package static var bindableContext: ExecutionContext? {
        let layer = first { layer in
            if case .rawQueue = layer { return false }
            return true
        }!
        return context(of: layer)
    }

    /// The context an observed record is in here (TM "Observing"): the innermost layer's, a raw queue
    /// known by its label included (``ExecutionContext/observedRawQueue(label:)``); `nil` on a pool
    /// thread outside any task.
    package static var observingContext: ExecutionContext? {
        switch innermost {
        case .rawQueue(let label): return .observedRawQueue(label: label)
        case let layer: return context(of: layer)
        }
    }

    /// The context a layer stands for (see ``bindableContext``).
    private static func context(of layer: ExecutionLayer) -> ExecutionContext? {
        switch layer {
        case .frame(let context, _), .queue(let context):
            return context
        case .mainThread:
            csched_adopt_main_context()
            return .main
        case .rawQueue(let label):
            return .observedRawQueue(label: label)
        case .thread:
            return PlatformInternals.runningOnPool ? nil : threadContext()
        }
    }

    /// The context of code that runs outside any library frame, if it has one: a serial queue with a
    /// library identity entered here, the main thread, a library queue reached directly, or a plain
    /// thread that objects were bound to.
    package static var unframedContext: ExecutionContext? {
        let layer = first(includingFrames: false) { layer in
            if case .rawQueue = layer { return false }
            return true
        }!
        switch layer {
        case .mainThread: return .main
        case .queue(let context): return context
        case .frame, .thread, .rawQueue: return _CurrentToken.isSet ? threadContext() : nil
        }
    }

    /// A context that stands for the calling plain thread and nothing else, made the thread's base.
    private static func threadContext() -> ExecutionContext {
        let id = UInt(csched_thread_unique_id())
        csched_adopt_base_context(id)
        return ExecutionContext(label: threadDescription, parent: nil, kind: .thread, id: id)
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
            case .thread, .rawQueue: return false
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

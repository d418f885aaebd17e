import CSchedulableContext
import Dispatch

/// What libdispatch itself knows about a queue and the calling thread, read without trapping.
///
/// `dispatchPrecondition(condition: .onQueue(q))` is the last word on whether the calling thread holds
/// a serial queue — it sees a raw `someQueue.sync {}` nested in raw work on `q`, which leaves no trace
/// anything else can read — but it answers "no" by stopping the process. On Linux the C target reads
/// the same fact libdispatch reads first (the queue's drain lock names the thread that holds it), and a
/// queue's target and width (whether it is serial), once a self-check in this process has confirmed
/// the layout against libdispatch's own behaviour (`csched_dispatch_reader_confirmed`). Where that is not confirmed — Darwin, or a libdispatch whose
/// layout differs — every answer is "cannot tell" (`nil`) and callers keep their fallback.
package enum DispatchQueueState {
    /// The libdispatch queue behind `queue`, confirmed by its label, or `nil`.
    ///
    /// On Darwin the `DispatchQueue` *is* the `dispatch_queue_t`; in swift-corelibs-libdispatch it is
    /// the class's one stored property.
    static func address(of queue: DispatchQueue) -> UnsafeRawPointer? {
        #if canImport(Darwin)
        let candidate: UnsafeRawPointer? = UnsafeRawPointer(Unmanaged.passUnretained(queue).toOpaque())
        #else
        let candidate = _getUnsafePointerToStoredProperties(queue).load(as: UnsafeRawPointer?.self)
        #endif
        guard let candidate, let label = csched_dispatch_queue_label(candidate), String(cString: label) == queue.label
        else { return nil }
        return candidate
    }

    /// Whether the calling thread holds the serial queue `queue` — runs its work (raw or not), or is
    /// blocked in `sync` on it or on a queue that targets it — or `nil` when that cannot be read here.
    static func threadHolds(_ queue: DispatchQueue) -> Bool? {
        guard let address = address(of: queue) else { return nil }
        switch csched_thread_holds_queue(address) {
        case 1: return true
        case 0: return false
        default: return nil
        }
    }

    /// How many blocks of `queue` libdispatch lets run at once — 1 for a serial queue (also one that
    /// targets a concurrent queue), more for a concurrent one — or `nil` when that cannot be read here.
    package static func width(of queue: DispatchQueue) -> Int? {
        guard let address = address(of: queue) else { return nil }
        let width = csched_queue_width(address)
        return width < 0 ? nil : Int(width)
    }

    /// The library context of the first queue in `queue`'s target chain (not `queue` itself) that
    /// carries one, or `nil` — also when the chain cannot be read here.
    static func libraryContextAbove(_ queue: DispatchQueue) -> ExecutionContext? {
        guard let key = QueueSpecificReader.verifiedKey, var current = address(of: queue) else { return nil }
        // A target chain ends at a root queue after a few links; the bound only guards a misread.
        for _ in 0..<64 {
            guard let target = csched_queue_target(current) else { return nil }
            if let raw = csched_queue_own_specific_value(target, key) {
                // The target queue holds its value alive; take a reference now.
                return Unmanaged<ExecutionContext>.fromOpaque(raw).takeUnretainedValue()
            }
            current = target
        }
        return nil
    }
}

extension ExecutionContext {
    /// Whether libdispatch says the calling thread holds this context's queue (for main, the main
    /// queue), or `nil` when it cannot be read here. `false` for contexts without a queue.
    ///
    /// This is libdispatch's own answer: exact for raw `sync` nested in raw work on the queue, and
    /// never a lent thread — a thread blocked in `sync` on another queue does not hold this one.
    package var isHeldInDispatch: Bool? {
        guard let queue = queue ?? (kind == .main ? DispatchQueue.main : nil) else { return false }
        return DispatchQueueState.threadHolds(queue)
    }
}

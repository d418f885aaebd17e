import Dispatch

/// What libdispatch itself knows about a library context's queue, read without trapping: the
/// `ExecutionContext`-aware half of the dispatch reader. The reads themselves (drain lock, target,
/// width, the overlay's box) are `PlatformInternals`'; where they are off or unconfirmed — Darwin, a
/// libdispatch whose layout differs, a kill switch — every answer is "cannot tell" (`nil`) and callers
/// keep their fallback.
package enum DispatchQueueState {
    /// The library context of the first queue in `queue`'s target chain (not `queue` itself) that
    /// carries one, or `nil` — also when the chain cannot be read here.
    static func libraryContextAbove(_ queue: DispatchQueue) -> ExecutionContext? {
        guard let key = QueueSpecificReader.verifiedKey, var current = PlatformInternals.queueAddress(of: queue)
        else { return nil }
        // A target chain ends at a root queue after a few links; the bound only guards a misread.
        for _ in 0..<64 {
            guard let target = PlatformInternals.target(ofQueueAt: current) else { return nil }
            if let raw = PlatformInternals.ownSpecificValue(ofQueueAt: target, key) {
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
        return PlatformInternals.threadHolds(queue)
    }
}

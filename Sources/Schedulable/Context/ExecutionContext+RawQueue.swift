import CSchedulableContext

/// The contexts observation gives the serial dispatch queues that have no library identity (see
/// ``CurrentExecution/observingContext``).
extension ExecutionContext {
    /// The contexts observation binds to in raw queues that nothing named, one per label.
    private static let observedRawQueues = LockedValue([String: ExecutionContext]())

    /// The context an observed record is bound to while it is used in the work of a serial queue that
    /// has no library identity (never named as an owner, never wrapped), known by its label only:
    /// observation's answer, never an owner a check can pass for (no layer ever holds it), so two
    /// queues with one label are one context to observation only.
    package static func observedRawQueue(label: String) -> ExecutionContext {
        observedRawQueues.withLock { contexts in
            if let context = contexts[label] { return context }
            let context = ExecutionContext(label: label, parent: nil, kind: .queue, id: UInt(csched_next_id()), isRawQueue: true)
            contexts[label] = context
            return context
        }
    }
}

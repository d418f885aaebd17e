import CSchedulableContext

/// The fast path of every check, written once: "is the thread's token this id?" — one TLS load and
/// one compare. A record, a fixed owner and ``ExecutionContext/isIsolated`` all ask here; this file is
/// the only Swift code that reads the token (`csched_current_id`).
///
/// `@_transparent`, so the compare is inlined even at -Onone, where checks run by default; at -O it is
/// the same code as the call it replaced.
@usableFromInline
enum _CurrentToken {
    /// Whether the calling thread's token equals `id`: the innermost library context on this thread is
    /// the context whose id is `id`. Never a false "yes"; a "no" means "ask the slow path".
    ///
    /// - Parameter id: A context id, or a record's state word (a non-settled word equals no token).
    @usableFromInline
    @_transparent
    static func isCurrent(_ id: UInt) -> Bool {
        id == UInt(csched_current_id())
    }

    /// Whether the thread has a token at all (a library context, the main thread, or a plain thread
    /// that objects were bound to).
    @inlinable
    static var isSet: Bool {
        csched_current_id() != 0
    }
}

import CSchedulableContext

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

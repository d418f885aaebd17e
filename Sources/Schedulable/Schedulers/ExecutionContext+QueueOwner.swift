import CSchedulableContext
import Dispatch

/// The identity of a serial `DispatchQueue` that owns objects directly (`Confinement(owner: queue)`),
/// or that a ``SerialQueueScheduler`` wraps: one context per queue, however many objects and wrappers
/// name it.
///
/// The context is kept where libdispatch keeps the library's own: as the queue's queue-specific value
/// (``executionContextQueueKey``). So raw work on the queue, a raw `queue.sync {}` from anywhere and a
/// wrapper's work all find the same context, and the queue keeps its context alive, never the reverse:
/// a record that names the context keeps no queue alive (the context's `queue` is weak).
extension ExecutionContext {
    /// Serialises the first naming of each queue: two threads naming one untagged queue at once must
    /// not each tag it with a context of their own (objects bound to the loser would belong to no one).
    /// Serialises a queue's first naming. A bare mutex, not a `LockedValue<()>`: a zero-sized stored
    /// value lies at the object's own address, and ThreadSanitizer reports an access to it by a thread
    /// that does not hold the lock yet (as `RuntimeImages.symbolicating` explains).
    /// (`nonisolated(unsafe)`: a pthread mutex is made to be shared.)
    nonisolated(unsafe) private static let tagging = PlatformMutex()

    /// The context of `queue`, tagging the queue on first use.
    ///
    /// A queue a library scheduler made, or one named before, already carries its context: that one is
    /// returned, so a library queue passed raw is the same owner as its scheduler. Otherwise `queue`
    /// must be able to own objects (``requireSerial(_:callSite:)``); its context is labelled with the
    /// queue's label and, where libdispatch's target chain can be read, is a branch of the library
    /// queue it targets.
    ///
    /// - Parameters:
    ///   - queue: A serial queue.
    ///   - callSite: The call that named the queue, for the error.
    ///   - wrapping: Whether the caller is a wrapper (the error's wording).
    /// - Returns: The queue's context.
    /// - Throws: ``ScheduleConfigurationError`` for the main queue, a global queue or (where it can be
    ///   told) a concurrent queue.
    package static func owning(
        _ queue: DispatchQueue, callSite: CodeLocation, wrapping: Bool = false
    ) throws(ScheduleConfigurationError) -> ExecutionContext {
        if let context = queue.getSpecific(key: executionContextQueueKey), context.kind != .main { return context }
        try requireSerial(queue, callSite: callSite, wrapping: wrapping)
        return tagging.withLock {
            if let context = queue.getSpecific(key: executionContextQueueKey) { return context }
            let context = ExecutionContext(
                label: queue.label, parent: DispatchQueueState.libraryContextAbove(queue), kind: .queue,
                id: UInt(csched_next_id()), queue: queue, isRawQueue: !wrapping
            )
            queue.setSpecific(key: executionContextQueueKey, value: context)
            return context
        }
    }

    /// ``owning(_:callSite:)`` for an initializer that cannot throw: a queue that cannot own objects is
    /// a programming error, so the process stops here with the error's text and the call site, in
    /// every build (a later report could not say more, and a `fatalError` message is printed on Linux).
    package static func owningOrStopping(_ queue: DispatchQueue, in api: String, file: StaticString, line: UInt) -> ExecutionContext {
        do {
            return try owning(queue, callSite: CodeLocation(file: file, line: line))
        } catch {
            let message = "Schedulable: \(api): \(error.description)"
            StandardError.write(message + "\n")
            fatalError(message, file: file, line: line)
        }
    }

    /// Throws unless `queue` can own objects: not the main queue, not a global queue, and — where
    /// libdispatch's queue state can be read (Linux) — not wider than one block at a time. Where it
    /// cannot be read (Darwin) a concurrent queue passes this test: the caller's promise that it is
    /// serial is what stands.
    ///
    /// - Parameters:
    ///   - queue: The queue to be an owner.
    ///   - callSite: The call that named it, for the error.
    ///   - wrapping: Whether the caller is ``SerialQueueScheduler/init(wrapping:qos:file:line:)``, whose
    ///     messages say "wrap".
    package static func requireSerial(
        _ queue: DispatchQueue, callSite: CodeLocation, wrapping: Bool = false
    ) throws(ScheduleConfigurationError) {
        let label = queue.label
        if label == DispatchQueue.main.label {
            throw ScheduleConfigurationError(
                (wrapping ? "cannot wrap the main queue in a SerialQueueScheduler" : "the main queue cannot be a queue owner")
                    + "; use MainThreadScheduler.shared, which also recognises main-thread code outside the queue"
                    + (wrapping ? "" : " (Confinement() is a main-thread object's confinement)"),
                callSite: callSite
            )
        }
        if PlatformInternals.isRootQueueLabel(label) == true {
            throw ScheduleConfigurationError(
                (wrapping ? "cannot wrap the global concurrent queue \"\(label)\"" : "the global concurrent queue \"\(label)\" cannot be an owner")
                    + ": a concurrent queue cannot own objects (its blocks run at the same time); create a serial "
                    + "queue with " + (wrapping ? "" : "DispatchQueue(label:), ") + "SerialQueueScheduler(label:qos:) or branch(_:qos:)",
                callSite: callSite
            )
        }
        if let width = PlatformInternals.width(of: queue), width > 1 {
            throw ScheduleConfigurationError(
                (wrapping ? "cannot wrap the concurrent queue \"\(label)\" in a SerialQueueScheduler" : "the concurrent queue \"\(label)\" cannot be an owner")
                    + ": up to \(width) of its blocks run at the same time, so it cannot own objects; "
                    + (wrapping ? "wrap" : "use") + " a serial queue (one made without attributes: .concurrent; it may "
                    + "target a concurrent queue), or create one with SerialQueueScheduler(label:qos:)",
                callSite: callSite
            )
        }
    }
}

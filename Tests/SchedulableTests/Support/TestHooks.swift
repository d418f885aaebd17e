import CSchedulableContext
@_spi(Benchmarks) @testable import Schedulable

// What the tests read of production types, kept here rather than on the types themselves.

extension Confinement {
    /// Whether two confinements refer to the same record (a shared record is the same for all its objects).
    func refersToSameRecord(as other: Confinement) -> Bool { _recordObject === other._recordObject }
}

extension TaskConstructionWindows {
    /// How many tasks have a window in the table now.
    static var openCount: Int { table.withLock { $0.count } }
}

extension QueueSpecificReader {
    /// Whether the direct read of the queue-specific value is in use.
    static var isVerified: Bool { verifiedKey != nil }
}

extension SerialQueueScheduler {
    /// Whether hops use `dispatch_async_f` (see `DirectDispatch`).
    var hopsDispatchDirectly: Bool { direct != nil }
}

extension PlatformInternals {
    /// Whether the drain-lock reader passed its self-check (and `DISPATCH_READER` is not set).
    static var dispatchReaderConfirmed: Bool { csched_dispatch_reader_confirmed() }

    /// Whether a runtime issue can be raised here: Apple, os_log's entry point found, switch unset.
    static var runtimeIssuesAvailable: Bool { runtimeIssuesAllowed && csched_runtime_issues_available() }
}

extension InlinedCallSites {
    /// How many images have been read so far (whether stacks consulted the reader at all).
    static var imagesRead: Int { images.withLock { $0.count } }
}

extension ThreadScheduler {
    /// The OS thread id of the scheduler's thread (for tests that read its CPU time).
    var osThreadID: UInt64 { UInt64(loop.osThreadID.loadAcquiring()) }
}

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

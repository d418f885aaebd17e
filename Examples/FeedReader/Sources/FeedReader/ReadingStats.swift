import Foundation

/// Counters both queues update. Shared on purpose: a lock guards them (`@unchecked Sendable`, as such
/// classes are declared).
public final class ReadingStats: @unchecked Sendable {
    private let lock = NSLock()
    private var fetched = 0
    private var stored = 0

    public init() {}

    /// Counts fetched articles.
    public func recordFetched(_ count: Int) {
        lock.lock()
        fetched += count
        lock.unlock()
    }

    /// Counts stored articles.
    public func recordStored(_ count: Int) {
        lock.lock()
        stored += count
        lock.unlock()
    }

    /// Fetched and stored so far.
    public func totals() -> (fetched: Int, stored: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (fetched, stored)
    }
}

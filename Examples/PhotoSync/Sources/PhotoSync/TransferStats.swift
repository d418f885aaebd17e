import Foundation
import Schedulable

/// Counters both subsystems update. Shared on purpose: a lock guards them. `@unchecked Sendable`, as
/// such classes are declared.
public final class TransferStats: ConfinedObject, @unchecked Sendable {
    public let confinement = Confinement.observed()
    private let lock = NSLock()
    private var imported = 0
    private var uploaded = 0

    public init() {}

    /// Counts imported photos.
    public func record(imported count: Int) {
        assertIsolated()
        lock.withLock { imported += count }
    }

    /// Counts uploaded photos.
    public func record(uploaded count: Int) {
        assertIsolated()
        lock.withLock { uploaded += count }
    }

    /// Imported and uploaded so far.
    public var totals: (imported: Int, uploaded: Int) {
        lock.withLock { (imported, uploaded) }
    }
}

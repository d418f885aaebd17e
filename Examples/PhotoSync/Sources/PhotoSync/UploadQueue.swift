import Schedulable

/// The photos waiting for upload. Only the upload subsystem uses it — nothing here says so.
public final class UploadQueue: ConfinedObject, @unchecked Sendable {
    public let confinement = Confinement.observed()
    @Confined var pending: [Photo] = []
    @Confined var sent = 0

    public init() {}

    /// Adds photos to the queue.
    public func enqueue(_ photos: [Photo]) {
        assertIsolated()
        pending += photos
    }

    /// Sends the next photo; `nil` when the queue is empty.
    public func sendNext() -> Photo? {
        assertIsolated()
        guard !pending.isEmpty else { return nil }
        sent += 1
        return pending.removeFirst()
    }

    /// How many photos wait.
    public var pendingCount: Int {
        assertIsolated()
        return pending.count
    }
}

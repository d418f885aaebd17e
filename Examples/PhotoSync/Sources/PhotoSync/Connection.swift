import Schedulable

/// One connection to the server. Each lives on a queue of its own, made with it.
public final class Connection: ConfinedObject, @unchecked Sendable {
    public let confinement = Confinement.observed()
    @Confined var bytesSent = 0
    /// The connection's own queue.
    public let queue: SerialQueueScheduler

    public init(number: Int) {
        queue = SerialQueueScheduler(label: "com.photosync.connection.\(number)")
    }

    /// Sends `photo`; returns the bytes sent so far.
    public func send(_ photo: Photo) -> Int {
        assertIsolated()
        bytesSent += photo.name.utf8.count
        return bytesSent
    }
}

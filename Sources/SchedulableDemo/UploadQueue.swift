import Schedulable

/// A photo waiting to be uploaded.
struct Photo: Sendable, Hashable {
    /// The photo's position in the batch.
    let number: Int
}

/// The seed's upload service: adding one photo runs a few milliseconds of business logic (deduplication,
/// metadata, queue bookkeeping). Its state belongs to one scheduler, and every access is checked.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // ContinuousClock, Duration
final class UploadQueue: ConfinedObject {
    let confinement: Confinement

    @Confined(name: "pending") var pending: [Photo] = []
    @Confined(name: "seen") var seen: Set<Photo> = []

    /// How long adding one photo takes (simulated business logic).
    private let costPerPhoto: Duration

    /// Creates an empty queue owned by `owner`.
    ///
    /// - Parameters:
    ///   - owner: The scheduler whose work may use the queue.
    ///   - costPerPhoto: The business logic's cost per added photo.
    ///   - file: Where the caller binds the queue to `owner` (reports name it, not this initializer).
    ///   - line: Where the caller binds the queue to `owner`.
    init(owner: some SerialScheduler, costPerPhoto: Duration, file: StaticString = #fileID, line: UInt = #line) {
        confinement = Confinement(owner: owner, file: file, line: line)
        self.costPerPhoto = costPerPhoto
    }

    /// Adds `photo` unless it is already queued.
    func add(_ photo: Photo) {
        assertIsolated()
        simulateBusinessLogic()
        if seen.insert(photo).inserted {
            pending.append(photo)
        }
    }

    /// How many photos wait for upload.
    func pendingCount() -> Int {
        assertIsolated()
        return pending.count
    }

    /// Burns CPU for `costPerPhoto`: the seed's 2.6 ms is computation, not waiting, so it must occupy
    /// whichever thread runs it (sleeping would let the main thread's frames through and hide the point).
    private func simulateBusinessLogic() {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: costPerPhoto)
        while clock.now < deadline {}
    }
}

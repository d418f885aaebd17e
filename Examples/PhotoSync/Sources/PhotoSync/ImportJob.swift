import Schedulable

/// A batch of imported photos: built on the importer, then handed to the upload subsystem.
public final class ImportJob: ConfinedObject, @unchecked Sendable {
    public let confinement = Confinement.observed()
    @Confined var photos: [Photo] = []

    public init() {}

    /// Adds a photo to the batch.
    public func add(_ photo: Photo) {
        assertIsolated()
        photos.append(photo)
    }

    /// Moves the batch into `queue`.
    public func drain(into queue: UploadQueue) {
        assertIsolated()
        queue.enqueue(photos)
        photos.removeAll()
    }
}

/// Imports photos: builds a job on the importer and hands it to the upload subsystem.
public final class Importer: @unchecked Sendable {
    let queue: UploadQueue
    let stats: TransferStats

    public init(queue: UploadQueue, stats: TransferStats) {
        self.queue = queue
        self.stats = stats
    }

    /// Imports `names` and queues them for upload.
    public func importPhotos(_ names: [String]) {
        let job = ImportJob()
        importer.sync {
            for name in names { job.add(Photo(name: name)) }
            stats.record(imported: names.count)
            job.handOff(to: uploads)
        }
        uploads.sync { job.drain(into: queue) }
    }

    /// Ends an import and says how many photos still wait for upload.
    public func finish() -> Int {
        importer.sync {
            // The planted bug: the upload queue is read from the importer, not through `uploads`.
            queue.pendingCount
        }
    }
}

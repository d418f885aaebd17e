import Schedulable

/// Sends what the upload queue holds, on the upload subsystem's scheduler.
public struct Uploader: Sendable {
    let queue: UploadQueue
    let stats: TransferStats

    public init(queue: UploadQueue, stats: TransferStats) {
        self.queue = queue
        self.stats = stats
    }

    /// Sends every waiting photo; returns their names in order.
    public func uploadAll() -> [String] {
        uploads.sync {
            var sent: [String] = []
            while let photo = queue.sendNext() {
                sent.append(photo.name)
                stats.record(uploaded: 1)
            }
            return sent
        }
    }
}

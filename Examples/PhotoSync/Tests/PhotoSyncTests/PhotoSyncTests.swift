import PhotoSync
import Schedulable
import Testing

@Suite("PhotoSync")
struct PhotoSyncTests {
    @Test func importedPhotosAreUploadedInOrder() {
        let queue = UploadQueue()
        let stats = TransferStats()
        let importer = Importer(queue: queue, stats: stats)
        let uploader = Uploader(queue: queue, stats: stats)
        for round in 0..<3 {
            importer.importPhotos(["a\(round)", "b\(round)"])
            #expect(uploader.uploadAll() == ["a\(round)", "b\(round)"])
        }
        #expect(stats.totals == (imported: 6, uploaded: 6))
    }

    @Test func theQueueCountsWhatWaits() {
        let queue = UploadQueue()
        uploads.sync {
            queue.enqueue([Photo(name: "x"), Photo(name: "y")])
            #expect(queue.pendingCount == 2)
            _ = queue.sendNext()
            #expect(queue.pendingCount == 1)
        }
    }

    @Test func anImportEndsWithTheNumberStillWaiting() {
        let queue = UploadQueue()
        let importer = Importer(queue: queue, stats: TransferStats())
        importer.importPhotos(["p", "q"])
        #expect(importer.finish() == 2)
    }

    @Test func thumbnailsAreMadeOnceOnTheMainThread() {
        let cache = ThumbnailCache()
        MainThreadScheduler.shared.sync {
            #expect(cache.thumbnail(for: Photo(name: "p")) == "thumb:p")
            #expect(cache.thumbnail(for: Photo(name: "p")) == "thumb:p")
        }
    }

    @Test func eachConnectionCountsOnItsOwnQueue() {
        for number in 0..<3 {
            let connection = Connection(number: number)
            connection.queue.sync {
                #expect(connection.send(Photo(name: "abc")) == 3)
                #expect(connection.send(Photo(name: "de")) == 5)
            }
        }
    }
}

import FeedReader
import XCTest

/// The app's tests, as they are written: XCTest, on the main thread, reaching each queue's state with
/// `queue.sync { … }`.
final class FeedReaderTests: XCTestCase {
    func testFetchedArticlesAreKept() {
        let fetcher = Fetcher()
        let store = FeedStore()
        let stats = ReadingStats()
        for round in 0..<2 {
            let articles = networkQueue.sync { fetcher.fetch(["a \(round)", "b c \(round)"]) }
            networkQueue.sync { stats.recordFetched(articles.count) }
            storageQueue.sync {
                for article in articles { store.add(article) }
                stats.recordStored(articles.count)
            }
        }
        XCTAssertEqual(storageQueue.sync { store.titles() }, ["a 0", "b c 0", "a 1", "b c 1"])
        XCTAssertEqual(stats.totals().stored, 4)
    }

    func testTheStoreKeepsUpToItsCapacity() {
        let store = FeedStore()
        let articles = networkQueue.sync { Fetcher().fetch(["x", "y", "z"]) }
        storageQueue.sync {
            store.capacity = 2
            for article in articles { store.add(article) }
            XCTAssertEqual(store.count(), 2)
        }
    }

    func testTheLoggingFetcherRemembersTitles() {
        let fetcher = LoggingFetcher()
        let store = FeedStore()
        let articles = networkQueue.sync {
            let fetched = fetcher.fetch(["one"]) + fetcher.fetch(["two"])
            XCTAssertEqual(fetcher.log, ["one", "two"])
            XCTAssertEqual(fetcher.fetchedCount, 2)
            return fetched
        }
        storageQueue.sync { for article in articles { store.add(article) } }
    }

    func testTheCacheCountsHits() {
        let cache = Cache<Int>()
        storageQueue.sync {
            cache.put(3, for: "three")
            XCTAssertEqual(cache.value(for: "three"), 3)
            XCTAssertNil(cache.value(for: "four"))
            XCTAssertEqual(cache.hits, 1)
        }
    }

    func testStatsAddUpFromBothQueues() {
        let stats = ReadingStats()
        networkQueue.sync { stats.recordFetched(2) }
        storageQueue.sync { stats.recordStored(1) }
        networkQueue.sync { stats.recordFetched(1) }
        XCTAssertEqual(stats.totals().fetched, 3)
    }

    func testTheImageCacheKeepsWhatItStores() {
        for _ in 0..<2 {
            let cache = ImageCache(limit: 4)
            cache.store([1, 2], for: "logo")
            XCTAssertEqual(cache.value(for: "logo"), [1, 2])
            cache.removeAll()
            XCTAssertNil(cache.value(for: "logo"))
        }
    }

    func testEachDownloaderCountsOnItsOwnQueue() {
        for feed in ["news", "sport"] {
            let downloader = Downloader(feed: feed)
            downloader.receive(10)
            downloader.receive(5)
            XCTAssertEqual(downloader.total(), 15)
        }
    }

    func testProgressCountsWhatIsFetchedAndStored() {
        let fetcher = Fetcher()
        let store = FeedStore()
        let articles = networkQueue.sync { fetcher.fetch(["p", "q"]) }
        storageQueue.sync { for article in articles { store.add(article) } }
        let progress = fetcher.progress(of: store)
        XCTAssertEqual(progress.fetched, 2)
        XCTAssertEqual(progress.stored, 2)
    }
}

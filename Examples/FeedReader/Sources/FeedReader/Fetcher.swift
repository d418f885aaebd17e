/// Fetches articles. Used in `networkQueue`'s work.
public class Fetcher {
    public var fetchedCount = 0

    public init() {}

    /// Makes one parsed article per title.
    public func fetch(_ titles: [String]) -> [Article] {
        fetchedCount += titles.count
        return titles.map { title in
            let article = Article(title: title)
            article.parse()
            return article
        }
    }

    /// How many articles have been fetched, and how many the store keeps.
    ///
    /// The planted bug: the store belongs to `storageQueue`, and this reads it in `networkQueue`'s work.
    public func progress(of store: FeedStore) -> (fetched: Int, stored: Int) {
        networkQueue.sync {
            (fetchedCount, store.count())
        }
    }
}

/// A fetcher that remembers what it fetched (a subclass: its instances are Fetchers too).
public final class LoggingFetcher: Fetcher {
    public var log: [String] = []

    public override func fetch(_ titles: [String]) -> [Article] {
        log += titles
        return super.fetch(titles)
    }
}

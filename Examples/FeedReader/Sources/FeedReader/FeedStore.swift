/// The articles kept so far. Used in `storageQueue`'s work.
public final class FeedStore {
    private var articles: [Article] = []
    public var capacity = 100

    public init() {}

    /// Marks `article` stored and keeps it, up to the capacity.
    public func add(_ article: Article) {
        article.markStored()
        if articles.count < capacity {
            articles.append(article)
        }
    }

    /// How many articles are kept.
    public func count() -> Int {
        articles.count
    }

    /// The titles kept, in order.
    public func titles() -> [String] {
        articles.map { $0.title }
    }
}

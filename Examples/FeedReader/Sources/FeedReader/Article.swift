/// One article: parsed in `networkQueue`'s work, then kept in `storageQueue`'s (a hand-off nobody wrote
/// down: every article moves from one queue to the other at one place).
public final class Article {
    public let title: String
    public var words = 0
    public private(set) var isStored = false

    public init(title: String) {
        self.title = title
    }

    /// Counts the words of the title (parsing, on the network queue).
    public func parse() {
        words = title.split(separator: " ").count
    }

    /// Marks the article as kept (on the storage queue).
    public func markStored() {
        isStored = true
    }
}

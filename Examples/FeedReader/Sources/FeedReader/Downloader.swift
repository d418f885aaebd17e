import Dispatch

/// Downloads one feed's images on a queue of its own: each public method hops onto it, so callers
/// use it from anywhere.
public final class Downloader {
    private let queue: DispatchQueue
    private var received = 0

    public init(feed: String) {
        queue = DispatchQueue(label: "feed.download.\(feed)")
    }

    /// Counts `bytes` more received.
    public func receive(_ bytes: Int) {
        queue.sync { received += bytes }
    }

    /// The bytes received so far.
    public func total() -> Int {
        queue.sync { received }
    }
}

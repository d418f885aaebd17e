import Dispatch

/// Keeps downloaded images on a queue each cache holds itself: every public method hops onto it, so
/// callers use it from anywhere, as an `@unchecked Sendable` cache on a private queue is written.
public final class ImageCache: @unchecked Sendable {
    private let queue = DispatchQueue(label: "feed.images")
    private var images: [String: [UInt8]] = [:]
    private let limit: Int

    public init(limit: Int) {
        self.limit = limit
    }

    /// Keeps `data` for `key`, later, in the cache's own work.
    public func store(_ data: [UInt8], for key: String) {
        queue.async { self.images[key] = data }
    }

    /// The image kept for `key`.
    public func value(for key: String) -> [UInt8]? {
        queue.sync { images[key] }
    }

    /// Forgets every image.
    public func removeAll() {
        queue.sync { images.removeAll() }
    }
}

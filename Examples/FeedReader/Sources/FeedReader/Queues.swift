import Foundation

/// What is kept (the store, the cache) belongs to this queue.
public let storageQueue = DispatchQueue(label: "feed.storage")

/// What is fetched (the fetchers) belongs to this queue.
public let networkQueue = DispatchQueue(label: "feed.network")

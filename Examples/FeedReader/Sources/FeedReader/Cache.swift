/// A generic cache of values by key. Used in `storageQueue`'s work.
public final class Cache<Value> {
    private var entries: [String: Value] = [:]
    public var hits = 0

    public init() {}

    /// Stores `value` for `key`.
    public func put(_ value: Value, for key: String) {
        entries[key] = value
    }

    /// The value for `key`, counting a hit when there is one.
    public func value(for key: String) -> Value? {
        guard let value = entries[key] else { return nil }
        hits += 1
        return value
    }
}

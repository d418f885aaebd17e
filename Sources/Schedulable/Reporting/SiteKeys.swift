/// What warn-once and storm control tell access sites apart by: the site's source line where the debug
/// information has one, else the return address of its frame.
///
/// By line, not by address, so that every build groups alike: an optimized build copies a line (a loop
/// unrolled, a function inlined into several callers) into several addresses, and a debug build does not.
/// Without a line (no debug information, a thunk) the address is all there is.
package enum SiteKey: Hashable, Sendable {
    /// A source line: the file's path as the debug information records it, and the line.
    case line(path: String, line: Int)
    /// A return address, where no line is known.
    case address(UInt)

    /// The key of `frame`.
    init(_ frame: CallStack.Frame) {
        if let path = frame.path, let line = frame.line, line > 0 {
            self = .line(path: path, line: line)
        } else {
            self = .address(frame.address)
        }
    }
}

/// Access-site keys of stacks seen before: the captured return addresses (and the property whose
/// accessors are skipped) → the access site's key. Bounded; forgotten wholesale when full.
enum SiteKeys {
    private struct Stack: Hashable {
        var addresses: [UInt]
        var property: String?
    }

    private static let limit = 1_024
    private static let keys = LockedValue([Stack: SiteKey?]())

    static func key(for addresses: [UInt], property: String?) -> SiteKey?? {
        keys.withLock { $0[Stack(addresses: addresses, property: property)] }
    }

    static func store(_ key: SiteKey?, for addresses: [UInt], property: String?) {
        keys.withLock { keys in
            if keys.count >= limit { keys.removeAll() }
            keys[Stack(addresses: addresses, property: property)] = .some(key)
        }
    }
}

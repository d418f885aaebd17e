#if os(Linux)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Little-endian reads that stay inside `limit` (a section or a unit); each answers `nil` past it.
struct DwarfCursor {
    let bytes: UnsafeRawBufferPointer
    let limit: Range<Int>
    var at: Int

    init(_ bytes: UnsafeRawBufferPointer, _ limit: Range<Int>, at: Int) {
        self.bytes = bytes
        self.limit = limit
        self.at = at
    }

    var isAtEnd: Bool { !limit.contains(at) }

    mutating func byte() -> UInt64? {
        guard limit.contains(at) else { return nil }
        defer { at += 1 }
        return UInt64(bytes[at])
    }

    /// An unsigned little-endian integer of `size` bytes (at most 8).
    mutating func fixed(_ size: Int) -> UInt64? {
        guard (1...8).contains(size), at >= limit.lowerBound, at <= limit.upperBound - size else { return nil }
        var value: UInt64 = 0
        for index in 0..<size { value |= UInt64(bytes[at + index]) << (8 * index) }
        at += size
        return value
    }

    mutating func uleb() -> UInt64? { leb()?.bits }

    mutating func sleb() -> Int64? {
        guard let (bits, shift, last) = leb() else { return nil }
        // Sign-extend from the last byte read (bit patterns: no arithmetic that could overflow).
        let extended = shift < 64 && last & 0x40 != 0 ? bits | ~UInt64(0) << shift : bits
        return Int64(bitPattern: extended)
    }

    /// A LEB128 number's low 64 bits, how many bits it had, and its last byte.
    private mutating func leb() -> (bits: UInt64, shift: UInt64, last: UInt64)? {
        var bits: UInt64 = 0
        var shift: UInt64 = 0
        while let byte = byte() {
            if shift < 64 { bits |= (byte & 0x7f) << shift }
            shift += 7
            if byte & 0x80 == 0 { return (bits, shift, byte) }
        }
        return nil
    }

    /// A NUL-terminated string, which must end inside the limit.
    mutating func cString() -> String? {
        guard at >= limit.lowerBound else { return nil }
        var end = at
        while end < limit.upperBound, bytes[end] != 0 { end += 1 }
        guard end < limit.upperBound else { return nil }
        defer { at = end + 1 }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[at..<end]), as: UTF8.self)
    }

    /// Steps over a NUL-terminated string without reading it; `nil` if it does not end inside the limit.
    mutating func skipCString() -> Void? {
        guard at >= limit.lowerBound else { return nil }
        var end = at
        while end < limit.upperBound, bytes[end] != 0 { end += 1 }
        guard end < limit.upperBound else { return nil }
        at = end + 1
        return ()
    }

    mutating func skip(_ count: UInt64) -> Bool {
        guard at >= limit.lowerBound, count <= UInt64(limit.upperBound - at) else { return false }
        at += Int(count)
        return true
    }

    /// A cursor at `offset` into this cursor's limit (a section), `nil` if outside it.
    func atOffset(_ offset: UInt64) -> DwarfCursor? {
        guard offset < UInt64(limit.count) else { return nil }
        return DwarfCursor(bytes, limit, at: limit.lowerBound + Int(offset))
    }
}
#endif

/// A declaration site in 8 bytes: what a debug-tier `@Confined` wrapper stores, so that a
/// `Confined<Int>` is 16 bytes and fits the runtime's 24-byte inline value buffer (a wrapper of 40
/// bytes was copied to the heap on every `-Onone` read through its key path; Benchmarks/README.md).
///
/// Layout: the `#fileID` literal's address in the high 48 bits, the line in the low 16. A literal's
/// bytes are stored in the binary, immutable, alive for the whole process and NUL-terminated (the
/// compiler emits every string literal with a terminating NUL), so the address alone gives the file
/// name back. Lossless: a site that does not fit — a line of 65,535 or more, a literal of one Unicode
/// scalar (kept without a pointer), an address above 2⁴⁸ — is interned instead, once per distinct site,
/// in a process-wide table (line field `0xFFFF`, high bits the table index); the common case is a
/// shift and an or, with no call.
@usableFromInline
package struct PackedCodeLocation: @unchecked Sendable {
    // @unchecked: the bits hold a string literal's address, immutable and alive for the whole process.
    @usableFromInline
    let bits: UInt64

    /// The line field's value for an interned site.
    @usableFromInline
    static var internedLine: UInt64 { 0xFFFF }

    /// The location `file`:`line`.
    @inlinable
    @inline(__always)
    package init(file: StaticString, line: UInt) {
        if file.hasPointerRepresentation, line < 0xFFFF {
            let address = UInt64(UInt(bitPattern: file.utf8Start))
            if address >> 48 == 0 {
                bits = address << 16 | UInt64(line)
                return
            }
        }
        bits = Self.intern(CompactCodeLocation(file: file, line: line))
    }

    /// No location: what a record keeps until it is bound (``compactOrNone`` gives
    /// ``CompactCodeLocation/none`` back).
    package static var none: PackedCodeLocation { PackedCodeLocation(bits: 0) }

    private init(bits: UInt64) { self.bits = bits }

    /// The location whose ``bits`` are `bits` (0 for ``none``): a site published as one word.
    package init(rawBits bits: UInt64) { self.bits = bits }

    /// `location` packed, ``CompactCodeLocation/none`` included (as 0: no literal lies at address 0):
    /// how a record keeps its bind site in one word. Every non-`none` compact location holds a
    /// literal's address (NUL-terminated) or an unpackable site, which is interned, so nothing is lost.
    package init(packing location: CompactCodeLocation) {
        if location.isNone {
            bits = 0
            return
        }
        if let file = location.file, location.line < 0xFFFF {
            let address = UInt64(UInt(bitPattern: file))
            if address >> 48 == 0 {
                bits = address << 16 | UInt64(location.line)
                return
            }
        }
        bits = Self.intern(location)
    }

    /// The location ``init(packing:)`` packed: ``CompactCodeLocation/none`` for 0.
    package var compactOrNone: CompactCodeLocation {
        bits == 0 ? .none : compact
    }

    /// The location, as records, reports and options compare and print it (no string is built).
    @inlinable
    @inline(__always)
    package var compact: CompactCodeLocation {
        if bits & Self.internedLine == Self.internedLine { return Self.interned(bits) }
        return CompactCodeLocation(nulTerminated: UnsafeRawPointer(bitPattern: UInt(bits >> 16)), line: bits & 0xFFFF)
    }

    // Interned sites: rare (see the type's comment), so a lock and a table are fine; each distinct site
    // is stored once, however many objects are created there.
    private static let table = LockedValue((sites: [CompactCodeLocation](), indices: [CompactCodeLocation: Int]()))

    /// The bits of `location` interned: its table index in the high bits, ``internedLine`` in the low.
    @usableFromInline
    static func intern(_ location: CompactCodeLocation) -> UInt64 {
        let index = table.withLock { table in
            if let index = table.indices[location] { return index }
            table.sites.append(location)
            table.indices[location] = table.sites.count - 1
            return table.sites.count - 1
        }
        return UInt64(index) << 16 | internedLine
    }

    /// The interned site whose bits are `bits`.
    @usableFromInline
    @inline(never)  // rare: kept out of the slow paths that unpack a site (their frames stay small)
    static func interned(_ bits: UInt64) -> CompactCodeLocation {
        table.withLock { $0.sites[Int(bits >> 16)] }
    }
}

/// A ``CodeLocation`` as the compiler gave it, in one word and without building a `String`: what
/// records, wrappers, work slots, checks and reports carry, so that a file name string is only made
/// when a report needs it. One word keeps a debug-tier `Confined<Int>` at 16 bytes, inside the
/// runtime's 24-byte inline value buffer (a larger wrapper was copied to the heap on every `-Onone`
/// read through its key path), a debug-tier record in a 64-byte allocator chunk, and lets a work slot
/// (`csched_work.h`) keep the site as plain bits (``init(rawBits:)``).
///
/// Layout: the `#fileID` literal's address in the high 48 bits, the line in the low 16; 0 is ``none``
/// (no literal lies at address 0). A literal's bytes are stored in the binary, immutable, alive for the
/// whole process and NUL-terminated (the compiler emits every string literal with a terminating NUL),
/// so the address alone gives the file name back. Lossless: a site that does not fit — a line of
/// 65,535 or more, a literal of one Unicode scalar (kept without a pointer), an address above 2⁴⁸ — is
/// interned instead, once per distinct site, in a process-wide table (line field `0xFFFF`, high bits
/// the table index); the common case is a shift and an or, with no call.
///
/// Equality and the hash go by the file's bytes and the line, never by the address alone: two copies
/// of one literal are one location.
@usableFromInline
package struct PackedCodeLocation: @unchecked Sendable, Hashable {
    // @unchecked: the bits hold a string literal's address, immutable and alive for the whole process.
    @usableFromInline
    let bits: UInt64

    /// The line field's value for an interned site.
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
        bits = Self.intern(file: file, line: line)
    }

    /// The location whose ``bits`` are `bits` (0 for ``none``): a site published as one word.
    package init(rawBits bits: UInt64) { self.bits = bits }

    /// No location: what a record keeps until it is bound, and a scheduler's own check verbs.
    package static var none: PackedCodeLocation { PackedCodeLocation(rawBits: 0) }

    /// Whether this is ``none``.
    package var isNone: Bool { bits == 0 }

    /// The location as reports spell it (builds the file name string).
    package var location: CodeLocation {
        if isInterned { return Self.interned(bits) }
        return CodeLocation(fileID: String(decoding: literalBytes, as: UTF8.self), line: Int(bits & 0xFFFF))
    }

    /// The location, or `nil` for ``none``.
    package var locationIfAny: CodeLocation? {
        isNone ? nil : location
    }

    private var isInterned: Bool { bits & Self.internedLine == Self.internedLine }

    /// The bytes of the literal at the address in the high bits (none for ``none``), up to its NUL.
    private var literalBytes: UnsafeRawBufferPointer {
        guard let file = UnsafeRawPointer(bitPattern: UInt(bits >> 16)) else {
            return UnsafeRawBufferPointer(start: nil, count: 0)
        }
        var count = 0
        while file.load(fromByteOffset: count, as: UInt8.self) != 0 { count += 1 }
        return UnsafeRawBufferPointer(start: file, count: count)
    }

    /// `body` applied to the file's UTF-8 bytes and the line, with no string built unless interned.
    private func withFileAndLine<Result>(_ body: (UnsafeRawBufferPointer, Int) -> Result) -> Result {
        guard isInterned else { return body(literalBytes, Int(bits & 0xFFFF)) }
        let location = Self.interned(bits)
        var fileID = location.fileID
        return fileID.withUTF8 { body(UnsafeRawBufferPointer($0), location.line) }
    }

    @usableFromInline
    package static func == (lhs: Self, rhs: Self) -> Bool {
        if lhs.bits == rhs.bits { return true }
        guard !lhs.isNone, !rhs.isNone else { return false }
        return lhs.withFileAndLine { lhsFile, lhsLine in
            rhs.withFileAndLine { rhsFile, rhsLine in lhsLine == rhsLine && lhsFile.elementsEqual(rhsFile) }
        }
    }

    @usableFromInline
    package func hash(into hasher: inout Hasher) {
        withFileAndLine { file, line in
            hasher.combine(line)
            hasher.combine(bytes: file)
        }
    }

    // Interned sites: rare (see the type's comment), so a lock and a table are fine; each distinct site
    // is stored once, however many objects are created there.
    private static let table = LockedValue((sites: [CodeLocation](), indices: [CodeLocation: Int]()))

    /// The bits of `file`:`line` interned: its table index in the high bits, ``internedLine`` in the low.
    @usableFromInline
    @inline(never)  // rare: kept out of the inlined initializer's callers
    static func intern(file: StaticString, line: UInt) -> UInt64 {
        let location = CodeLocation(file: file, line: line)
        let index = table.withLock { table in
            if let index = table.indices[location] { return index }
            table.sites.append(location)
            table.indices[location] = table.sites.count - 1
            return table.sites.count - 1
        }
        return UInt64(index) << 16 | internedLine
    }

    /// The interned site whose bits are `bits`.
    @inline(never)  // rare: kept out of the slow paths that unpack a site (their frames stay small)
    private static func interned(_ bits: UInt64) -> CodeLocation {
        table.withLock { $0.sites[Int(bits >> 16)] }
    }
}

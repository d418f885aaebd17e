/// A ``CodeLocation`` as the compiler gave it — the `#fileID` literal's bytes and the line — in 16
/// bytes and without building a `String`: what records, wrappers and checks carry, so that a file name
/// string is only made when a report needs it.
///
/// `#fileID` literals are stored in the binary and live as long as the process, so keeping their
/// address is safe; equality compares the bytes, not the address.
@usableFromInline
package struct CompactCodeLocation: @unchecked Sendable, Hashable {
    // @unchecked: `file` points at a string literal's bytes, immutable and alive for the whole process.
    /// The literal's UTF-8 bytes, or `nil` for a literal of one Unicode scalar (kept in `length`) or for
    /// ``none``.
    @usableFromInline
    let file: UnsafeRawPointer?
    @usableFromInline
    let line: UInt32
    /// The literal's byte count, or the scalar's value when `file` is `nil`, or ``nulTerminated`` for a
    /// literal whose count was not kept (a ``PackedCodeLocation``'s): the bytes end at its NUL.
    @usableFromInline
    let length: UInt32

    /// The `length` of a literal found by its terminating NUL.
    @usableFromInline
    static var nulTerminated: UInt32 { .max }

    /// The location `file`:`line`.
    @inlinable
    @inline(__always)
    package init(file: StaticString, line: UInt) {
        if file.hasPointerRepresentation {
            self.file = UnsafeRawPointer(file.utf8Start)
            self.length = UInt32(truncatingIfNeeded: file.utf8CodeUnitCount)
        } else {
            self.file = nil
            self.length = file.unicodeScalar.value
        }
        self.line = UInt32(clamping: line)
    }

    /// The location of a literal known only by its address (`file`, NUL-terminated, not `nil`): what a
    /// ``PackedCodeLocation`` keeps.
    @inlinable
    @inline(__always)
    init(nulTerminated file: UnsafeRawPointer?, line: UInt64) {
        self.file = file
        self.line = UInt32(truncatingIfNeeded: line)
        self.length = Self.nulTerminated
    }

    private init(none: Void) {
        file = nil
        line = 0
        length = 0
    }

    /// No location (an object not bound yet).
    package static let none = CompactCodeLocation(none: ())

    /// Whether this is ``none``.
    package var isNone: Bool { file == nil && line == 0 && length == 0 }

    /// The location as reports spell it (builds the file name string).
    package var location: CodeLocation {
        CodeLocation(fileID: fileID, line: Int(line))
    }

    /// The location, or `nil` for ``none``.
    package var locationIfAny: CodeLocation? {
        isNone ? nil : location
    }

    private var bytes: UnsafeRawBufferPointer {
        guard let file else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        guard length == Self.nulTerminated else { return UnsafeRawBufferPointer(start: file, count: Int(length)) }
        var count = 0
        while file.load(fromByteOffset: count, as: UInt8.self) != 0 { count += 1 }
        return UnsafeRawBufferPointer(start: file, count: count)
    }

    private var fileID: String {
        guard file != nil else { return Unicode.Scalar(length).map { String($0) } ?? "" }
        return String(decoding: bytes, as: UTF8.self)
    }

    // A literal's count may be kept or found by its NUL (``nulTerminated``): equality and the hash go by
    // the bytes, never by `length` alone.
    @usableFromInline
    package static func == (lhs: Self, rhs: Self) -> Bool {
        guard lhs.line == rhs.line, (lhs.file == nil) == (rhs.file == nil) else { return false }
        guard lhs.file != nil else { return lhs.length == rhs.length }
        return (lhs.file == rhs.file && lhs.length == rhs.length) || lhs.bytes.elementsEqual(rhs.bytes)
    }

    @usableFromInline
    package func hash(into hasher: inout Hasher) {
        hasher.combine(line)
        if file == nil { hasher.combine(length) } else { hasher.combine(bytes: bytes) }
    }
}

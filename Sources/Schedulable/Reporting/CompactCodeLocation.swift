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
    /// The literal's byte count, or the scalar's value when `file` is `nil`.
    @usableFromInline
    let length: UInt32

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
        UnsafeRawBufferPointer(start: file, count: file == nil ? 0 : Int(length))
    }

    private var fileID: String {
        guard file != nil else { return Unicode.Scalar(length).map { String($0) } ?? "" }
        return String(decoding: bytes, as: UTF8.self)
    }

    @usableFromInline
    package static func == (lhs: Self, rhs: Self) -> Bool {
        guard lhs.line == rhs.line, lhs.length == rhs.length, (lhs.file == nil) == (rhs.file == nil) else { return false }
        return lhs.file == rhs.file || lhs.bytes.elementsEqual(rhs.bytes)
    }

    @usableFromInline
    package func hash(into hasher: inout Hasher) {
        hasher.combine(line)
        hasher.combine(length)
        hasher.combine(bytes: bytes)
    }
}

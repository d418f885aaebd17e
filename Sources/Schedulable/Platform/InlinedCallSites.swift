#if os(Linux)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The inlined calls at one address of an ELF image, read from its DWARF 2–4 debug information: the
/// call sites a report's access site needs where the toolchain `Runtime` module's lookup misses them
/// (reporting path only; `CallStack` uses it on Linux).
///
/// Why: the `Runtime` module (Swift 6.3) finds inlined frames by a binary search over every inlined
/// call's address range sorted by start, which assumes the ranges do not nest. When a nested inlined
/// call that ends before the address (a property's own getter inlined into the user's function, and
/// inside it an inlined witness or helper before the slow path's call) is where the search lands, it
/// moves past the enclosing call and finds none: the physical frame then gets the line table's row for
/// the address, which in code inlined from the library is line 0, and the report loses the access
/// site's file and line. It also drops every inlined call without a call column (a call made at line 0,
/// as a compiler-generated accessor makes it). This reads the chain the way `llvm-symbolizer` does:
/// the `DW_TAG_inlined_subroutine` entries whose ranges contain the address, outermost first.
///
/// `SCHEDULABLE_DISABLE_DWARF_READER` switches it off: stacks then keep the `Runtime`'s inlined frames.
/// `Reproducers/RuntimeInlinedFrames` shows both misses in small libraries, ready to file upstream; CI
/// fails once a toolchain no longer shows them, so that this reader is measured again.
///
/// DWARF 5 units are skipped (answer `nil`, and `CallStack` keeps the `Runtime`'s frames): Swift 6.3
/// emits DWARF 4 for Swift code on Linux (`llvm-dwarfdump --debug-info`: 927 units of version 4 in the
/// test binary; the 14 of version 5 are the C targets', built by clang), and version 5 would need its
/// own unit header, forms (`strx`, `addrx`, `rnglistx`) and line table header for no report this
/// library makes. Every read is bounded by its section (and unit); anything unexpected — a truncated
/// section, an unknown form, a compressed section, 64-bit DWARF — answers `nil`, never a partial chain.
enum InlinedCallSites {
    /// One inlined call: the function inlined (its linkage name) and where its caller called it.
    struct Site: Equatable, Sendable {
        var linkageName: String?
        /// The call's file, line and column; `nil` where DWARF gives none (line 0, or no file; column 0).
        var callFile: String?
        var callLine: Int?
        var callColumn: Int?
    }

    /// Images read so far, by path (`nil`: not a readable ELF image, or no DWARF), each kept mapped
    /// read-only: a report's frames are in few images, and indexing one's units is the expensive part,
    /// done once per image under the lock, so a second thread reporting meanwhile waits rather than
    /// indexing it again. What stays is the
    /// mapping (file-backed pages the kernel can drop) and about a hundred bytes per compile unit; at most 64
    /// images are kept. Behind the package's pthread lock (reports are made on many threads at once;
    /// ThreadSanitizer cannot see `Synchronization.Mutex` on Linux).
    static let images = LockedValue([String: DwarfImage?]())

    /// The inlined calls containing the address `offset` bytes after the start of the image's lowest
    /// mapping (`ImageMap`'s base address on Linux), outermost first: the first was called from the
    /// physical function, each next one from the one before. Empty when nothing is inlined there; `nil`
    /// when the image's DWARF cannot say (no DWARF 2–4 unit covers it, or it is unreadable).
    static func sites(inImageAt path: String, offsetFromMapping offset: UInt64) -> [Site]? {
        guard let image = image(at: path) else { return nil }
        let (address, overflow) = image.linkBase.addingReportingOverflow(offset)
        return overflow ? nil : image.inlinedCalls(at: address)
    }

    /// The same for an address as DWARF spells it (a link-time address, as `llvm-symbolizer` takes).
    static func sites(inImageAt path: String, fileAddress: UInt64) -> [Site]? {
        image(at: path)?.inlinedCalls(at: fileAddress)
    }

    /// The same for an image's bytes (not kept): the reader on any input (tests).
    static func sites(inImageBytes bytes: UnsafeRawBufferPointer, fileAddress: UInt64) -> [Site]? {
        DwarfImage(bytes: bytes, mapping: nil)?.inlinedCalls(at: fileAddress)
    }

    /// The file, line and column the image's line table gives the address `offset` bytes after the start
    /// of its lowest mapping: the innermost location at that address, as `llvm-symbolizer` gives it
    /// (`line` 0 where the row says so); `nil` when no DWARF 2–4 unit covers it. Each unit's table is
    /// decoded once, on its first question.
    static func line(inImageAt path: String, offsetFromMapping offset: UInt64) -> (path: String?, line: Int, column: Int)? {
        guard let image = image(at: path) else { return nil }
        let (address, overflow) = image.linkBase.addingReportingOverflow(offset)
        return overflow ? nil : image.lineRow(at: address)
    }

    /// The inlined calls (as ``sites(inImageAt:offsetFromMapping:)``) and the line table's row (as
    /// ``line(inImageAt:offsetFromMapping:)``) at one address, with one look-up of its image and unit;
    /// `nil` when either cannot be said.
    static func location(
        inImageAt path: String, offsetFromMapping offset: UInt64
    ) -> (sites: [Site], row: (path: String?, line: Int, column: Int))? {
        guard let image = image(at: path) else { return nil }
        let (address, overflow) = image.linkBase.addingReportingOverflow(offset)
        return overflow ? nil : image.location(at: address)
    }

    /// The same for an address as DWARF spells it (a link-time address).
    static func line(inImageAt path: String, fileAddress: UInt64) -> (path: String?, line: Int, column: Int)? {
        image(at: path)?.lineRow(at: fileAddress)
    }

    /// The link-time address range of the image's `.text` section (tests sample addresses in it).
    static func textRange(inImageAt path: String) -> Range<UInt64>? {
        image(at: path)?.textRange
    }

    static func image(at path: String) -> DwarfImage? {
        images.withLock { images -> DwarfImage? in
            if let known = images[path] { return known }
            let read = DwarfImage(mappingFileAt: path)
            if images.count >= 64 { images.removeAll() }
            images[path] = read
            return read
        }
    }
}
#endif

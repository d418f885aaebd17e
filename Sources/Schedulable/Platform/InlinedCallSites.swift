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
        /// The call's file and line; `nil` where DWARF gives none (line 0, or no file).
        var callFile: String?
        var callLine: Int?
    }

    /// Images read so far, by path (`nil`: not a readable ELF image, or no DWARF), each kept mapped
    /// read-only: a report's frames are in few images, and indexing one's units is the expensive part
    /// (about 60 ms for a 20 MB test binary, then about a millisecond per address), under the lock, so a
    /// second thread reporting meanwhile waits rather than indexing it again. What stays is the
    /// mapping (file-backed pages the kernel can drop) and about a hundred bytes per compile unit; at most 64
    /// images are kept. Behind the package's pthread lock (reports are made on many threads at once;
    /// ThreadSanitizer cannot see `Synchronization.Mutex` on Linux).
    private static let images = LockedValue([String: DwarfImage?]())

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

    /// The link-time address range of the image's `.text` section (tests sample addresses in it).
    static func textRange(inImageAt path: String) -> Range<UInt64>? {
        image(at: path)?.textRange
    }

    private static func image(at path: String) -> DwarfImage? {
        images.withLock { images -> DwarfImage? in
            if let known = images[path] { return known }
            let read = DwarfImage(mappingFileAt: path)
            if images.count >= 64 { images.removeAll() }
            images[path] = read
            return read
        }
    }
}

/// Little-endian reads that stay inside `limit` (a section or a unit); each answers `nil` past it.
private struct Cursor {
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

    mutating func skip(_ count: UInt64) -> Bool {
        guard at >= limit.lowerBound, count <= UInt64(limit.upperBound - at) else { return false }
        at += Int(count)
        return true
    }

    /// A cursor at `offset` into this cursor's limit (a section), `nil` if outside it.
    func atOffset(_ offset: UInt64) -> Cursor? {
        guard offset < UInt64(limit.count) else { return nil }
        return Cursor(bytes, limit, at: limit.lowerBound + Int(offset))
    }
}

/// A 64-bit little-endian ELF image's DWARF 2–4 compile units. Immutable once made (read from any
/// thread); unmaps its file when released.
private final class DwarfImage: @unchecked Sendable {
    private let bytes: UnsafeRawBufferPointer
    private let mapping: UnsafeRawBufferPointer?
    /// The link-time address of the image's lowest mapping (0 for a position-independent image).
    private(set) var linkBase: UInt64 = 0
    private(set) var textRange: Range<UInt64>?
    private var sections: [String: Range<Int>] = [:]
    /// Each DWARF 2–4 compile unit: where it and its entries are, and its root entry's attributes.
    private var units: [Unit] = []

    private struct Unit {
        var range: Range<Int>
        var entries: Int
        var version: UInt64
        var addressSize: Int
        var abbreviationOffset: UInt64
        var root: [UInt64: Value]

        /// The base address of range lists in the unit (its `DW_AT_low_pc`).
        var base: UInt64 {
            if case .address(let low)? = root[DW.lowPC] { return low }
            return 0
        }
    }

    /// An attribute's value, as far as the reader needs it.
    private enum Value {
        case number(UInt64)
        case address(UInt64)
        /// An entry, by its offset in the file.
        case reference(Int)
        case string(String)
        case other
    }

    private struct Abbreviation {
        var tag: UInt64
        var hasChildren: Bool
        var attributes: [(name: UInt64, form: UInt64)]
    }

    convenience init?(mappingFileAt path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_size > 0, let size = Int(exactly: status.st_size),
              let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != UnsafeMutableRawPointer(bitPattern: -1)
        else { return nil }
        let mapping = UnsafeRawBufferPointer(start: base, count: size)
        self.init(bytes: mapping, mapping: mapping)
    }

    /// Reads the section table and the units' headers; `nil` if `bytes` is not such an image with
    /// `.debug_info`. `mapping` is unmapped with the image, also when this fails.
    init?(bytes: UnsafeRawBufferPointer, mapping: UnsafeRawBufferPointer?) {
        self.bytes = bytes
        self.mapping = mapping
        guard readSections(), sections[".debug_info"] != nil, sections[".debug_abbrev"] != nil else { return nil }
        units = readUnits()
    }

    deinit {
        if let mapping { munmap(UnsafeMutableRawPointer(mutating: mapping.baseAddress), mapping.count) }
    }

    // MARK: ELF

    private func readSections() -> Bool {
        let file = Cursor(bytes, 0..<bytes.count, at: 0)
        // ELFCLASS64, ELFDATA2LSB.
        guard bytes.count >= 64, bytes[0] == 0x7f, bytes[1] == 0x45, bytes[2] == 0x4c, bytes[3] == 0x46,
              bytes[4] == 2, bytes[5] == 1
        else { return false }
        func field(_ offset: Int, _ size: Int) -> UInt64? {
            var cursor = file
            cursor.at = offset
            return cursor.fixed(size)
        }
        guard let headers = field(0x28, 8), let headerSize = field(0x3a, 2), let count = field(0x3c, 2),
              let namesIndex = field(0x3e, 2), let programHeaders = field(0x20, 8),
              let programHeaderSize = field(0x36, 2), let programCount = field(0x38, 2),
              headerSize >= 0x40, namesIndex < count, headers < UInt64(bytes.count)
        else { return false }
        // Section header `index`: name, type, flags, address, offset, size.
        func section(_ index: UInt64) -> (name: UInt64, type: UInt64, flags: UInt64, address: UInt64, range: Range<Int>)? {
            let start = headers + index * headerSize
            guard start < UInt64(bytes.count), let name = field(Int(start), 4), let type = field(Int(start) + 4, 4),
                  let flags = field(Int(start) + 8, 8), let address = field(Int(start) + 0x10, 8),
                  let offset = field(Int(start) + 0x18, 8), let size = field(Int(start) + 0x20, 8),
                  offset <= UInt64(bytes.count), size <= UInt64(bytes.count) - offset
            else { return nil }
            return (name, type, flags, address, Int(offset)..<Int(offset + size))
        }
        guard let names = section(namesIndex) else { return false }
        let nameTable = Cursor(bytes, names.range, at: names.range.lowerBound)
        for index in 0..<count {
            // SHT_NOBITS (8) has no bytes in the file; SHF_COMPRESSED (0x800) would need inflating.
            guard let header = section(index), header.type != 8, header.flags & 0x800 == 0,
                  var name = nameTable.atOffset(header.name), let string = name.cString()
            else { continue }
            sections[string] = header.range
            if string == ".text" {
                let (end, overflow) = header.address.addingReportingOverflow(UInt64(header.range.count))
                textRange = overflow ? nil : header.address..<end
            }
        }
        // The lowest PT_LOAD: the `Runtime`'s `ImageMap` gives an image's lowest mapping as its base.
        if programHeaderSize >= 0x38 {
            var lowest: UInt64?
            for index in 0..<programCount {
                let start = programHeaders &+ index &* programHeaderSize
                guard start < UInt64(bytes.count), let type = field(Int(start), 4), type == 1,
                      let address = field(Int(start) + 0x10, 8)
                else { continue }
                lowest = min(lowest ?? address, address)
            }
            let page = UInt64(max(sysconf(Int32(_SC_PAGESIZE)), 4096))
            linkBase = (lowest ?? 0) & ~(page - 1)
        }
        return true
    }

    // MARK: Units

    private func readUnits() -> [Unit] {
        guard let info = sections[".debug_info"] else { return [] }
        var units: [Unit] = []
        var cursor = Cursor(bytes, info, at: info.lowerBound)
        while !cursor.isAtEnd {
            let start = cursor.at
            guard let length = cursor.fixed(4) else { break }
            if length == 0xffff_ffff {
                // 64-bit DWARF: not read, but its length says where the next unit starts.
                guard let length = cursor.fixed(8), cursor.skip(length) else { break }
                continue
            }
            guard length < 0xffff_fff0, UInt64(info.upperBound - cursor.at) >= length else { break }
            let range = start..<(cursor.at + Int(length))
            defer { cursor.at = range.upperBound }
            var header = Cursor(bytes, range, at: cursor.at)
            guard let version = header.fixed(2), (2...4).contains(version),
                  let abbreviationOffset = header.fixed(4), let addressSize = header.fixed(1),
                  addressSize == 4 || addressSize == 8
            else { continue }
            var unit = Unit(range: range, entries: header.at, version: version, addressSize: Int(addressSize),
                            abbreviationOffset: abbreviationOffset, root: [:])
            guard let table = abbreviations(at: abbreviationOffset),
                  let (abbreviation, root) = entry(&header, unit: unit, abbreviations: table),
                  abbreviation.tag == DW.tagCompileUnit
            else { continue }
            unit.entries = header.at
            // Only what lookups read (not the producer's or the file's name).
            unit.root = root.filter { DW.unitAttributes.contains($0.key) }
            units.append(unit)
        }
        return units
    }

    private func abbreviations(at offset: UInt64) -> [UInt64: Abbreviation]? {
        guard let section = sections[".debug_abbrev"],
              var cursor = Cursor(bytes, section, at: section.lowerBound).atOffset(offset)
        else { return nil }
        var table: [UInt64: Abbreviation] = [:]
        while true {
            guard let code = cursor.uleb() else { return nil }
            if code == 0 { return table }
            guard let tag = cursor.uleb(), let children = cursor.byte() else { return nil }
            var attributes: [(UInt64, UInt64)] = []
            while true {
                guard let name = cursor.uleb(), let form = cursor.uleb() else { return nil }
                if name == 0 && form == 0 { break }
                // DW_FORM_implicit_const (DWARF 5) keeps its value here: read past it (a unit using it is not read).
                if form == DW.formImplicitConst { guard cursor.sleb() != nil else { return nil } }
                attributes.append((name, form))
            }
            table[code] = Abbreviation(tag: tag, hasChildren: children != 0, attributes: attributes)
        }
    }

    /// Reads one attribute value of a DWARF 2–4 unit (32-bit format); `nil` for a form this reader does
    /// not know, or a value past the unit's end.
    private func value(form: UInt64, _ cursor: inout Cursor, unit: Unit, indirect: Bool = false) -> Value? {
        func number(_ size: Int) -> Value? { cursor.fixed(size).map(Value.number) }
        func block(_ length: UInt64?) -> Value? {
            guard let length, cursor.skip(length) else { return nil }
            return .other
        }
        func reference(_ offset: UInt64?, from base: Int) -> Value? {
            guard let offset, offset < UInt64(bytes.count - base) else { return nil }
            return .reference(base + Int(offset))
        }
        switch form {
        case 0x01: return cursor.fixed(unit.addressSize).map(Value.address)  // addr
        case 0x03: return block(cursor.fixed(2))  // block2
        case 0x04: return block(cursor.fixed(4))  // block4
        case 0x05: return number(2)  // data2
        case 0x06: return number(4)  // data4
        case 0x07: return number(8)  // data8
        case 0x08: return cursor.cString().map(Value.string)  // string
        case 0x09, 0x18: return block(cursor.uleb())  // block, exprloc
        case 0x0a: return block(cursor.byte())  // block1
        case 0x0b: return number(1)  // data1
        case 0x0c: return cursor.byte().map { _ in Value.other }  // flag
        case 0x0d: return cursor.sleb().map { .number(UInt64(bitPattern: $0)) }  // sdata
        case 0x0e:  // strp
            guard let offset = cursor.fixed(4), let strings = sections[".debug_str"],
                  var string = Cursor(bytes, strings, at: strings.lowerBound).atOffset(offset)
            else { return nil }
            return string.cString().map(Value.string)
        case 0x0f: return cursor.uleb().map(Value.number)  // udata
        case 0x10:  // ref_addr: from the start of .debug_info, address-sized in DWARF 2
            guard let info = sections[".debug_info"] else { return nil }
            return reference(cursor.fixed(unit.version == 2 ? unit.addressSize : 4), from: info.lowerBound)
        case 0x11: return reference(cursor.fixed(1), from: unit.range.lowerBound)  // ref1
        case 0x12: return reference(cursor.fixed(2), from: unit.range.lowerBound)  // ref2
        case 0x13: return reference(cursor.fixed(4), from: unit.range.lowerBound)  // ref4
        case 0x14: return reference(cursor.fixed(8), from: unit.range.lowerBound)  // ref8
        case 0x15: return reference(cursor.uleb(), from: unit.range.lowerBound)  // ref_udata
        case 0x16:  // indirect (once)
            guard !indirect, let actual = cursor.uleb() else { return nil }
            return value(form: actual, &cursor, unit: unit, indirect: true)
        case 0x17: return number(4)  // sec_offset
        case 0x19: return .other  // flag_present
        case 0x20: return number(8).map { _ in Value.other }  // ref_sig8
        default: return nil
        }
    }

    /// The abbreviation and attributes of the entry at the cursor; `nil` at a null entry or an
    /// unreadable one.
    private func entry(
        _ cursor: inout Cursor, unit: Unit, abbreviations: [UInt64: Abbreviation]
    ) -> (Abbreviation, [UInt64: Value])? {
        guard let code = cursor.uleb(), code != 0, let abbreviation = abbreviations[code] else { return nil }
        var values: [UInt64: Value] = [:]
        for attribute in abbreviation.attributes {
            guard let value = value(form: attribute.form, &cursor, unit: unit) else { return nil }
            values[attribute.name] = value
        }
        return (abbreviation, values)
    }

    /// Whether the entry's address ranges contain `address`: `nil` if it has ranges that cannot be read,
    /// `false` if it has none (a declaration).
    private func contains(_ values: [UInt64: Value], _ address: UInt64, unit: Unit) -> Bool? {
        if case .address(let low)? = values[DW.lowPC], let high = values[DW.highPC] {
            switch high {
            case .address(let end): return low <= address && address < end  // DW_FORM_addr: an address
            case .number(let size):  // a constant class: the size
                let (end, overflow) = low.addingReportingOverflow(size)
                return !overflow && low <= address && address < end
            default: return nil
            }
        }
        guard let ranges = values[DW.ranges] else { return false }
        guard case .number(let offset) = ranges, let section = sections[".debug_ranges"],
              var cursor = Cursor(bytes, section, at: section.lowerBound).atOffset(offset)
        else { return nil }
        let largest = unit.addressSize == 8 ? UInt64.max : UInt64(UInt32.max)
        var base = unit.base
        while true {
            guard let start = cursor.fixed(unit.addressSize), let end = cursor.fixed(unit.addressSize) else { return nil }
            if start == 0 && end == 0 { return false }
            if start == largest { base = end; continue }
            if base &+ start <= address && address < base &+ end { return true }
        }
    }

    /// The file names of the unit's DWARF 2–4 line program, by index (1 on; 0 is no file), with
    /// relative ones joined to their directory and to the compilation directory; `nil` if unreadable.
    private func fileNames(_ unit: Unit) -> [String?]? {
        guard case .number(let offset)? = unit.root[DW.stmtList] else { return [nil] }
        var compilationDirectory: String?
        if case .string(let path)? = unit.root[DW.compilationDirectory] { compilationDirectory = path }
        guard let lines = sections[".debug_line"],
              var program = Cursor(bytes, lines, at: lines.lowerBound).atOffset(offset),
              let length = program.fixed(4), length < 0xffff_fff0, UInt64(lines.upperBound - program.at) >= length
        else { return nil }
        var cursor = Cursor(bytes, program.at..<(program.at + Int(length)), at: program.at)
        guard let version = cursor.fixed(2), (2...4).contains(version), let headerLength = cursor.fixed(4),
              UInt64(cursor.limit.upperBound - cursor.at) >= headerLength
        else { return nil }
        // The header's own limit; then minimum_instruction_length, maximum_operations_per_instruction
        // (version 4), default_is_stmt, line_base, line_range, opcode_base and the opcode lengths.
        cursor = Cursor(bytes, cursor.at..<(cursor.at + Int(headerLength)), at: cursor.at)
        guard cursor.skip(version >= 4 ? 5 : 4), let opcodeBase = cursor.byte(), opcodeBase > 0,
              cursor.skip(opcodeBase - 1)
        else { return nil }
        func joined(_ directory: String?, _ name: String) -> String {
            guard let directory, !directory.isEmpty, !name.hasPrefix("/") else { return name }
            return directory.hasSuffix("/") ? directory + name : directory + "/" + name
        }
        var directories: [String?] = [compilationDirectory]
        while true {
            guard let directory = cursor.cString() else { return nil }
            if directory.isEmpty { break }
            directories.append(joined(compilationDirectory, directory))
        }
        var files: [String?] = [nil]
        while true {
            guard let name = cursor.cString() else { return nil }
            if name.isEmpty { break }
            guard let directory = cursor.uleb(), cursor.uleb() != nil, cursor.uleb() != nil,
                  directory < UInt64(directories.count)
            else { return nil }
            files.append(joined(directories[Int(directory)], name))
        }
        return files
    }

    /// The unit holding the entry at file offset `offset`.
    private func unit(holding offset: Int) -> Unit? {
        units.first { $0.range.contains(offset) }
    }

    /// The linkage name of the function an inlined entry's abstract origin is (following a declaration
    /// it refers to with `DW_AT_specification`), or its plain name; `nil` if none can be read.
    private func originName(_ values: [UInt64: Value], unit: Unit, abbreviations: [UInt64: Abbreviation]) -> String? {
        var values = values
        for reference in [DW.abstractOrigin, DW.specification] {
            if case .string(let name)? = values[DW.linkageName] { return name }
            guard case .reference(let offset)? = values[reference] else { continue }
            guard let target = unit.range.contains(offset) ? unit : self.unit(holding: offset),
                  let table = target.range == unit.range ? abbreviations : self.abbreviations(at: target.abbreviationOffset)
            else { return nil }
            var cursor = Cursor(bytes, target.range, at: offset)
            guard let (_, referenced) = entry(&cursor, unit: target, abbreviations: table) else { return nil }
            values = referenced
        }
        if case .string(let name)? = values[DW.linkageName] { return name }
        if case .string(let name)? = values[DW.name] { return name }
        return nil
    }

    /// The inlined calls containing `address`, outermost first; `nil` if no DWARF 2–4 unit's function
    /// contains it, or what is on the way cannot be read.
    func inlinedCalls(at address: UInt64) -> [InlinedCallSites.Site]? {
        for unit in units where contains(unit.root, address, unit: unit) == true {
            guard let table = abbreviations(at: unit.abbreviationOffset), let files = fileNames(unit) else { return nil }
            return inlinedCalls(at: address, in: unit, abbreviations: table, files: files)
        }
        return nil
    }

    /// Walks a unit's entries to the function containing `address` and collects the inlined entries
    /// containing it, outermost first (nested entries come after their parent); stops when the
    /// innermost one closes.
    private func inlinedCalls(
        at address: UInt64, in unit: Unit, abbreviations: [UInt64: Abbreviation], files: [String?]
    ) -> [InlinedCallSites.Site]? {
        var chain: [InlinedCallSites.Site] = []
        var open: [Bool] = []  // per open entry below the root: whether it contains the address
        var inFunction = false
        var cursor = Cursor(bytes, unit.range, at: unit.entries)
        while !cursor.isAtEnd {
            var probe = cursor
            guard let code = probe.uleb() else { return nil }
            if code == 0 {
                cursor = probe
                guard let closed = open.popLast() else { return nil }  // the root closes: no function has it
                if closed { return inFunction ? chain : nil }
                continue
            }
            guard let (abbreviation, values) = entry(&cursor, unit: unit, abbreviations: abbreviations) else { return nil }
            let isFunction = abbreviation.tag == DW.tagSubprogram
            let isInlined = abbreviation.tag == DW.tagInlinedSubroutine
            var containing = false
            if isFunction || isInlined {
                guard let contains = contains(values, address, unit: unit) else { return nil }
                containing = contains
            }
            if isFunction && containing { inFunction = true }
            if isInlined && containing && inFunction {
                var site = InlinedCallSites.Site()
                if case .number(let line)? = values[DW.callLine], line > 0, case .number(let file)? = values[DW.callFile],
                   file < UInt64(files.count), let path = files[Int(file)] {
                    site.callFile = path
                    site.callLine = Int(clamping: line)
                }
                site.linkageName = originName(values, unit: unit, abbreviations: abbreviations)
                chain.append(site)
            }
            if abbreviation.hasChildren {
                open.append(containing)
            } else if containing {
                return inFunction ? chain : nil
            }
        }
        return nil
    }
}

/// The DWARF constants the reader uses (DWARF 4, section 7.5).
private enum DW {
    static let tagCompileUnit: UInt64 = 0x11, tagSubprogram: UInt64 = 0x2e, tagInlinedSubroutine: UInt64 = 0x1d
    static let name: UInt64 = 0x03, stmtList: UInt64 = 0x10, lowPC: UInt64 = 0x11, highPC: UInt64 = 0x12
    static let compilationDirectory: UInt64 = 0x1b, abstractOrigin: UInt64 = 0x31, specification: UInt64 = 0x47
    static let ranges: UInt64 = 0x55, callFile: UInt64 = 0x58, callLine: UInt64 = 0x59, linkageName: UInt64 = 0x6e
    static let formImplicitConst: UInt64 = 0x21
    static let unitAttributes: Set<UInt64> = [lowPC, highPC, ranges, stmtList, compilationDirectory]
}
#endif

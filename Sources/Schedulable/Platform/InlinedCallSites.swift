#if os(Linux)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The inlined calls at one address of an ELF image, read from its DWARF 4 debug information: the
/// call sites a report's access site needs when the toolchain `Runtime` module's lookup misses them
/// (reporting path only).
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
enum InlinedCallSites {
    /// One inlined call: the function inlined (its linkage name) and where its caller called it.
    struct Site: Equatable {
        var linkageName: String?
        var callFile: String?
        var callLine: Int
    }

    /// Images read so far, by path (`nil`: not an ELF image or no DWARF), kept mapped: a report's frames
    /// are in few images, and indexing one's units is the expensive part (about 60 ms for a 20 MB test
    /// binary, then about a millisecond per address).
    private static let images = LockedValue([String: DwarfImage?]())

    /// The inlined calls containing `address` (an address of the image's file, as DWARF spells it),
    /// outermost first: the first one was called from the physical function, each next one from the
    /// one before. Empty when the image has no DWARF 4 information for it, or nothing is inlined there.
    static func sites(inImageAt path: String, address: UInt64) -> [Site] {
        let image = images.withLock { images -> DwarfImage? in
            if let known = images[path] { return known }
            let read = MappedFile(path: path).flatMap(DwarfImage.init)
            if images.count >= 64 { images.removeAll() }
            images[path] = read
            return read
        }
        return image?.inlinedCalls(at: address) ?? []
    }
}

/// A file mapped read-only (unmapped by the `DwarfImage` that reads it).
private struct MappedFile {
    let bytes: UnsafeRawBufferPointer

    init?(path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_size > 0 else { return nil }
        let size = Int(status.st_size)
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != UnsafeMutableRawPointer(bitPattern: -1)
        else { return nil }
        bytes = UnsafeRawBufferPointer(start: base, count: size)
    }
}

/// A 64-bit little-endian ELF image's DWARF sections, bounds-checked reads only. Immutable once made
/// (read from any thread).
private final class DwarfImage: @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer
    private var sections: [String: Range<Int>] = [:]
    /// Each DWARF 2–4 unit with code: where its entries start and end, and its own root entry.
    private var units: [Unit] = []

    private struct Unit {
        var start: Int
        var entries: Int
        var end: Int
        var addressSize: Int
        var abbreviationOffset: Int
        var base: UInt64
        var root: [UInt64: Value]
    }

    convenience init?(_ file: MappedFile) {
        self.init(bytes: file.bytes)
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count)
    }

    init?(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        // ELFCLASS64, ELFDATA2LSB.
        guard bytes.count > 64, bytes[0] == 0x7f, bytes[1] == 0x45, bytes[2] == 0x4c, bytes[3] == 0x46,
              bytes[4] == 2, bytes[5] == 1
        else { return nil }
        guard let sectionHeaders = u64(0x28).flatMap(offsetInt), let entrySize = u16(0x3a).flatMap(offsetInt),
              let count = u16(0x3c).flatMap(offsetInt), let namesIndex = u16(0x3e).flatMap(offsetInt),
              let names = u64(sectionHeaders + namesIndex * entrySize + 0x18).flatMap(offsetInt)
        else { return nil }
        for index in 0..<count {
            let header = sectionHeaders + index * entrySize
            guard let nameOffset = u32(header).flatMap(offsetInt), let name = cString(names + nameOffset),
                  let offset = u64(header + 0x18).flatMap(offsetInt), let size = u64(header + 0x20).flatMap(offsetInt),
                  offset >= 0, size >= 0, offset <= bytes.count - size
            else { continue }
            sections[name] = offset..<(offset + size)
        }
        guard sections[".debug_info"] != nil else { return nil }
        units = readUnits()
    }

    private func readUnits() -> [Unit] {
        guard let info = sections[".debug_info"] else { return [] }
        var units: [Unit] = []
        var unit = info.lowerBound
        while unit < info.upperBound, let length = u32(unit).flatMap(offsetInt), length < 0xffff_fff0 {
            let next = unit + 4 + length
            defer { unit = next }
            guard let version = u16(unit + 4), (2...4).contains(version),
                  let abbreviationOffset = u32(unit + 6).flatMap(offsetInt), let addressSize = u8(unit + 10).flatMap(offsetInt),
                  let table = abbreviations(at: abbreviationOffset)
            else { continue }
            var at = unit + 11
            guard let (root, values) = entry(at: &at, abbreviations: table, addressSize: addressSize),
                  root.tag == Self.tagCompileUnit
            else { continue }
            var base: UInt64 = 0
            if case .number(let low)? = values[Self.atLowPC] { base = low }
            units.append(Unit(start: unit, entries: at, end: next, addressSize: addressSize,
                              abbreviationOffset: abbreviationOffset, base: base, root: values))
        }
        return units
    }

    // MARK: Reads (nil past the end)

    /// An offset or size read from the file, if it could be one in this file.
    private func offsetInt(_ value: UInt64) -> Int? {
        value <= UInt64(bytes.count) ? Int(value) : nil
    }

    private func u8(_ at: Int) -> UInt64? { at >= 0 && at < bytes.count ? UInt64(bytes[at]) : nil }
    private func u16(_ at: Int) -> UInt64? {
        guard let low = u8(at), let high = u8(at + 1) else { return nil }
        return low | high << 8
    }
    private func u32(_ at: Int) -> UInt64? {
        guard let low = u16(at), let high = u16(at + 2) else { return nil }
        return low | high << 16
    }
    private func u64(_ at: Int) -> UInt64? {
        guard let low = u32(at), let high = u32(at + 4) else { return nil }
        return low | high << 32
    }
    private func cString(_ at: Int) -> String? {
        guard at >= 0 else { return nil }
        var end = at
        while end < bytes.count, bytes[end] != 0 { end += 1 }
        guard end < bytes.count else { return nil }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[at..<end]), as: UTF8.self)
    }
    private func uleb(_ at: inout Int) -> UInt64? {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while let byte = u8(at) {
            at += 1
            if shift < 64 { result |= (byte & 0x7f) << shift }
            shift += 7
            if byte & 0x80 == 0 { return result }
        }
        return nil
    }
    private func sleb(_ at: inout Int) -> Int64? {
        var result: Int64 = 0
        var shift: Int64 = 0
        while let byte = u8(at) {
            at += 1
            if shift < 64 { result |= Int64(byte & 0x7f) << shift }
            shift += 7
            if byte & 0x80 == 0 {
                if shift < 64, byte & 0x40 != 0 { result |= -(Int64(1) << shift) }
                return result
            }
        }
        return nil
    }

    // MARK: DWARF 4

    private struct Abbreviation {
        var tag: UInt64
        var hasChildren: Bool
        var attributes: [(name: UInt64, form: UInt64, implicitConstant: Int64)]
    }

    private enum Value {
        case number(UInt64)
        case string(String)
        case other
    }

    // Tags, attributes and forms used (DWARF 4, section 7.5).
    private static let tagCompileUnit: UInt64 = 0x11, tagSubprogram: UInt64 = 0x2e, tagInlined: UInt64 = 0x1d
    private static let atName: UInt64 = 0x03, atStmtList: UInt64 = 0x10, atLowPC: UInt64 = 0x11, atHighPC: UInt64 = 0x12
    private static let atAbstractOrigin: UInt64 = 0x31, atSpecification: UInt64 = 0x47, atRanges: UInt64 = 0x55
    private static let atCompilationDirectory: UInt64 = 0x1b
    private static let atCallFile: UInt64 = 0x58, atCallLine: UInt64 = 0x59, atLinkageName: UInt64 = 0x6e
    private static let formAddress: UInt64 = 0x01

    private func abbreviations(at offset: Int) -> [UInt64: Abbreviation]? {
        guard let section = sections[".debug_abbrev"] else { return nil }
        var at = section.lowerBound + offset
        var table: [UInt64: Abbreviation] = [:]
        while true {
            guard let code = uleb(&at) else { return nil }
            if code == 0 { return table }
            guard let tag = uleb(&at), let children = u8(at) else { return nil }
            at += 1
            var attributes: [(UInt64, UInt64, Int64)] = []
            while true {
                guard let name = uleb(&at), let form = uleb(&at) else { return nil }
                var constant: Int64 = 0
                if form == 0x21 { guard let value = sleb(&at) else { return nil }; constant = value }
                if name == 0 && form == 0 { break }
                attributes.append((name, form, constant))
            }
            table[code] = Abbreviation(tag: tag, hasChildren: children != 0, attributes: attributes)
        }
    }

    /// Reads one attribute value of a DWARF 2–4 unit (32-bit format), or skips it; `nil` for a form it
    /// cannot size (the unit is then left alone).
    private func value(form: UInt64, at: inout Int, addressSize: Int) -> Value? {
        func fixed(_ size: Int, _ read: (Int) -> UInt64?) -> Value? {
            defer { at += size }
            return read(at).map(Value.number)
        }
        func skip(_ count: UInt64?) -> Value? {
            guard let count else { return nil }
            guard let count = Int(exactly: count), count <= bytes.count else { return nil }
            at += count
            return .other
        }
        switch form {
        case 0x01: return fixed(addressSize, addressSize == 8 ? u64 : u32)
        case 0x03: return u16(at).flatMap { length in at += 2; return skip(length) }
        case 0x04: return u32(at).flatMap { length in at += 4; return skip(length) }
        case 0x05, 0x12: return fixed(2, u16)
        case 0x06, 0x10, 0x13, 0x17: return fixed(4, u32)
        case 0x07, 0x14, 0x20: return fixed(8, u64)
        case 0x08:
            guard let string = cString(at) else { return nil }
            at += string.utf8.count + 1
            return .string(string)
        case 0x09, 0x18: return skip(uleb(&at))
        case 0x0a: return u8(at).flatMap { length in at += 1; return skip(length) }
        case 0x0b, 0x0c, 0x11: return fixed(1, u8)
        case 0x0d: return sleb(&at).map { .number(UInt64(bitPattern: $0)) }
        case 0x0e:
            guard let offset = u32(at), let strings = sections[".debug_str"] else { return nil }
            at += 4
            return offsetInt(offset).flatMap { cString(strings.lowerBound + $0) }.map(Value.string) ?? .other
        case 0x0f, 0x15: return uleb(&at).map(Value.number)
        case 0x16:
            guard let actual = uleb(&at) else { return nil }
            return value(form: actual, at: &at, addressSize: addressSize)
        case 0x19: return .number(1)
        default: return nil
        }
    }

    /// The abbreviation and attributes of the entry at `at`, `nil` at a null entry or an unreadable one.
    private func entry(
        at: inout Int, abbreviations: [UInt64: Abbreviation], addressSize: Int
    ) -> (Abbreviation, [UInt64: Value])? {
        guard let code = uleb(&at), code != 0, let abbreviation = abbreviations[code] else { return nil }
        var values: [UInt64: Value] = [:]
        for attribute in abbreviation.attributes {
            if attribute.form == 0x21 {
                values[attribute.name] = .number(UInt64(bitPattern: attribute.implicitConstant))
            } else {
                guard let value = value(form: attribute.form, at: &at, addressSize: addressSize) else { return nil }
                values[attribute.name] = value
            }
        }
        return (abbreviation, values)
    }

    private func contains(_ values: [UInt64: Value], _ address: UInt64, base: UInt64) -> Bool {
        if case .number(let low)? = values[Self.atLowPC], case .number(let high)? = values[Self.atHighPC] {
            // high_pc is an address in DW_FORM_addr, else an offset from low_pc; an offset is smaller.
            let end = high < low ? low &+ high : high
            return low <= address && address < end
        }
        guard case .number(let offset)? = values[Self.atRanges], let ranges = sections[".debug_ranges"] else { return false }
        guard let offset = offsetInt(offset) else { return false }
        var at = ranges.lowerBound + offset
        var base = base
        while at < ranges.upperBound, let start = u64(at), let end = u64(at + 8) {
            at += 16
            if start == 0 && end == 0 { return false }
            if start == UInt64.max { base = end; continue }
            if start &+ base <= address && address < end &+ base { return true }
        }
        return false
    }

    /// The file names of a DWARF 2–4 line program header, by index (1 on), relative ones in their
    /// directory (index 0: the unit's own, `compilationDirectory`).
    private func fileNames(lineProgram offset: Int, compilationDirectory: String?) -> [String] {
        guard let lines = sections[".debug_line"] else { return [] }
        var at = lines.lowerBound + offset + 4
        guard let version = u16(at), (2...4).contains(version) else { return [] }
        at += 2 + 4 + (version >= 4 ? 5 : 4)
        guard let opcodeBase = u8(at) else { return [] }
        at += Int(opcodeBase)
        var directories = [compilationDirectory ?? ""]
        while let directory = cString(at), !directory.isEmpty {
            at += directory.utf8.count + 1
            directories.append(directory)
        }
        at += 1
        var files = [""]
        while let name = cString(at), !name.isEmpty {
            at += name.utf8.count + 1
            guard let directory = uleb(&at).flatMap(offsetInt), uleb(&at) != nil, uleb(&at) != nil else { break }
            let inDirectory = !name.hasPrefix("/") && directory < directories.count && !directories[directory].isEmpty
            files.append(inDirectory ? directories[directory] + "/" + name : name)
        }
        return files
    }

    /// The function an inlined entry's abstract origin names (its linkage name), following a
    /// declaration it refers to.
    private func originName(
        _ values: [UInt64: Value], unit: Int, abbreviations: [UInt64: Abbreviation], addressSize: Int
    ) -> String? {
        var values = values
        for reference in [Self.atAbstractOrigin, Self.atSpecification] {
            guard case .number(let offset)? = values[reference] else { continue }
            guard let offset = offsetInt(offset) else { return nil }
            var at = unit + offset
            guard let (_, referenced) = entry(at: &at, abbreviations: abbreviations, addressSize: addressSize) else { return nil }
            values = referenced
            if case .string(let name)? = values[Self.atLinkageName] { return name }
        }
        if case .string(let name)? = values[Self.atLinkageName] { return name }
        if case .string(let name)? = values[Self.atName] { return name }
        return nil
    }

    func inlinedCalls(at address: UInt64) -> [InlinedCallSites.Site] {
        guard let unit = units.first(where: { contains($0.root, address, base: $0.base) }),
              let table = abbreviations(at: unit.abbreviationOffset)
        else { return [] }
        var files: [String] = []
        if case .number(let offset)? = unit.root[Self.atStmtList] {
            var directory: String?
            if case .string(let path)? = unit.root[Self.atCompilationDirectory] { directory = path }
            files = offsetInt(offset).map { fileNames(lineProgram: $0, compilationDirectory: directory) } ?? []
        }
        return inlinedCalls(at: address, from: unit.entries, to: unit.end, unit: unit.start, abbreviations: table,
                            addressSize: unit.addressSize, base: unit.base, files: files)
    }

    /// Walks a unit's entries to the subprogram containing `address` and collects the inlined entries
    /// containing it, outermost first; stops when the innermost one closes.
    private func inlinedCalls(
        at address: UInt64, from start: Int, to end: Int, unit: Int, abbreviations: [UInt64: Abbreviation],
        addressSize: Int, base: UInt64, files: [String]
    ) -> [InlinedCallSites.Site] {
        var chain: [InlinedCallSites.Site] = []
        var open: [Bool] = []  // per open entry: whether it contains the address
        var inFunction = false
        var at = start
        while at < end {
            var probe = at
            guard let code = uleb(&probe) else { return chain }
            if code == 0 {
                at = probe
                if open.popLast() == true { return chain }
                continue
            }
            guard let (abbreviation, values) = entry(at: &at, abbreviations: abbreviations, addressSize: addressSize)
            else { return chain }
            let isFunction = abbreviation.tag == Self.tagSubprogram
            let isInlined = abbreviation.tag == Self.tagInlined
            let containing = (isFunction || isInlined) && contains(values, address, base: base)
            if isFunction && containing { inFunction = true }
            if isInlined && containing && inFunction {
                var site = InlinedCallSites.Site(linkageName: nil, callFile: nil, callLine: 0)
                if case .number(let line)? = values[Self.atCallLine] { site.callLine = Int(clamping: line) }
                if case .number(let file)? = values[Self.atCallFile], file < UInt64(files.count) { site.callFile = files[Int(file)] }
                site.linkageName = originName(values, unit: unit, abbreviations: abbreviations, addressSize: addressSize)
                chain.append(site)
            }
            if abbreviation.hasChildren {
                open.append(containing)
            } else if containing {
                return chain
            }
        }
        return chain
    }
}
#endif

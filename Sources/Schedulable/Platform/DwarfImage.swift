#if os(Linux)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A 64-bit little-endian ELF image's DWARF 2–4 compile units. Immutable once made but for its line
/// tables' cache (read from any thread); unmaps its file when released.
final class DwarfImage: @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer
    private let mapping: UnsafeRawBufferPointer?
    /// The link-time address of the image's lowest mapping (0 for a position-independent image).
    private(set) var linkBase: UInt64 = 0
    private(set) var textRange: Range<UInt64>?
    private(set) var sections: [String: Range<Int>] = [:]
    /// Each DWARF 2–4 compile unit: where it and its entries are, and its root entry's attributes.
    private(set) var units: [Unit] = []
    /// Every unit's address ranges, sorted by start, with the unit's index: the unit holding an address
    /// by binary search instead of reading every unit's ranges on every question.
    private(set) var unitRanges: [(range: Range<UInt64>, unit: Int)] = []
    /// Each unit's line table once decoded (`nil`: unreadable), by the unit's offset: the one part of
    /// the image that changes after it is made, so behind the package's lock.
    let lineTables = LockedValue([Int: DwarfLineTable?]())

    struct Unit {
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
    enum Value {
        case number(UInt64)
        case address(UInt64)
        /// An entry, by its offset in the file.
        case reference(Int)
        case string(String)
        case other
    }

    struct Abbreviation {
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
        for (index, unit) in units.enumerated() {
            for range in addressRanges(unit.root, unit: unit) ?? [] { unitRanges.append((range, index)) }
        }
        unitRanges.sort { $0.range.lowerBound < $1.range.lowerBound }
    }

    deinit {
        if let mapping { munmap(UnsafeMutableRawPointer(mutating: mapping.baseAddress), mapping.count) }
    }

    /// The DWARF 2–4 unit whose ranges contain `address`, if any.
    func unit(containing address: UInt64) -> Unit? {
        var low = 0
        var high = unitRanges.count
        while low < high {  // the first range starting after `address`
            let middle = (low + high) / 2
            if unitRanges[middle].range.lowerBound <= address { low = middle + 1 } else { high = middle }
        }
        // Units do not overlap; should two, the nearest start is checked, then every range before it.
        for index in stride(from: low - 1, through: 0, by: -1) where unitRanges[index].range.contains(address) {
            return units[unitRanges[index].unit]
        }
        return nil
    }

    // MARK: ELF

    private func readSections() -> Bool {
        let file = DwarfCursor(bytes, 0..<bytes.count, at: 0)
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
        let nameTable = DwarfCursor(bytes, names.range, at: names.range.lowerBound)
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
        var cursor = DwarfCursor(bytes, info, at: info.lowerBound)
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
            var header = DwarfCursor(bytes, range, at: cursor.at)
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
}

/// The DWARF constants the reader uses (DWARF 4, section 7.5).
enum DW {
    static let tagCompileUnit: UInt64 = 0x11, tagSubprogram: UInt64 = 0x2e, tagInlinedSubroutine: UInt64 = 0x1d
    static let name: UInt64 = 0x03, stmtList: UInt64 = 0x10, lowPC: UInt64 = 0x11, highPC: UInt64 = 0x12
    static let compilationDirectory: UInt64 = 0x1b, abstractOrigin: UInt64 = 0x31, specification: UInt64 = 0x47
    static let ranges: UInt64 = 0x55, callColumn: UInt64 = 0x57, callFile: UInt64 = 0x58, callLine: UInt64 = 0x59
    static let linkageName: UInt64 = 0x6e
    static let formImplicitConst: UInt64 = 0x21
    static let unitAttributes: Set<UInt64> = [lowPC, highPC, ranges, stmtList, compilationDirectory]
}
#endif

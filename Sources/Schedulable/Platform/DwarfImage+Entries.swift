#if os(Linux)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// Reading a unit's entries: abbreviations, attribute values, address ranges.
extension DwarfImage {
    func abbreviations(at offset: UInt64) -> [UInt64: Abbreviation]? {
        guard let section = sections[".debug_abbrev"],
              var cursor = DwarfCursor(bytes, section, at: section.lowerBound).atOffset(offset)
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
    ///
    /// With `discarding`, strings are stepped over, not read (`.other`): a walk that keeps nothing of an
    /// entry reads no string.
    func value(form: UInt64, _ cursor: inout DwarfCursor, unit: Unit, indirect: Bool = false, discarding: Bool = false) -> Value? {
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
        case 0x08: return discarding ? cursor.skipCString().map { Value.other } : cursor.cString().map(Value.string)  // string
        case 0x09, 0x18: return block(cursor.uleb())  // block, exprloc
        case 0x0a: return block(cursor.byte())  // block1
        case 0x0b: return number(1)  // data1
        case 0x0c: return cursor.byte().map { _ in Value.other }  // flag
        case 0x0d: return cursor.sleb().map { .number(UInt64(bitPattern: $0)) }  // sdata
        case 0x0e:  // strp
            if discarding { return cursor.fixed(4).map { _ in Value.other } }
            guard let offset = cursor.fixed(4), let strings = sections[".debug_str"],
                  var string = DwarfCursor(bytes, strings, at: strings.lowerBound).atOffset(offset)
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
            return value(form: actual, &cursor, unit: unit, indirect: true, discarding: discarding)
        case 0x17: return number(4)  // sec_offset
        case 0x19: return .other  // flag_present
        case 0x20: return number(8).map { _ in Value.other }  // ref_sig8
        default: return nil
        }
    }

    /// The abbreviation and attributes of the entry at the cursor; `nil` at a null entry or an
    /// unreadable one.
    ///
    /// An entry whose tag `keeping` refuses is stepped over: its attributes come back empty.
    func entry(
        _ cursor: inout DwarfCursor, unit: Unit, abbreviations: [UInt64: Abbreviation],
        keeping: (UInt64) -> Bool = { _ in true }
    ) -> (Abbreviation, [UInt64: Value])? {
        guard let code = cursor.uleb(), code != 0, let abbreviation = abbreviations[code] else { return nil }
        let keep = keeping(abbreviation.tag)
        var values: [UInt64: Value] = [:]
        for attribute in abbreviation.attributes {
            guard let value = value(form: attribute.form, &cursor, unit: unit, discarding: !keep) else { return nil }
            if keep { values[attribute.name] = value }
        }
        return (abbreviation, values)
    }

    /// The entry's address ranges (empty for a declaration); `nil` if they cannot be read.
    func addressRanges(_ values: [UInt64: Value], unit: Unit) -> [Range<UInt64>]? {
        if case .address(let low)? = values[DW.lowPC], let high = values[DW.highPC] {
            switch high {
            case .address(let end): return low < end ? [low..<end] : []
            case .number(let size):
                let (end, overflow) = low.addingReportingOverflow(size)
                return overflow ? nil : size > 0 ? [low..<end] : []
            default: return nil
            }
        }
        guard let ranges = values[DW.ranges] else { return [] }
        guard case .number(let offset) = ranges, let section = sections[".debug_ranges"],
              var cursor = DwarfCursor(bytes, section, at: section.lowerBound).atOffset(offset)
        else { return nil }
        let largest = unit.addressSize == 8 ? UInt64.max : UInt64(UInt32.max)
        var base = unit.base
        var found: [Range<UInt64>] = []
        while true {
            guard let start = cursor.fixed(unit.addressSize), let end = cursor.fixed(unit.addressSize) else { return nil }
            if start == 0 && end == 0 { return found }
            if start == largest { base = end; continue }
            if base &+ start < base &+ end { found.append((base &+ start)..<(base &+ end)) }
        }
    }

    /// Whether the entry's address ranges contain `address`: `nil` if it has ranges that cannot be read,
    /// `false` if it has none (a declaration).
    func contains(_ values: [UInt64: Value], _ address: UInt64, unit: Unit) -> Bool? {
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
              var cursor = DwarfCursor(bytes, section, at: section.lowerBound).atOffset(offset)
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
}
#endif

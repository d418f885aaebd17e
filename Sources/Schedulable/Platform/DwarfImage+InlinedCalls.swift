#if os(Linux)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// The lookup: which inlined calls contain an address, and where each was called from.
extension DwarfImage {
    /// The file names of the unit's line program, by index (1 on; 0 is no file); `[nil]` when the unit
    /// has no line program, `nil` when it cannot be read.
    func fileNames(_ unit: Unit) -> [String?]? {
        guard unit.root[DW.stmtList] != nil else { return [nil] }
        return lines(of: unit)?.files
    }

    /// The unit holding the entry at file offset `offset`.
    func unit(holding offset: Int) -> Unit? {
        units.first { $0.range.contains(offset) }
    }

    /// The linkage name of the function an inlined entry's abstract origin is (following a declaration
    /// it refers to with `DW_AT_specification`), or its plain name; `nil` if none can be read.
    func originName(_ values: [UInt64: Value], unit: Unit, abbreviations: [UInt64: Abbreviation]) -> String? {
        var values = values
        for reference in [DW.abstractOrigin, DW.specification] {
            if case .string(let name)? = values[DW.linkageName] { return name }
            guard case .reference(let offset)? = values[reference] else { continue }
            guard let target = unit.range.contains(offset) ? unit : self.unit(holding: offset),
                  let table = target.range == unit.range ? abbreviations : self.abbreviations(at: target.abbreviationOffset)
            else { return nil }
            var cursor = DwarfCursor(bytes, target.range, at: offset)
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
        unit(containing: address).flatMap { inlinedCalls(at: address, in: $0) }
    }

    /// The same, in `unit` (which holds `address`).
    func inlinedCalls(at address: UInt64, in unit: Unit) -> [InlinedCallSites.Site]? {
        guard let table = abbreviations(at: unit.abbreviationOffset), let files = fileNames(unit) else { return nil }
        return inlinedCalls(at: address, in: unit, abbreviations: table, files: files)
    }

    /// The inlined calls containing `address` and the line table's row for it, from one look-up of its
    /// unit; `nil` if either cannot be said.
    func location(at address: UInt64) -> (sites: [InlinedCallSites.Site], row: (path: String?, line: Int, column: Int))? {
        guard let unit = unit(containing: address), let sites = inlinedCalls(at: address, in: unit),
              let row = lineRow(at: address, in: unit)
        else { return nil }
        return (sites, row)
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
        var cursor = DwarfCursor(bytes, unit.range, at: unit.entries)
        while !cursor.isAtEnd {
            var probe = cursor
            guard let code = probe.uleb() else { return nil }
            if code == 0 {
                cursor = probe
                guard let closed = open.popLast() else { return nil }  // the root closes: no function has it
                if closed { return inFunction ? chain : nil }
                continue
            }
            // Only functions and inlined calls are read; every other entry is stepped over.
            guard let (abbreviation, values) = entry(&cursor, unit: unit, abbreviations: abbreviations, keeping: {
                $0 == DW.tagSubprogram || $0 == DW.tagInlinedSubroutine
            }) else { return nil }
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
                    if case .number(let column)? = values[DW.callColumn], column > 0 { site.callColumn = Int(clamping: column) }
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
#endif

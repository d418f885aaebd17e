#if os(Linux)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// The lookup: which inlined calls contain an address, and where each was called from.
extension DwarfImage {
    /// The file names of the unit's DWARF 2–4 line program, by index (1 on; 0 is no file), with
    /// relative ones joined to their directory and to the compilation directory; `nil` if unreadable.
    func fileNames(_ unit: Unit) -> [String?]? {
        guard case .number(let offset)? = unit.root[DW.stmtList] else { return [nil] }
        var compilationDirectory: String?
        if case .string(let path)? = unit.root[DW.compilationDirectory] { compilationDirectory = path }
        guard let lines = sections[".debug_line"],
              var program = DwarfCursor(bytes, lines, at: lines.lowerBound).atOffset(offset),
              let length = program.fixed(4), length < 0xffff_fff0, UInt64(lines.upperBound - program.at) >= length
        else { return nil }
        var cursor = DwarfCursor(bytes, program.at..<(program.at + Int(length)), at: program.at)
        guard let version = cursor.fixed(2), (2...4).contains(version), let headerLength = cursor.fixed(4),
              UInt64(cursor.limit.upperBound - cursor.at) >= headerLength
        else { return nil }
        // The header's own limit; then minimum_instruction_length, maximum_operations_per_instruction
        // (version 4), default_is_stmt, line_base, line_range, opcode_base and the opcode lengths.
        cursor = DwarfCursor(bytes, cursor.at..<(cursor.at + Int(headerLength)), at: cursor.at)
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
#endif

#if os(Linux)

/// A unit's DWARF 2–4 line program: the header's parameters, its file names and where its opcodes are.
struct DwarfLineProgram {
    var minimumInstructionLength: UInt64
    var defaultIsStatement: Bool
    var lineBase: Int64
    var lineRange: UInt64
    var opcodeBase: UInt64
    /// How many operands (LEB128 numbers) each standard opcode takes, by opcode - 1.
    var operandCounts: [UInt64]
    /// By index (1 on; 0 is no file), relative names joined to their directory and to the
    /// compilation directory.
    var files: [String?]
    var opcodes: Range<Int>
}

/// A unit's line table, decoded once: its sequences (each a run of rows with increasing addresses that
/// ends at `end`), sorted by start.
struct DwarfLineTable {
    struct Row {
        var address: UInt64
        var file: UInt32
        var line: UInt32
        var column: UInt32
    }

    struct Sequence {
        var rows: [Row]
        var end: UInt64
    }

    var sequences: [Sequence]
    /// The program's file names, by the rows' `file`.
    var files: [String?]

    /// The row that covers `address` (the last one at or before it in the sequence holding it), as
    /// `llvm-symbolizer` picks it.
    func row(at address: UInt64) -> Row? {
        var low = 0
        var high = sequences.count
        while low < high {  // the first sequence starting after `address`
            let middle = (low + high) / 2
            if sequences[middle].rows[0].address <= address { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let sequence = sequences[low - 1]
        guard address < sequence.end else { return nil }
        var first = 0
        var last = sequence.rows.count
        while first < last {
            let middle = (first + last) / 2
            if sequence.rows[middle].address <= address { first = middle + 1 } else { last = middle }
        }
        return sequence.rows[first - 1]
    }
}

// The line table: the file and line of an address, read from the unit's line program.
extension DwarfImage {
    /// The file, line and column the line table gives `address` (a link-time address); `nil` if no DWARF
    /// 2–4 unit covers it or its program cannot be read, and a `line` of 0 where the row says so.
    func lineRow(at address: UInt64) -> (path: String?, line: Int, column: Int)? {
        unit(containing: address).flatMap { lineRow(at: address, in: $0) }
    }

    /// The same, in `unit` (which holds `address`).
    func lineRow(at address: UInt64, in unit: Unit) -> (path: String?, line: Int, column: Int)? {
        guard let table = lines(of: unit), let row = table.row(at: address) else { return nil }
        let path = Int(row.file) < table.files.count ? table.files[Int(row.file)] : nil
        return (path, Int(row.line), Int(row.column))
    }

    /// The unit's line table, decoded on the first question and kept (a unit's table is small; a
    /// report's frames are in few units); `nil` if the unit has none or it cannot be read.
    func lines(of unit: Unit) -> DwarfLineTable? {
        if let known = lineTables.withLock({ $0[unit.range.lowerBound] }) { return known }
        let decoded = lineProgram(unit).flatMap(lineTable)
        lineTables.withLock { $0[unit.range.lowerBound] = .some(decoded) }
        return decoded
    }

    /// The unit's line program header; `nil` if the unit has none or it cannot be read.
    func lineProgram(_ unit: Unit) -> DwarfLineProgram? {
        guard case .number(let offset)? = unit.root[DW.stmtList] else { return nil }
        var compilationDirectory: String?
        if case .string(let path)? = unit.root[DW.compilationDirectory] { compilationDirectory = path }
        guard let lines = sections[".debug_line"],
              var program = DwarfCursor(bytes, lines, at: lines.lowerBound).atOffset(offset),
              let length = program.fixed(4), length < 0xffff_fff0, UInt64(lines.upperBound - program.at) >= length
        else { return nil }
        let whole = program.at..<(program.at + Int(length))
        var cursor = DwarfCursor(bytes, whole, at: program.at)
        guard let version = cursor.fixed(2), (2...4).contains(version), let headerLength = cursor.fixed(4),
              UInt64(whole.upperBound - cursor.at) >= headerLength
        else { return nil }
        let opcodes = (cursor.at + Int(headerLength))..<whole.upperBound
        // The header's own limit: minimum_instruction_length, maximum_operations_per_instruction
        // (version 4), default_is_stmt, line_base, line_range, opcode_base, the operand counts.
        cursor = DwarfCursor(bytes, cursor.at..<opcodes.lowerBound, at: cursor.at)
        guard let minimumLength = cursor.byte(), version < 4 || cursor.skip(1), let isStatement = cursor.byte(),
              let lineBase = cursor.byte(), let lineRange = cursor.byte(), lineRange > 0,
              let opcodeBase = cursor.byte(), opcodeBase > 0
        else { return nil }
        var operandCounts: [UInt64] = []
        for _ in 1..<opcodeBase {
            guard let count = cursor.byte() else { return nil }
            operandCounts.append(count)
        }
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
        return DwarfLineProgram(
            minimumInstructionLength: minimumLength, defaultIsStatement: isStatement != 0,
            lineBase: Int64(Int8(truncatingIfNeeded: lineBase)), lineRange: lineRange, opcodeBase: opcodeBase,
            operandCounts: operandCounts, files: files, opcodes: opcodes)
    }

    /// Runs the line program's state machine (DWARF 4, section 6.2) into rows; `nil` at an opcode it
    /// cannot read past. Files the program defines itself (`DW_LNE_define_file`) get no path.
    func lineTable(_ program: DwarfLineProgram) -> DwarfLineTable? {
        var cursor = DwarfCursor(bytes, program.opcodes, at: program.opcodes.lowerBound)
        var sequences: [DwarfLineTable.Sequence] = []
        var rows: [DwarfLineTable.Row] = []
        var state = DwarfLineTable.Row(address: 0, file: 1, line: 1, column: 0)
        func emit() { rows.append(state) }
        func advance(_ operations: UInt64) { state.address &+= operations &* program.minimumInstructionLength }
        while !cursor.isAtEnd {
            guard let opcode = cursor.byte() else { return nil }
            if opcode >= program.opcodeBase {
                let adjusted = opcode - program.opcodeBase
                advance(adjusted / program.lineRange)
                state.line = UInt32(truncatingIfNeeded: Int64(state.line) + program.lineBase + Int64(adjusted % program.lineRange))
                emit()
                continue
            }
            switch opcode {
            case 0:  // extended
                guard let length = cursor.uleb(), length > 0, let code = cursor.byte() else { return nil }
                let operands = cursor.at
                switch code {
                case 1:  // end_sequence
                    if !rows.isEmpty { sequences.append(.init(rows: rows, end: state.address)) }
                    rows = []
                    state = DwarfLineTable.Row(address: 0, file: 1, line: 1, column: 0)
                case 2:  // set_address: the unit's address size
                    guard length == 5 || length == 9, let address = cursor.fixed(Int(length - 1)) else { return nil }
                    state.address = address
                default: break  // define_file, set_discriminator, vendor extensions: skipped whole
                }
                cursor.at = operands
                guard cursor.skip(length - 1) else { return nil }
            case 1: emit()  // copy
            case 2:  // advance_pc
                guard let operations = cursor.uleb() else { return nil }
                advance(operations)
            case 3:  // advance_line
                guard let delta = cursor.sleb() else { return nil }
                state.line = UInt32(truncatingIfNeeded: Int64(state.line) &+ delta)
            case 4:  // set_file
                guard let file = cursor.uleb() else { return nil }
                state.file = UInt32(truncatingIfNeeded: file)
            case 5:  // set_column
                guard let column = cursor.uleb() else { return nil }
                state.column = UInt32(truncatingIfNeeded: column)
            case 8: advance((255 - program.opcodeBase) / program.lineRange)  // const_add_pc
            case 9:  // fixed_advance_pc: not scaled by the instruction length
                guard let delta = cursor.fixed(2) else { return nil }
                state.address &+= delta
            default:  // negate_stmt, basic_block, prologue_end, epilogue_begin, set_isa and unknown ones
                guard Int(opcode) - 1 < program.operandCounts.count else { return nil }
                for _ in 0..<program.operandCounts[Int(opcode) - 1] {
                    guard cursor.uleb() != nil else { return nil }
                }
            }
        }
        return DwarfLineTable(sequences: sequences.sorted { $0.rows[0].address < $1.rows[0].address }, files: program.files)
    }
}
#endif

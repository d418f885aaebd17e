#if os(Linux) && canImport(Runtime)
import Runtime

/// Linux: a stack's lines and inlined calls come from the images' DWARF, read by the library
/// (`InlinedCallSites`), and only the functions' names from the `Runtime` module.
///
/// Why: the module looks up each address's line on its own, keeping no index between look-ups, which
/// costs a new report site tens of milliseconds in a large binary, on the violating thread; naming a
/// function from the symbol table costs microseconds. The reader decodes a compile unit's line table
/// once, on its first question, and answers later addresses of that unit from it. It also finds the
/// nested inlined calls the module's lookup misses. Where it cannot answer (no DWARF 2–4 unit there:
/// C code built with DWARF 5, an image without debug information) the module symbolicates that frame
/// as before; with switch `DWARF_READER` it symbolicates everything.
extension RuntimeImages {
    /// `backtrace`'s frames, innermost first, inlined calls included; `nil` with switch `DWARF_READER`.
    static func symbolicateFromDwarf(_ backtrace: Backtrace, _ map: ImageMap) -> [CallStack.Frame]? {
        guard PlatformInternals.dwarfReaderAllowed,
              let named = symbolicating.withLock({ backtrace.symbolicated(with: map, options: [.useSymbolCache]) })
        else { return nil }
        var frames: [CallStack.Frame] = []
        for frame in named.frames {
            guard var physical = convert(frame, map) else { continue }
            guard let (path, offset) = imageOffset(frame.captured.adjustedProgramCounter, map),
                  let (sites, row) = InlinedCallSites.location(inImageAt: path, offsetFromMapping: offset)
            else {
                frames += wholly(frame.captured, map) ?? [physical]
                continue
            }
            // The innermost location is the line table's row; each inlined frame sits at the call of the
            // one inlined into it, and the physical frame at the outermost call.
            let innermost = row.line > 0
                ? (path: row.path, line: Int?.some(row.line), column: row.column > 0 ? Int?.some(row.column) : nil)
                : (path: nil, line: nil, column: nil)
            frames += inlinedFrames(sites, at: physical.address, image: physical.image, innermost: innermost)
            (physical.path, physical.line, physical.column) = sites.first.map { ($0.callFile, $0.callLine, $0.callColumn) } ?? innermost
            frames.append(physical)
        }
        return frames
    }

    /// For the statement search: the function at `address` (a program counter) and its physical frame's
    /// location — the outermost inlined call's, or the row's where nothing is inlined there.
    static func locateFromDwarf(_ address: UInt, _ map: ImageMap) -> (function: String?, path: String?, line: Int?)? {
        guard let probe = RuntimeBacktraceReader.backtrace(of: [address], programCounters: true),
              let named = symbolicating.withLock({ probe.symbolicated(with: map, options: [.useSymbolCache]) })
        else { return nil }
        let function = named.frames.last?.symbol?.rawName
        guard let (path, offset) = imageOffset(named.frames.last?.captured.adjustedProgramCounter, map),
              let (sites, row) = InlinedCallSites.location(inImageAt: path, offsetFromMapping: offset)
        else { return (function, nil, nil) }
        if let outermost = sites.first { return (function, outermost.callFile, outermost.callLine) }
        return (function, row.path, row.line > 0 ? row.line : nil)
    }

    /// For ``CallStack/atItsEntry(_:orOfTheCallAfter:)``: the first line of `implementation`, a witness
    /// thunk's, found by name in the image that holds the thunk's `address`; `nil` with switch
    /// `DWARF_READER` or where the reader cannot say.
    static func entryLine(of implementation: WitnessThunk.Implementation, inImageHolding address: UInt) -> (path: String, line: Int)? {
        guard PlatformInternals.dwarfReaderAllowed,
              let probe = RuntimeBacktraceReader.backtrace(of: [address], programCounters: true),
              case .programCounter(let pc)? = probe.frames.first(where: { _ in true }),
              let index = current.indexOfImage(at: pc), let path = current[index].path
        else { return nil }
        return InlinedCallSites.entryLine(of: implementation, inImageAt: path)
    }

    /// `frame` symbolicated by the module alone (its line, no inlined frames), or `nil`: where the reader
    /// cannot say (a DWARF 5 unit, an image it cannot read, an address no unit covers, such as `_start`).
    /// Not the inlined frames: to find them the module indexes every inlined call of the image first,
    /// which in a large binary stalled a process's first report for hundreds of milliseconds
    /// (Benchmarks/scripts/report-cost.sh).
    private static func wholly(_ frame: Backtrace.Frame, _ map: ImageMap) -> [CallStack.Frame]? {
        guard case .returnAddress(let address) = frame, let returnAddress = UInt(address),
              let single = RuntimeBacktraceReader.backtrace(of: [returnAddress])
        else { return nil }
        let options: Backtrace.SymbolicationOptions = [.showSourceLocations, .useSymbolCache]
        return symbolicating.withLock { single.symbolicated(with: map, options: options) }?.frames.compactMap { convert($0, map) }
    }

    /// The image holding `address` and the address's offset from its lowest mapping.
    private static func imageOffset(_ address: Backtrace.Address?, _ map: ImageMap) -> (path: String, offset: UInt64)? {
        guard let address, let index = map.indexOfImage(at: address), let path = map[index].path,
              let pc = UInt64(address), let base = UInt64(map[index].baseAddress), pc >= base
        else { return nil }
        return (path, pc - base)
    }

    /// Frames for the inlined calls `sites` (outermost first) at `address`, innermost first as the
    /// `Runtime` gives them: each at the call of the one inlined into it, the innermost at `innermost`
    /// (the line table's row).
    private static func inlinedFrames(
        _ sites: [InlinedCallSites.Site], at address: UInt, image: String?,
        innermost: (path: String?, line: Int?, column: Int?)
    ) -> [CallStack.Frame] {
        sites.indices.reversed().map { index in
            var frame = CallStack.Frame(address: address, image: image, isInlined: true)
            frame.rawName = sites[index].linkageName
            frame.name = sites[index].linkageName.map(demangled)
            if index + 1 < sites.count {
                (frame.path, frame.line, frame.column) = (sites[index + 1].callFile, sites[index + 1].callLine, sites[index + 1].callColumn)
            } else {
                (frame.path, frame.line, frame.column) = innermost
            }
            return frame
        }
    }

    /// A linkage name demangled as the Runtime names its frames (`Inbox.unread.getter`, the short form).
    private static func demangled(_ name: String) -> String {
        SymbolicatedBacktrace.Symbol(imageIndex: -1, imageName: "", rawName: name, offset: 0, sourceLocation: nil).name
    }
}
#endif

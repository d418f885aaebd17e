#if os(Linux)
import Foundation
@testable import Schedulable
import Testing

/// The DWARF reader that finds a report's access site where the `Runtime` module's inlined-frame lookup
/// misses it (`InlinedCallSites`): known answers on a small image built here (the nested ranges the
/// `Runtime` gets wrong), no crash and no wrong answer on truncated or damaged bytes, agreement with
/// `llvm-symbolizer --inlines` on this test binary, and a captured stack's line through an inlined call.
@Suite("Inlined call sites")
struct InlinedCallSitesTests {
    typealias Site = InlinedCallSites.Site

    /// The answers for `SyntheticImage`'s queries, as llvm-symbolizer gives them for the same DWARF.
    static let expected: [(address: UInt64, sites: [Site]?)] = [
        (0x1025, [SyntheticImage.a, SyntheticImage.b]),
        // B (0x1020..<0x1030) ends before the address, inside A: where the Runtime's search stops.
        (0x1045, [SyntheticImage.a, SyntheticImage.c]),
        (0x1052, [SyntheticImage.a, SyntheticImage.c, SyntheticImage.d]),
        (0x1075, [SyntheticImage.a]),
        (0x10f0, []),
        (0x1200, nil),  // in the unit, in no function
        (0x3010, nil),  // in the DWARF 5 unit only
        (0x9000, nil),  // in no unit
    ]

    @Test func nestedInlinedCallsOfASyntheticImageAreFoundOutermostFirst() {
        let image = SyntheticImage.bytes()
        image.withUnsafeBytes { bytes in
            for (address, sites) in Self.expected {
                #expect(InlinedCallSites.sites(inImageBytes: bytes, fileAddress: address) == sites, "at \(address)")
            }
        }
    }

    @Test func aTruncatedImageGivesNoAnswer() {
        // Every prefix cuts the last section (the section names) or more: no address gets an answer.
        let image = SyntheticImage.bytes()
        for length in 0..<image.count {
            Array(image[..<length]).withUnsafeBytes { bytes in
                for (address, _) in Self.expected {
                    let found = InlinedCallSites.sites(inImageBytes: bytes, fileAddress: address)
                    #expect(found == nil, "length \(length), at \(address)")
                }
            }
        }
    }

    @Test(.singleThreaded) func damagedBytesNeverCrashTheReader() {
        // Every byte of the file flipped in three ways, every query: the reader must come back (a read
        // past a section traps in this debug build's bounds checks; an overflow traps in any build).
        let image = SyntheticImage.bytes()
        var answers = 0
        for index in image.indices {
            for flip: UInt8 in [0xff, 0x80, 0x01] {
                var damaged = image
                damaged[index] ^= flip
                damaged.withUnsafeBytes { bytes in
                    for (address, _) in Self.expected where InlinedCallSites.sites(inImageBytes: bytes, fileAddress: address) != nil {
                        answers += 1
                    }
                }
            }
        }
        #expect(answers > 0)
    }

    @Test func bytesThatAreNotAnElfImageGiveNoAnswer() {
        var generator = SplitMix(seed: 25)
        for length in [0, 16, 64, 4096] {
            var garbage = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            if length >= 6 { garbage.replaceSubrange(0..<6, with: [0x7f, 0x45, 0x4c, 0x46, 2, 1]) }
            garbage.withUnsafeBytes { bytes in
                #expect(InlinedCallSites.sites(inImageBytes: bytes, fileAddress: 0x1000) == nil)
            }
        }
        #expect(InlinedCallSites.sites(inImageAt: "/nonexistent/image", fileAddress: 0x1000) == nil)
    }

    /// 300 addresses spread over this binary's code, each answered as `llvm-symbolizer --inlines`
    /// answers it (the chain's length and every call's file and line). The `Runtime` module's lookup
    /// differed at 43 of 300 such addresses of the release + ReleaseChecks build.
    @Test(.singleThreaded, .enabled(if: Self.symbolizer != nil, "llvm-symbolizer is not installed"))
    func thisBinaryIsReadAsLlvmSymbolizerReadsIt() throws {
        let (path, addresses, expected) = try Self.sampledAndSymbolized()
        var compared = 0
        var inlined = 0
        for (address, frames) in zip(addresses, expected) {
            // `nil`: no DWARF 4 function there (the C targets' DWARF 5, code without debug information).
            guard let sites = InlinedCallSites.sites(inImageAt: path, fileAddress: address) else { continue }
            compared += 1
            if !sites.isEmpty { inlined += 1 }
            // llvm-symbolizer's frames are innermost first; frame k sits at the call of inlined call n-k.
            let ours = sites.reversed().map { site in site.callLine.map { "\(site.callFile ?? "??"):\($0)" } ?? "-" }
            #expect(Array(frames.dropFirst()) == ours, "at 0x\(String(address, radix: 16))")
        }
        #expect(compared >= 200, "\(compared) of 300 addresses had an answer")
        #if !SCHEDULABLE_DEBUG_BUILD
        #expect(inlined >= 50, "\(inlined) of \(compared) addresses in inlined code")
        #endif
    }

    /// The same 300 addresses: the line table's row for each (llvm-symbolizer's innermost frame) is the
    /// one the library's own line-table reader gives, file and line.
    @Test(.singleThreaded, .enabled(if: Self.symbolizer != nil, "llvm-symbolizer is not installed"))
    func thisBinarysLineTableIsReadAsLlvmSymbolizerReadsIt() throws {
        let (path, addresses, expected) = try Self.sampledAndSymbolized()
        var compared = 0
        var withLine = 0
        for (address, frames) in zip(addresses, expected) {
            guard let row = InlinedCallSites.line(inImageAt: path, fileAddress: address) else { continue }
            compared += 1
            let ours = row.line > 0 ? "\(row.path ?? "??"):\(row.line)" : "-"
            if row.line > 0 { withLine += 1 }
            #expect(frames.first == ours, "at 0x\(String(address, radix: 16))")
        }
        #expect(compared >= 200, "\(compared) of 300 addresses had an answer")
        // Not vacuous: enough of the compared rows have a line for the equality above to mean something.
        // A count, not a share: the share moves with the binary's layout (a third to a half in debug,
        // 70 of 286 in the release build once the C work slot landed).
        #expect(withLine >= 50, "\(withLine) of \(compared) addresses had a line")
    }

    @Test func lookupsFromManyThreadsAtOnceGiveOneAnswer() throws {
        // 200 lookups at once under another name of this image (so indexed here, under the lock, while
        // the others wait), each the same as a lookup made alone afterwards under its real path.
        let path = try #require(Self.executablePath)
        let text = try #require(InlinedCallSites.textRange(inImageAt: path))
        let addresses = (0..<UInt64(8)).map { text.lowerBound + (text.upperBound - text.lowerBound) / 8 * $0 }
        let answers = LockedValue([[InlinedCallSites.Site]?](repeating: nil, count: 200))
        DispatchQueue.concurrentPerform(iterations: 200) { iteration in
            let found = InlinedCallSites.sites(inImageAt: "/proc/self/exe", fileAddress: addresses[iteration % 8])
            answers.withLock { $0[iteration] = found }
        }
        let expected = addresses.map { InlinedCallSites.sites(inImageAt: path, fileAddress: $0) }
        #expect(expected.contains { $0 != nil })
        answers.withLock { answers in
            for (iteration, found) in answers.enumerated() { #expect(found == expected[iteration % 8]) }
        }
    }

    @Test func aCapturedStackNamesTheLineOfACallInlinedThere() throws {
        let (stack, line) = callerOfAnInlinedCapture()
        let frames = stack.frames()
        let caller = try #require(frames.first { !$0.isInlined && $0.name?.contains("callerOfAnInlinedCapture") == true })
        #expect(caller.path == #filePath)
        #expect(caller.line == line)
        #if !SCHEDULABLE_DEBUG_BUILD
        let inlined = try #require(frames.first { $0.isInlined && $0.name?.contains("captureInlined") == true })
        #expect(inlined.address == caller.address)
        #expect(inlined.path == #filePath)
        #endif
    }

    /// The shape of case 1 of `Reproducers/RuntimeInlinedFrames`, where the `Runtime` module drops the
    /// inlined frame: a call made in an inlined function after a call nested in it has ended. The
    /// stack names the inlined function at the capture's line and its caller at the call's line.
    /// Whether the module alone misses this address depends on the whole binary's layout (in the
    /// release + ReleaseChecks build of this change it did not); the synthetic image above is the case
    /// that does not depend on it.
    @Test func aCallAfterANestedInlinedCallKeepsBothLines() throws {
        let (stack, outerLine, callerLine) = callerOfNestedInlinedCalls()
        let frames = stack.frames()
        let caller = try #require(frames.first { !$0.isInlined && $0.name?.contains("callerOfNestedInlinedCalls") == true })
        #expect(caller.path == #filePath)
        #expect(caller.line == callerLine)
        let outer = try #require(frames.first { $0.name?.contains("outerWithANestedCall") == true })
        #expect(outer.path == #filePath)
        #expect(outer.line == outerLine)
        #if !SCHEDULABLE_DEBUG_BUILD
        #expect(outer.isInlined)
        #expect(outer.address == caller.address)
        #endif
    }

    // MARK: Helpers

    static let executablePath: String? = {
        guard let resolved = realpath("/proc/self/exe", nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }()

    static let symbolizer: String? = {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        return directories.map { "\($0)/llvm-symbolizer" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// This binary's path, 300 addresses spread over its code, and llvm-symbolizer's frames for each.
    static func sampledAndSymbolized() throws -> (path: String, addresses: [UInt64], frames: [[String]]) {
        let path = try #require(executablePath)
        let text = try #require(InlinedCallSites.textRange(inImageAt: path))
        let count: UInt64 = 300
        let addresses = (0..<count).map { text.lowerBound + (text.upperBound - text.lowerBound) / count * $0 }
        let frames = try symbolize(addresses, in: path)
        try #require(frames.count == addresses.count)
        return (path, addresses, frames)
    }

    /// Per address, each frame's "file:line" (innermost first), "-" where the line is 0.
    static func symbolize(_ addresses: [UInt64], in path: String) throws -> [[String]] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(symbolizer))
        process.arguments = ["--inlines", "--functions=none", "--obj=\(path)"]
            + addresses.map { "0x" + String($0, radix: 16) }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let blocks = String(decoding: data, as: UTF8.self).components(separatedBy: "\n\n").filter { !$0.isEmpty }
        return blocks.map { block in
            block.split(separator: "\n").map { frame in
                // path:line:column
                let parts = frame.split(separator: ":", omittingEmptySubsequences: false)
                guard parts.count >= 3, let line = Int(parts[parts.count - 2]), line > 0 else { return "-" }
                return parts.dropLast(2).joined(separator: ":") + ":\(line)"
            }
        }
    }
}

@inline(__always)
private func captureInlined() -> CallStack {
    CallStack.capture(limit: 16)
}

@inline(never)
private func callerOfAnInlinedCapture() -> (CallStack, line: Int) {
    let stack = captureInlined(); return (stack, #line)
}

nonisolated(unsafe) private var nestedCallsWork = 0

/// Not inlined, with an effect the optimizer keeps: the calls around the nested inlined call.
@inline(never)
private func nestedCallsStep(_ value: Int) { nestedCallsWork &+= value }

@inline(__always)
private func nestedInlinedCall() { nestedCallsStep(2) }

@inline(__always)
private func outerWithANestedCall() -> (CallStack, line: Int) {
    nestedCallsStep(1)
    nestedInlinedCall()
    let stack = CallStack.capture(limit: 16); let line = #line
    nestedCallsStep(3)
    return (stack, line)
}

@inline(never)
private func callerOfNestedInlinedCalls() -> (CallStack, outerLine: Int, callerLine: Int) {
    let (stack, line) = outerWithANestedCall(); let callerLine = #line
    nestedCallsStep(4)
    return (stack, line, callerLine)
}

/// A deterministic generator for the garbage bytes.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}

/// A small ELF image with DWARF written here byte by byte: a DWARF 5 unit (skipped), then a DWARF 4 unit
/// whose function at 0x1000..<0x1100 holds inlined calls that nest, in every form the reader reads
/// (`high_pc` as an address and as a size, `DW_AT_ranges` with a base address entry, a lexical block,
/// a call without a line, files relative to the compilation directory and absolute ones).
enum SyntheticImage {
    static let a = InlinedCallSites.Site(linkageName: "$sA", callFile: "/work/dir/Sources/a.swift", callLine: 10)
    static let b = InlinedCallSites.Site(linkageName: "$sB", callFile: "/abs/dir/b.swift", callLine: 20)
    static let c = InlinedCallSites.Site(linkageName: "$sC", callFile: "/abs/dir/b.swift", callLine: 30)
    static let d = InlinedCallSites.Site(linkageName: "$sD", callFile: nil, callLine: nil)

    struct Writer {
        var bytes: [UInt8] = []
        mutating func u8(_ value: UInt64) { bytes.append(UInt8(truncatingIfNeeded: value)) }
        mutating func fixed(_ value: UInt64, _ size: Int) {
            for index in 0..<size { u8(value >> (8 * UInt64(index))) }
        }
        mutating func uleb(_ value: UInt64) {
            var value = value
            repeat {
                let byte = value & 0x7f
                value >>= 7
                u8(value == 0 ? byte : byte | 0x80)
            } while value != 0
        }
        mutating func string(_ value: String) { bytes += Array(value.utf8) + [0] }
        /// Writes a 4-byte length placeholder; `close` fills it with what follows.
        mutating func openLength() -> Int { defer { fixed(0, 4) }; return bytes.count }
        mutating func close(_ at: Int) {
            let length = UInt64(bytes.count - at - 4)
            for index in 0..<4 { bytes[at + index] = UInt8(truncatingIfNeeded: length >> (8 * UInt64(index))) }
        }
    }

    static func bytes() -> [UInt8] {
        // .debug_str
        var strings = Writer()
        func string(_ value: String) -> UInt64 { defer { strings.string(value) }; return UInt64(strings.bytes.count) }
        _ = string("")
        let compilationDirectory = string("/work/dir")
        let names = ["$sA", "$sB", "$sC", "$sD"].map(string)

        // .debug_abbrev: code, tag, children, (attribute, form)...
        var abbreviations = Writer()
        let table: [(UInt64, UInt64, UInt64, [(UInt64, UInt64)])] = [
            (1, 0x11, 1, [(0x03, 0x08), (0x10, 0x17), (0x1b, 0x0e), (0x11, 0x01), (0x12, 0x06)]),  // compile unit
            (2, 0x2e, 0, [(0x6e, 0x0e), (0x03, 0x08)]),  // subprogram declaration
            (3, 0x2e, 1, [(0x11, 0x01), (0x12, 0x01)]),  // subprogram, high_pc an address
            (4, 0x1d, 1, [(0x31, 0x13), (0x11, 0x01), (0x12, 0x06), (0x58, 0x0b), (0x59, 0x0f)]),  // inlined
            (5, 0x1d, 0, [(0x31, 0x13), (0x55, 0x17), (0x58, 0x0b), (0x59, 0x05)]),  // inlined, ranges
            (6, 0x0b, 1, [(0x11, 0x01), (0x12, 0x06)]),  // lexical block
        ]
        for (code, tag, children, attributes) in table {
            abbreviations.uleb(code)
            abbreviations.uleb(tag)
            abbreviations.u8(children)
            for (name, form) in attributes {
                abbreviations.uleb(name)
                abbreviations.uleb(form)
            }
            abbreviations.fixed(0, 2)
        }
        abbreviations.u8(0)

        // .debug_ranges: B at 0x20..<0x30 from the unit's base (0x1000); D after a base address entry.
        var ranges = Writer()
        for value: UInt64 in [0x20, 0x30, 0, 0, .max, 0x1000, 0x50, 0x58, 0, 0] { ranges.fixed(value, 8) }

        // .debug_line: a version 4 header only (the reader needs the file names).
        var line = Writer()
        let lineLength = line.openLength()
        line.fixed(4, 2)
        let headerLength = line.openLength()
        for value: UInt64 in [1, 1, 1, 0xfb, 14, 13, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1] { line.u8(value) }
        line.string("Sources")
        line.string("/abs/dir")
        line.u8(0)
        for (name, directory) in [("a.swift", 1), ("b.swift", 2)] as [(String, UInt64)] {
            line.string(name)
            line.uleb(directory)
            line.uleb(0)
            line.uleb(0)
        }
        line.u8(0)
        line.close(headerLength)
        line.close(lineLength)

        // .debug_info
        var info = Writer()
        func compileUnit(version: UInt64, low: UInt64, body: (inout Writer, Int) -> Void) {
            let start = info.openLength()
            info.fixed(version, 2)
            if version >= 5 {
                info.u8(1)  // DW_UT_compile
                info.u8(8)
                info.fixed(0, 4)
            } else {
                info.fixed(0, 4)
                info.u8(8)
            }
            info.uleb(1)
            info.string("synthetic.swift")
            info.fixed(0, 4)
            info.fixed(compilationDirectory, 4)
            info.fixed(low, 8)
            info.fixed(0x1000, 4)
            body(&info, start)
            info.u8(0)
            info.close(start)
        }
        compileUnit(version: 5, low: 0x3000) { info, _ in
            info.uleb(3)
            info.fixed(0x3000, 8)
            info.fixed(0x3100, 8)
            info.u8(0)
        }
        compileUnit(version: 4, low: 0x1000) { info, unit in
            var declarations: [UInt64] = []
            for name in names {
                declarations.append(UInt64(info.bytes.count - unit))
                info.uleb(2)
                info.fixed(name, 4)
                info.string("f")
            }
            func inlined(_ origin: Int, low: UInt64, size: UInt64, file: UInt64, line: UInt64) {
                info.uleb(4)
                info.fixed(declarations[origin], 4)
                info.fixed(low, 8)
                info.fixed(size, 4)
                info.u8(file)
                info.uleb(line)
            }
            func inlined(_ origin: Int, ranges: UInt64, file: UInt64, line: UInt64) {
                info.uleb(5)
                info.fixed(declarations[origin], 4)
                info.fixed(ranges, 4)
                info.u8(file)
                info.fixed(line, 2)
            }
            info.uleb(3)
            info.fixed(0x1000, 8)
            info.fixed(0x1100, 8)
            inlined(0, low: 0x1010, size: 0x70, file: 1, line: 10)
            inlined(1, ranges: 0, file: 2, line: 20)
            info.uleb(6)
            info.fixed(0x1038, 8)
            info.fixed(0x30, 4)
            inlined(2, low: 0x1040, size: 0x20, file: 2, line: 30)
            inlined(3, ranges: 32, file: 1, line: 0)
            info.u8(0)  // C
            info.u8(0)  // lexical block
            info.u8(0)  // A
            info.u8(0)  // function
        }

        return elf([
            (".debug_info", info.bytes), (".debug_abbrev", abbreviations.bytes), (".debug_str", strings.bytes),
            (".debug_ranges", ranges.bytes), (".debug_line", line.bytes),
        ])
    }

    /// An ELF64 little-endian file: header, section headers (null, `sections`, .shstrtab), then the
    /// sections' bytes in order, the last one at the end of the file.
    static func elf(_ sections: [(String, [UInt8])]) -> [UInt8] {
        var names = Writer()
        names.u8(0)
        let all = sections + [(".shstrtab", [])]
        var nameOffsets: [UInt64] = []
        for (name, _) in all {
            nameOffsets.append(UInt64(names.bytes.count))
            names.string(name)
        }
        let contents = sections.map(\.1) + [names.bytes]
        let headerCount = all.count + 1
        var file = Writer()
        file.bytes = [0x7f, 0x45, 0x4c, 0x46, 2, 1, 1] + Array(repeating: 0, count: 9)
        file.fixed(3, 2)  // ET_DYN
        file.fixed(0x3e, 2)  // x86-64
        file.fixed(1, 4)
        file.fixed(0, 8)  // entry
        file.fixed(0, 8)  // program headers: none
        file.fixed(0x40, 8)  // section headers
        file.fixed(0, 4)
        file.fixed(0x40, 2)
        file.fixed(0x38, 2)
        file.fixed(0, 2)
        file.fixed(0x40, 2)
        file.fixed(UInt64(headerCount), 2)
        file.fixed(UInt64(headerCount - 1), 2)
        var offset = UInt64(0x40 + 0x40 * headerCount)
        file.fixed(0, 0x40)
        for (index, content) in contents.enumerated() {
            file.fixed(nameOffsets[index], 4)
            file.fixed(1, 4)  // SHT_PROGBITS
            file.fixed(0, 8)
            file.fixed(0, 8)
            file.fixed(offset, 8)
            file.fixed(UInt64(content.count), 8)
            file.fixed(0, 24)
            offset += UInt64(content.count)
        }
        for content in contents { file.bytes += content }
        return file.bytes
    }
}
#endif

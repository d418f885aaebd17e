#if canImport(Runtime)
#if canImport(Darwin)
// libswiftRuntime ships with the 26 releases of Apple's OSes, above the package's floor: weak, so its
// load command is LC_LOAD_WEAK_DYLIB and an app launches where it is missing; every use of it is behind
// `if #available` (the 26 releases).
@_weakLinked import Runtime
#else
import Runtime
#endif

/// A `Runtime.Backtrace` of return addresses that ``CallStack`` captured itself, for symbolication.
///
/// The module captures only by its own unwinder and has no initializer from addresses; its `Codable`
/// form is the way in. That form is the architecture and the frames in Compact Backtrace Format
/// (the Swift project's docs/CompactBacktraceFormat.md, version 0), base64-encoded. This writes the
/// simplest valid stream (an information byte, one absolute 8-byte `ra` instruction per frame, `end`)
/// and hands it to `Backtrace(from:)` through a decoder of three strings, so the core module needs no
/// Foundation. ``CallStack`` checks that the frames come back as written and otherwise symbolicates
/// with `dladdr`, so a future format change costs lines, never a wrong frame.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
package enum RuntimeBacktraceReader {
    /// A backtrace of `addresses` (return addresses, innermost first, or with `programCounters` the
    /// addresses themselves, which symbolicate without the step back into the call), or `nil` if the
    /// module's decoding does not give the same addresses back.
    package static func backtrace(of addresses: [UInt], programCounters: Bool = false) -> Backtrace? {
        guard UInt.bitWidth == 64, !addresses.isEmpty else { return nil }
        var bytes: [UInt8] = [0b0000_0010]  // version 0, 64-bit words
        bytes.reserveCapacity(1 + addresses.count * 9)
        for address in addresses {
            bytes.append(programCounters ? 0b0001_1_111 : 0b0010_1_111)  // `pc` or `ra`, absolute, 8 bytes follow
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: address >> UInt(shift))) }
        }
        bytes.append(0)  // `end`: without it the decoder adds a `truncated` frame
        let values = ["architecture": architecture, "backtrace": base64(bytes)]
        guard let backtrace = try? Backtrace(from: StringsDecoder(values: values)) else { return nil }
        let decoded = backtrace.frames.compactMap { frame -> UInt? in
            switch frame {
            case .returnAddress(let address) where !programCounters: return UInt(address)
            case .programCounter(let address) where programCounters: return UInt(address)
            default: return nil
            }
        }
        return decoded == addresses ? backtrace : nil
    }

    /// Where the statement search probes, in bytes after a return address (and, negated, before the
    /// call): the line table starts a row at an instruction, and rows after a call are a few bytes long,
    /// so the probes are dense near the call and sparse further on. Without the library's DWARF reader
    /// the module looks up each address's line on its own, with no index kept between look-ups: hence
    /// few probes, one at a time, stopping at the first that answers.
    static let statementProbeOffsets: [UInt] = [0, 2, 4, 7, 11, 16, 24, 40]

    /// The file and line of the statement that made the call returning to `returnAddress` in the
    /// function `function` (its raw symbol), when the line table gives that call line 0.
    ///
    /// The Swift compiler gives line 0 to the call of a property's `_modify` accessor (`count += 1`,
    /// `items.append(x)`, `flag.toggle()`) and to some calls in autoclosures and optimized code. The
    /// statement goes on after the accessor returns, so the first row with a line after the return
    /// address, in the same function, is that statement's; where there is none (the call ends the
    /// function), the nearest row before the call is taken.
    ///
    /// `locate` gives, for an address of code, its physical frame's function (raw symbol) and location
    /// (inlined frames at that address are other code's); `nil` stops the search.
    static func statementLine(
        returningTo returnAddress: UInt, in function: String,
        locate: (UInt) -> (function: String?, path: String?, line: Int?)?
    ) -> (path: String, line: Int)? {
        let after = statementProbeOffsets.map { returnAddress &+ $0 }
        let before = statementProbeOffsets.dropFirst().compactMap { $0 + 1 < returnAddress ? returnAddress - 1 - $0 : nil }
        for address in after + before {
            guard let located = locate(address) else { return nil }
            guard located.function == function else { continue }
            if let path = located.path, let line = located.line, line > 0 { return (path, line) }
        }
        return nil
    }

    /// The architecture as the module names it (only printed; symbolication reads the images).
    private static var architecture: String {
        #if arch(x86_64)
        return "x86_64"
        #elseif arch(arm64)
        return "arm64"
        #else
        return "unknown"
        #endif
    }

    /// Standard base64 with padding (RFC 4648), which the module's decoder reads.
    package static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var word = 0
            for (offset, byte) in chunk.enumerated() { word |= Int(byte) << (16 - 8 * offset) }
            for position in 0..<4 {
                out.append(position <= chunk.count ? alphabet[(word >> (18 - 6 * position)) & 0x3f] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// A `Decoder` of a flat object of strings: what `Backtrace(from:)` reads. Anything else throws.
private struct StringsDecoder: Decoder {
    let values: [String: String]
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Container<Key>(values: values))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw Self.unsupported([]) }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw Self.unsupported([]) }

    static func unsupported(_ path: [any CodingKey]) -> DecodingError {
        .typeMismatch(String.self, .init(codingPath: path, debugDescription: "only strings are decoded here"))
    }

    private struct Container<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let values: [String: String]
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { values.keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { values[key.stringValue] != nil }
        func decodeNil(forKey key: Key) throws -> Bool { !contains(key) }

        func decode(_ type: String.Type, forKey key: Key) throws -> String {
            guard let value = values[key.stringValue] else {
                throw DecodingError.keyNotFound(key, .init(codingPath: [key], debugDescription: "absent"))
            }
            return value
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            guard type == String.self, let value = try decode(String.self, forKey: key) as? T else {
                throw StringsDecoder.unsupported([key])
            }
            return value
        }

        func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type, forKey key: Key
        ) throws -> KeyedDecodingContainer<NestedKey> { throw StringsDecoder.unsupported([key]) }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            throw StringsDecoder.unsupported([key])
        }
        func superDecoder() throws -> any Decoder { throw StringsDecoder.unsupported([]) }
        func superDecoder(forKey key: Key) throws -> any Decoder { throw StringsDecoder.unsupported([key]) }
    }
}
/// The process's images for `Runtime`'s symbolication: capturing the map costs a few hundred
/// microseconds, so it is kept, and captured again when a frame lies in no image it knows (a library
/// loaded since).
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
enum RuntimeImages {
    private static let images = LockedValue<ImageMap?>(nil)
    /// Symbolication runs one at a time: reports are rare, and the symbol cache is shared. A bare mutex,
    /// not a `LockedValue<()>`: Swift lays a zero-sized stored property out at offset 0, the object's
    /// own address (checked with `_forEachField`: `state` at 0, the mutex at 16), and ThreadSanitizer
    /// reported an exclusive access to that "variable" in one thread against a read at the same address
    /// in another thread that did not yet hold the mutex.
    /// (`nonisolated(unsafe)`: a pthread mutex is made to be shared; `PlatformMutex` is not `Sendable` only
    /// because it is non-copyable and stored inline.)
    nonisolated(unsafe) static let symbolicating = PlatformMutex()

    static var current: ImageMap {
        images.withLock { map in
            if let map { return map }
            let captured = ImageMap.capture()
            map = captured
            return captured
        }
    }

    static func symbolicate(_ backtrace: Backtrace) -> [CallStack.Frame] {
        var map = current
        if backtrace.frames.contains(where: { isOutside($0, map) }) {
            map = ImageMap.capture()
            images.withLock { $0 = map }
        }
        #if os(Linux)
        if let frames = symbolicateFromDwarf(backtrace, map) { return frames }
        #endif
        let options: Backtrace.SymbolicationOptions = [.showInlineFrames, .showSourceLocations, .useSymbolCache]
        guard let symbolicated = symbolicating.withLock({ backtrace.symbolicated(with: map, options: options) })
        else { return [] }
        return symbolicated.frames.compactMap { convert($0, map) }
    }

    static func convert(_ frame: SymbolicatedBacktrace.Frame, _ map: ImageMap) -> CallStack.Frame? {
        guard let address = UInt(frame.captured.originalProgramCounter) else { return nil }
        var result = CallStack.Frame(address: address, isInlined: frame.inlined, isThunk: frame.isSwiftThunk)
        if let symbol = frame.symbol {
            result.rawName = symbol.rawName
            result.name = symbol.name
            result.image = symbol.imageName
            if let location = symbol.sourceLocation, location.line > 0 {
                result.path = location.path
                result.line = location.line
                result.column = location.column > 0 ? location.column : nil
            }
        } else if let index = map.indexOfImage(at: frame.captured.originalProgramCounter) {
            result.image = map[index].name
        }
        return result
    }

    /// See ``CallStack/atItsStatement(_:)``.
    static func statementLine(returningTo address: UInt, in function: String) -> (path: String, line: Int)? {
        let map = current
        #if os(Linux)
        if PlatformInternals.dwarfReaderAllowed {
            return RuntimeBacktraceReader.statementLine(returningTo: address, in: function) { locateFromDwarf($0, map) }
        }
        #endif
        let options: Backtrace.SymbolicationOptions = [.showInlineFrames, .showSourceLocations, .useSymbolCache]
        return RuntimeBacktraceReader.statementLine(returningTo: address, in: function) { address in
            guard let probe = RuntimeBacktraceReader.backtrace(of: [address], programCounters: true),
                  let symbolicated = symbolicating.withLock({ probe.symbolicated(with: map, options: options) })
            else { return nil }
            let symbol = symbolicated.frames.last?.symbol
            return (symbol?.rawName, symbol?.sourceLocation?.path, symbol?.sourceLocation?.line)
        }
    }

    /// See ``CallStack/atItsEntry(_:)``.
    static func entryLine(returningTo address: UInt, in function: String, orOfTheCallAfter: Bool) -> (path: String, line: Int)? {
        let map = current
        #if os(Linux)
        if PlatformInternals.dwarfReaderAllowed {
            return CallStack.entryLine(returningTo: address, in: function, orOfTheCallAfter: orOfTheCallAfter) {
                locateFromDwarf($0, map)
            }
        }
        #endif
        let options: Backtrace.SymbolicationOptions = [.showSourceLocations, .useSymbolCache]
        return CallStack.entryLine(returningTo: address, in: function, orOfTheCallAfter: orOfTheCallAfter) { address in
            guard let probe = RuntimeBacktraceReader.backtrace(of: [address], programCounters: true),
                  let symbolicated = symbolicating.withLock({ probe.symbolicated(with: map, options: options) })
            else { return nil }
            let symbol = symbolicated.frames.last?.symbol
            return (symbol?.rawName, symbol?.sourceLocation?.path, symbol?.sourceLocation?.line)
        }
    }

    private static func isOutside(_ frame: Backtrace.Frame, _ map: ImageMap) -> Bool {
        switch frame {
        case .programCounter(let address), .returnAddress(let address), .asyncResumePoint(let address):
            return map.indexOfImage(at: address) == nil
        case .omittedFrames, .truncated:
            return false
        @unknown default:
            return false
        }
    }
}
#endif

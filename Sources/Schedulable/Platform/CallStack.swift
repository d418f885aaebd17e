#if canImport(Runtime)
#if canImport(Darwin)
// libswiftRuntime ships with the 26 releases of Apple's OSes, above the package's floor: weak, so its
// load command is LC_LOAD_WEAK_DYLIB and an app launches where it is missing; every use of it is behind
// `if #available` (the 26 releases).
@_weakLinked import Runtime
#else
import Runtime
#endif
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CSchedulableContext

/// The calling thread's return addresses, captured cheaply when a violation is made and symbolicated
/// only when a report needs them (reporting path only).
///
/// Capture never faults. It is `backtrace(3)` on every platform: on Linux glibc's, which steps with
/// libgcc's unwinder through each frame's call-frame information and stops at the first return address
/// that no image describes, so it follows dispatch workers and C built without frame pointers, and never
/// takes a stack slot for an async context; on Darwin, libSystem's frame-pointer walk, bounded by the
/// thread's stack (every Apple image keeps frame pointers). Where the C library has none (Musl) the stack
/// is empty and the report goes out without it. The toolchain's `Runtime` module unwinds by frame
/// pointers and follows what looks like an async context: through libdispatch's frames on Linux that
/// dereferenced garbage, so it is used only to symbolicate the addresses captured here.
///
/// Symbolication: the `Runtime` module (DWARF line tables and inlined frames) where it exists — Linux
/// with Swift 6.2 and later, the 26 releases of Apple's OSes — and otherwise `dladdr`, which gives image
/// and exported symbol names but no file or line. The `dladdr` path also runs on Linux, so its tests run
/// here (``frames(fallback:)``).
package struct CallStack: Sendable {
    /// The return addresses, innermost first.
    package let addresses: [UInt]

    /// Captures up to `limit` return addresses of the calling thread.
    ///
    /// - Parameter limit: How many frames at most (the library's own frames count too).
    /// - Returns: The stack, not yet symbolicated.
    @inline(never)
    package static func capture(limit: Int) -> CallStack {
        guard limit > 0 else { return .empty }
        return withUnsafeTemporaryAllocation(of: UnsafeMutableRawPointer?.self, capacity: limit) { buffer in
            let count = Int(csched_backtrace(buffer.baseAddress!, Int32(limit)))
            return CallStack(addresses: (0..<count).map { UInt(bitPattern: buffer[$0]) })
        }
    }

    /// An empty stack (a violation made by user code, or a platform that cannot capture).
    package static let empty = CallStack(addresses: [])

    /// One frame, as symbolicated. Inlined functions are frames of their own (with the `Runtime` back
    /// end and debug information), innermost first, each with the address of the real frame holding it.
    package struct Frame: Sendable, Hashable {
        /// The return address (or program counter) of the real frame.
        package var address: UInt
        /// The symbol as the image spells it (mangled, for Swift), if known.
        package var rawName: String?
        /// The symbol demangled, in the short form backtraces print (`touch(_:)`), if known.
        package var name: String?
        /// The image's file name (`libswiftCore.so`), if known.
        package var image: String?
        /// The source file's path, line and column, when debug information has them (a column only
        /// with a line).
        package var path: String?
        package var line: Int?
        package var column: Int?
        /// Whether this frame was inlined into the next one.
        package var isInlined = false
        /// Whether this frame is a compiler-generated thunk.
        package var isThunk = false
    }

    /// The frames, innermost first, with source locations and inlined functions where the debug
    /// information has them. Each address is symbolicated once per process (``SymbolCache``): reading
    /// the line tables is the expensive part of a report (from a millisecond for a small program to a
    /// few hundred for a large test binary), and a storm or a test suite reports the same sites again
    /// and again.
    ///
    /// - Parameter fallback: Use `dladdr` even where `Runtime` is available (tests).
    package func frames(fallback: Bool = false) -> [Frame] {
        #if canImport(Runtime)
        if !fallback, PlatformInternals.runtimeBacktraceAllowed, #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            if let cached = SymbolCache.frames(for: addresses) { return Self.atTheirSource(cached) }
            // Only the addresses not seen before: a new site's stack shares most of its frames (the
            // caller's, the scheduler's, libdispatch's) with stacks already symbolicated.
            let missing = SymbolCache.missing(in: addresses)
            if let backtrace = RuntimeBacktraceReader.backtrace(of: missing) {
                let symbolicated = RuntimeImages.symbolicate(backtrace)
                SymbolCache.store(symbolicated, for: missing)
                if let all = SymbolCache.frames(for: addresses) { return Self.atTheirSource(all) }
                // The cache was full and forgot the others meanwhile: the whole stack, as the first time.
                if missing.count < addresses.count, let whole = RuntimeBacktraceReader.backtrace(of: addresses) {
                    return Self.atTheirSource(RuntimeImages.symbolicate(whole))
                }
                return Self.atTheirSource(symbolicated)
            }
        }
        #endif
        // `dladdr` is cheap and knows no lines: nothing to keep.
        return addresses.map(Self.fallbackFrame)
    }

    /// Symbolicated frames placed in the source a user reads: macro expansions where the macro was used,
    /// then autoclosures at the statement that made them.
    private static func atTheirSource(_ frames: [Frame]) -> [Frame] {
        autoclosuresAtTheirStatement(macroExpansionsAtTheirUse(frames))
    }

    /// `frame` placed at the line of the statement its call belongs to, where the line table gives the
    /// call line 0 (a property's `_modify` accessor called by `count += 1`; see
    /// `RuntimeBacktraceReader.statementLine`); `frame` itself when it has a line, is inlined, or the
    /// search finds none. A few line look-ups per address, each kept for the life of the process: the
    /// reporting path asks it of the access site only.
    package static func atItsStatement(_ frame: Frame) -> Frame {
        guard frame.line == nil, !frame.isInlined, let function = frame.rawName else { return frame }
        var located = frame
        // The statement's line is found; not where on it the call is.
        located.column = nil
        if let known = StatementLines.cache.withLock({ $0[frame.address] }) {
            (located.path, located.line) = (known?.path, known?.line)
            return located
        }
        var found: (path: String, line: Int)?
        #if canImport(Runtime)
        if PlatformInternals.runtimeBacktraceAllowed, #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            found = RuntimeImages.statementLine(returningTo: frame.address, in: function)
        }
        #endif
        StatementLines.cache.withLock { cache in
            if cache.count >= StatementLines.limit { cache.removeAll() }
            cache[frame.address] = .some(found)
        }
        (located.path, located.line) = (found?.path, found?.line)
        return located
    }

    /// `frames` with each autoclosure that has no line (`implicit closure #1 in check()`: the compiler
    /// may give its whole body line 0) placed at the line of the function that made it, the statement
    /// that passed it (`XCTAssertEqual(queue.count, 0)`): the next frame of that function down the stack.
    /// Per stack, not per address: the line is the caller's.
    static func autoclosuresAtTheirStatement(_ frames: [Frame]) -> [Frame] {
        var frames = frames
        for index in frames.indices where frames[index].line == nil {
            guard let name = frames[index].name, name.hasPrefix("implicit closure #"),
                  let separator = name.indices.first(where: { name[$0...].hasPrefix(" in ") }) else { continue }
            let maker = name[name.index(separator, offsetBy: 4)...]
            if let caller = frames[(index + 1)...].first(where: { $0.name.map { $0 == maker } ?? false }), caller.line != nil {
                (frames[index].path, frames[index].line, frames[index].column) = (caller.path, caller.line, caller.column)
            }
        }
        return frames
    }

    private static func fallbackFrame(_ address: UInt) -> Frame {
        var frame = Frame(address: address)
        var image: UnsafePointer<CChar>?
        var symbol: UnsafePointer<CChar>?
        var start: UInt = 0
        guard let pointer = UnsafeRawPointer(bitPattern: address), csched_address_info(pointer, &image, &symbol, &start)
        else { return frame }
        frame.image = image.map { String(cString: $0) }.map(fileName(of:))
        if let symbol {
            frame.rawName = String(cString: symbol)
            if let demangled = csched_demangle(symbol) {
                frame.name = String(cString: demangled)
                free(demangled)
            } else {
                frame.name = frame.rawName
            }
        }
        return frame
    }

    /// The last component of a path.
    package static func fileName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}

/// The statement lines found for return addresses whose own line is 0 (bounded; `nil`: none found).
private enum StatementLines {
    static let limit = 1_024
    static let cache = LockedValue([UInt: (path: String, line: Int)?]())
}

/// What symbolication found per address, kept for the life of the process (bounded): the frames of one
/// address are its inlined functions, innermost first, then the function that holds them.
private enum SymbolCache {
    private static let limit = 4_096
    private static let cache = LockedValue([UInt: [CallStack.Frame]]())

    /// The frames of `addresses`, if every one of them was symbolicated before.
    static func frames(for addresses: [UInt]) -> [CallStack.Frame]? {
        cache.withLock { cache in
            var frames: [CallStack.Frame] = []
            for address in addresses {
                guard let known = cache[address] else { return nil }
                frames += known
            }
            return frames
        }
    }

    /// The addresses of `addresses` not symbolicated before, each once, in order.
    static func missing(in addresses: [UInt]) -> [UInt] {
        cache.withLock { cache in
            var seen = Set<UInt>()
            return addresses.filter { cache[$0] == nil && seen.insert($0).inserted }
        }
    }

    /// Keeps `frames`, the symbolication of `addresses` (an address with no frame keeps none).
    static func store(_ frames: [CallStack.Frame], for addresses: [UInt]) {
        var byAddress: [UInt: [CallStack.Frame]] = [:]
        for address in addresses { byAddress[address] = [] }
        for frame in frames { byAddress[frame.address, default: []].append(frame) }
        cache.withLock { cache in
            if cache.count + byAddress.count > limit { cache.removeAll() }
            cache.merge(byAddress) { old, _ in old }
        }
    }
}

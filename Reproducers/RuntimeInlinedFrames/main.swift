// Symbolicates the frame `capture` returns to in each library, and says whether the `Runtime` module
// gave each inlined frame and each line. Exits 0 if so, 1 if not.
import Glibc
import Nested
import Runtime
import Wrapped

/// Prints the frames `capture` returns to and the address for llvm-symbolizer; returns those frames.
func framesAfterCapture(_ trace: Backtrace, library: String) -> [SymbolicatedBacktrace.Frame] {
    guard let symbolicated = trace.symbolicated() else { return [] }
    // Frame 0 is `capture`; then the frame it returns to, its inlined frames first.
    let frames = Array(symbolicated.frames.drop { $0.symbol?.name != "capture()" }.dropFirst())
    let shown = frames.prefix(while: { $0.inlined }) + frames.drop(while: { $0.inlined }).prefix(1)
    for frame in shown {
        let location = frame.symbol?.sourceLocation.map { "line \($0.line)" } ?? "no line"
        print("  \(frame.inlined ? "inlined " : "")\(frame.symbol?.name ?? "?"): \(location)")
    }
    if case .returnAddress(let address) = frames.first?.captured,
       let imageIndex = frames.first?.symbol?.imageIndex,
       let pc = UInt64(address), let base = UInt64(symbolicated.images[imageIndex].baseAddress) {
        // For llvm-symbolizer: the call instruction's last byte, as an address of the library file.
        print("  address in \(library): 0x\(String(pc - 1 - base, radix: 16))")
    }
    return frames
}

/// Whether `frames[index]` is `name`, inlined or not, at `line` (`nil`: no line).
func frame(_ frames: [SymbolicatedBacktrace.Frame], _ index: Int, is name: String, inlined: Bool, line: Int?) -> Bool {
    guard index < frames.count, frames[index].inlined == inlined, frames[index].symbol?.name == name else { return false }
    let found = frames[index].symbol?.sourceLocation?.line
    return found == line || (line == nil && found == 0)
}

print("1. A call after a nested inlined call has ended (libNested.so):")
let nested = entry()
let first = framesAfterCapture(nested.trace, library: "libNested.so")
print("  expected: inlined outer(): line \(nested.outerLine); entry(): line \(nested.entryLine)")
let firstRight = frame(first, 0, is: "outer()", inlined: true, line: nested.outerLine)
    && frame(first, 1, is: "entry()", inlined: false, line: nested.entryLine)
print(firstRight ? "  OK" : "  WRONG")

print("2. An inlined call without a call column (libWrapped.so):")
let wrapped = wrappedEntry()
let second = framesAfterCapture(wrapped.trace, library: "libWrapped.so")
print("  expected: inlined Captured.wrappedValue.getter: line \(getterLine); "
    + "inlined Holder.trace.getter: no line; wrappedEntry(): line \(wrapped.entryLine)")
let secondRight = frame(second, 0, is: "Captured.wrappedValue.getter", inlined: true, line: getterLine)
    && frame(second, 1, is: "Holder.trace.getter", inlined: true, line: nil)
    && frame(second, 2, is: "wrappedEntry()", inlined: false, line: wrapped.entryLine)
print(secondRight ? "  OK" : "  WRONG")

exit(firstRight && secondRight ? 0 : 1)

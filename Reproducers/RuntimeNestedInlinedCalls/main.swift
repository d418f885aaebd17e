// Symbolicates the frame that `capture` returns to in libNested.so, and says whether the `Runtime`
// module gave the inlined frame `outer()` and the line of each frame. Exits 0 if so, 1 if not.
import Glibc
import Nested
import Runtime

let (trace, outerLine, entryLine) = entry()
guard let symbolicated = trace.symbolicated() else {
    print("no symbols")
    exit(2)
}
// Frame 0 is `capture`; then the frame it returns to, its inlined frames first.
let frames = Array(symbolicated.frames.drop { $0.symbol?.name != "capture()" }.dropFirst())
for frame in frames.prefix(2) {
    let location = frame.symbol?.sourceLocation.map { "line \($0.line)" } ?? "no line"
    print("\(frame.inlined ? "inlined " : "")\(frame.symbol?.name ?? "?"): \(location)")
}
if case .returnAddress(let address) = frames.first?.captured,
   let imageIndex = frames.first?.symbol?.imageIndex,
   let pc = UInt64(address), let base = UInt64(symbolicated.images[imageIndex].baseAddress) {
    // For llvm-symbolizer: the call instruction's last byte, as an address of the library file.
    print("address in libNested.so: 0x\(String(pc - 1 - base, radix: 16))")
}
print("expected: inlined outer(): line \(outerLine); entry(): line \(entryLine)")

func frame(_ index: Int, is name: String, inlined: Bool, line: Int) -> Bool {
    index < frames.count && frames[index].inlined == inlined
        && frames[index].symbol?.name == name && frames[index].symbol?.sourceLocation?.line == line
}
let right = frame(0, is: "outer()", inlined: true, line: outerLine)
    && frame(1, is: "entry()", inlined: false, line: entryLine)
print(right ? "OK" : "WRONG")
exit(right ? 0 : 1)

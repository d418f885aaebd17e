// The library: its only inlined calls are `outer` into `entry`, and `inner` into `outer`, so the
// image's list of inlined calls is exactly those two (`llvm-dwarfdump --debug-info libNested.so`).
import Runtime

nonisolated(unsafe) var counter = 0

// Not inlined and not optimized: no inlined calls of their own.
@inline(never) @_optimize(none)
func work(_ value: Int) { counter &+= value }

@inline(never) @_optimize(none)
func capture() -> Backtrace { try! Backtrace.capture() }

// Private and always inlined: no out-of-line copy, hence no other entry in the list.
@inline(__always)
private func inner() { work(2) }

// Starts before `inner` and ends after it; the capture returns after `inner`'s range, inside this one.
@inline(__always)
private func outer() -> (Backtrace, line: Int) {
    work(1)
    inner()
    let trace = capture(); let line = #line
    work(3)
    return (trace, line)
}

/// The backtrace taken in `outer`, inlined here, and the lines a symbolicator should give.
@inline(never)
public func entry() -> (trace: Backtrace, outerLine: Int, entryLine: Int) {
    let (trace, line) = outer(); let entryLine = #line
    work(4)
    return (trace, line, entryLine)
}

// The second library: a property wrapper's getter inlined into the property's synthesized getter,
// inlined into `wrappedEntry`. The compiler makes the first call itself, so its
// DW_TAG_inlined_subroutine has DW_AT_call_line 0 and no DW_AT_call_column.
import Runtime

nonisolated(unsafe) var counter = 0

@inline(never) @_optimize(none)
func work(_ value: Int) { counter &+= value }

@inline(never) @_optimize(none)
func capture() -> Backtrace { try! Backtrace.capture() }

/// The line of `Captured.wrappedValue`'s getter, where the backtrace is taken.
public let getterLine = #line + 5

@propertyWrapper
struct Captured {
    var wrappedValue: Backtrace {
        @inline(__always) get { capture() }
    }
}

private struct Holder {
    @Captured var trace: Backtrace
}

/// The backtrace taken in the wrapper's getter, and the line of the property's read.
@inline(never)
public func wrappedEntry() -> (trace: Backtrace, entryLine: Int) {
    let trace = Holder().trace; let line = #line
    work(1)
    return (trace, line)
}

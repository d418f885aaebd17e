import Dispatch

/// A box bound to a serial `DispatchQueue` named directly (see ``Confinement``'s queue owners).
extension SchedulerBound {
    /// Binds `value` to the serial queue `owner` (see `init(_:owner:file:line:)`).
    ///
    /// - Parameters:
    ///   - value: The value to protect.
    ///   - owner: A serial queue (not the main, a global or a concurrent queue: those stop the process).
    ///   - file: The bind site, for reports.
    ///   - line: The bind site, for reports.
    public init(_ value: sending Value, owner: DispatchQueue, file: StaticString = #fileID, line: UInt = #line) {
        let context = ExecutionContext.owningOrStopping(owner, in: "SchedulerBound(_:owner:)", file: file, line: line)
        _owner = FixedOwner(context, boundAt: PackedCodeLocation(file: file, line: line))
        _value = value
    }
}

import Dispatch

/// Hand-offs to a serial `DispatchQueue` named directly (see ``Confinement``'s queue owners).
extension ConfinedObject {
    /// Hands the object to the serial queue `newOwner` (see `handOff(to:file:line:)`).
    ///
    /// - Parameters:
    ///   - newOwner: A serial queue (not the main, a global or a concurrent queue: those stop the process).
    ///   - file: The call site, for reports.
    ///   - line: The call site, for reports.
    public func handOff(to newOwner: DispatchQueue, file: StaticString = #fileID, line: UInt = #line) {
        let context = ExecutionContext.owningOrStopping(newOwner, in: "handOff(to:)", file: file, line: line)
        confinement._record.handOff(to: context, object: self, file: file, line: line)
    }
}

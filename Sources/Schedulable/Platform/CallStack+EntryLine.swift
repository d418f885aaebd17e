extension CallStack {
    /// `frame` placed at the first line of its function, where the line table gives the call it makes
    /// line 0 and the call is the compiler's check at the function's entry: Swift's isolation check
    /// (SE-0423) in a closure's or a witness thunk's prologue, which the runtime itself would name by
    /// the function's start line. `frame` itself when it has a line, is inlined, or nothing is found.
    /// Reporting path only; each address is looked up once per process.
    ///
    /// - Parameters:
    ///   - frame: The frame.
    ///   - orOfTheCallAfter: The frame is a witness thunk's: the line is the entry of its implementation,
    ///     found by name in the image's symbol table (``WitnessThunk``), else of the function its next
    ///     instruction calls, where that is a direct call.
    package static func atItsEntry(_ frame: Frame, orOfTheCallAfter: Bool = false) -> Frame {
        guard frame.line == nil, !frame.isInlined, let function = frame.rawName else { return frame }
        if let known = EntryLines.cache.withLock({ $0[frame.address] }) { return placed(frame, at: known) }
        var found: (path: String, line: Int)?
        #if canImport(Runtime)
        if PlatformInternals.runtimeBacktraceAllowed, #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            #if os(Linux)
            // A witness thunk's implementation, by the name its symbol gives (WitnessThunk).
            if orOfTheCallAfter, let implementation = WitnessThunk.implementation(ofThunk: function) {
                found = RuntimeImages.entryLine(of: implementation, inImageHolding: frame.address)
            }
            #endif
            found = found ?? RuntimeImages.entryLine(
                returningTo: frame.address, in: function, orOfTheCallAfter: orOfTheCallAfter
            )
        }
        #endif
        EntryLines.cache.withLock { cache in
            if cache.count >= EntryLines.limit { cache.removeAll() }
            cache[frame.address] = .some(found)
        }
        return placed(frame, at: found)
    }

    private static func placed(_ frame: Frame, at found: (path: String, line: Int)?) -> Frame {
        guard let found else { return frame }
        var located = frame
        (located.path, located.line, located.column) = (found.path, found.line, nil)
        return located
    }

    /// The first address of the function holding `returnAddress` (named `function`, its raw symbol),
    /// and the location `locate` gives it: stepping back 16 bytes while still in the function, then 8,
    /// 4, 2 and 1, so a function's start is found in a few look-ups per 16 bytes of it; at most
    /// `maximumDistance` bytes back. The function must be contiguous, as Swift's are.
    ///
    /// With `ofTheCallAfter`, the function the next instruction calls, when it is a direct call: a
    /// witness thunk has no line of its own, and right after its isolation check it calls the
    /// implementation, the code the user wrote.
    static func entryLine(
        returningTo returnAddress: UInt, in function: String, orOfTheCallAfter: Bool = false,
        maximumDistance: UInt = 4_096, locate: (UInt) -> (function: String?, path: String?, line: Int?)?
    ) -> (path: String, line: Int)? {
        guard returnAddress > 0 else { return nil }
        if orOfTheCallAfter, let callee = directCallTarget(at: returnAddress), let located = locate(callee),
            located.function != nil, let path = located.path, let line = located.line, line > 0
        {
            return (path, line)
        }
        var inside = returnAddress - 1
        var step: UInt = 16
        while step > 0 {
            while inside >= step, returnAddress - (inside - step) <= maximumDistance,
                locate(inside - step)?.function == function
            {
                inside -= step
            }
            step /= 2
        }
        guard let located = locate(inside), located.function == function, let path = located.path,
            let line = located.line, line > 0
        else { return nil }
        return (path, line)
    }
}

private enum EntryLines {
    static let limit = 1_024
    static let cache = LockedValue([UInt: (path: String, line: Int)?]())
}

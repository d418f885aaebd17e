/// Which of a captured stack's frames are the user's: the first one outside the library, the runtimes
/// and the property's own accessors, a witness thunk kept where the site is a function's entry (Swift's
/// isolation checks: the thunk's implementation is the site, ``WitnessThunk``).
extension CapturedAccess {
    /// The symbolicated frames and the index of the access site's: the stack's first addresses alone
    /// when they hold the site and what is shown after it (each new address costs a look-up in the
    /// debug information; a deep stack's last frames rarely matter), else all of them.
    func userFrames() -> (frames: [CallStack.Frame], first: Int?) {
        let window = Self.firstWindow + depth
        guard stack.addresses.count > window else {
            let frames = stack.frames()
            return (frames, StackFrameClassifier.firstUserFrame(in: frames, property: property, keepingWitnessThunks: atEntry))
        }
        var frames = CallStack(addresses: Array(stack.addresses.prefix(window))).frames()
        // Enough when the window holds the site, the frames shown from it and the site's caller, as the
        // whole stack would give them (the same filters as `resolved`).
        if let first = StackFrameClassifier.firstUserFrame(in: frames, property: property, keepingWitnessThunks: atEntry) {
            let named = frames[first...].filter { !$0.isThunk && ($0.name != nil || $0.image != nil) }
            let shown = named.filter { !StackFrameClassifier.isEntry($0) }
            if shown.count > depth, named.count > 1 { return (frames, first) }
        }
        // The rest, each address once: a frame (inlined ones included) belongs to one address.
        // An autoclosure is placed at its maker's line, which may be in the rest: placed again, whole.
        frames = CallStack.autoclosuresAtTheirStatement(
            frames + CallStack(addresses: Array(stack.addresses.dropFirst(window))).frames()
        )
        return (frames, StackFrameClassifier.firstUserFrame(in: frames, property: property, keepingWitnessThunks: atEntry))
    }

    /// How many addresses the first window symbolicates beyond the shown depth: the library's frames
    /// above a site in an optimised build, with room; a debug build's deeper ones take the whole stack.
    static let firstWindow = 12
}

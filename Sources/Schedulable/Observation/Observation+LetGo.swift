extension Observation.Site {
    /// The site as a step's `letGo` for an instance of the type `typeName` (`Article`, `Cache<Int>`):
    /// the first user frame outside that type's own code (its methods and accessors, and closures in
    /// them), since the code that lets go of an object is the code that called into it — a property
    /// used inside `Article.parse()` lets go where `article.parse()` was called, the line after which
    /// `handOff(to:)` belongs. ``json`` when the site is not in the type's code, or when no captured
    /// frame is outside it.
    ///
    /// Symbolicates the whole captured stack, at write time and only for such a site.
    func letGoJSON(outside typeName: String) -> String {
        guard given == nil, case .captured(let capture) = access,
            let site = access.failureSite(isMethodGuard: callSite != nil), Self.isCode(site.function, of: typeName)
        else { return json }
        let outside = capture.stack.frames().lazy
            .filter { !$0.isThunk && $0.line != nil && !StackFrameClassifier.isLibraryOrSystem($0) && !StackFrameClassifier.isEntry($0) }
            .map { CapturedAccess.reportFrame(CallStack.atItsStatement($0)) }
            .first { !Self.isCode($0.function, of: typeName) }
        guard let frame = outside, let line = frame.line, let fileID = frame.fileID else { return json }
        var fields = [("fileID", JSON.string(fileID)), ("line", String(line)), ("function", JSON.string(frame.function))]
        if let path = frame.file, path.hasPrefix("/") { fields.append(("path", JSON.string(path))) }
        return JSON.object(fields)
    }

    /// Whether a frame's function (`closure #1 in Article.parse()`, `Article.words.setter`) is the
    /// type's own code: after its closures, it starts with the type's name (without generic arguments).
    static func isCode(_ function: String, of typeName: String) -> Bool {
        var name = Substring(function)
        while name.hasPrefix("closure #") || name.hasPrefix("implicit closure #") {
            guard let space = name.firstIndex(of: "#").flatMap({ name[$0...].firstIndex(of: " ") }),
                name[space...].hasPrefix(" in ")
            else { return false }
            name = name[name.index(space, offsetBy: 4)...]
        }
        let type = typeName.prefix { $0 != "<" }
        return !type.isEmpty && name.hasPrefix(type + ".")
    }
}

extension ConfinementViolation {
    /// One frame of a report's stack: a function and, when debug information has them, its file and line.
    package struct StackFrame: Sendable, Hashable, CustomStringConvertible {
        /// The function, as backtraces print it (`touchFromElsewhere(_:)`, `closure #1 in load()`), or
        /// `top-level code` for a `main.swift`'s statements (`closure #2 in top-level code`).
        package var function: String
        /// The source file's path, as the debug information records it; `nil` without debug information.
        package var file: String?
        /// The line in ``file``; `nil` without debug information.
        package var line: Int?
        /// The column on ``line``, where the debug information has one (an optimised build often
        /// keeps none); `nil` otherwise. Test failures point at it; the report's text names lines.
        package var column: Int?
        /// The image (executable or library) the code is in, when known.
        package var image: String?
        /// The Swift module the function belongs to, when its symbol says (`App`).
        package var module: String?

        /// Creates a frame.
        ///
        /// - Parameters:
        ///   - function: The function.
        ///   - file: The source file's path, if known.
        ///   - line: The line, if known.
        ///   - column: The column, if known.
        ///   - image: The image, if known.
        ///   - module: The Swift module, if known.
        package init(
            function: String, file: String? = nil, line: Int? = nil, column: Int? = nil, image: String? = nil,
            module: String? = nil
        ) {
            self.function = function
            self.file = file
            self.line = line
            self.column = line == nil ? nil : column
            self.image = image
            self.module = module
        }

        /// The last component of ``file``: `main.swift`.
        package var fileName: String? { file.map(CallStack.fileName(of:)) }

        /// The file as `#fileID` spells it (`App/main.swift`) when the module is known, else ``fileName``.
        package var fileID: String? {
            guard let fileName else { return nil }
            return module.map { "\($0)/\(fileName)" } ?? fileName
        }

        /// The frame as a report field's value: `{"function", "location"?, "image"?}`, the location in the
        /// package's one shape with `"column"` and `"path"` (as the debug information records it) when known.
        var value: ConfinementViolation.FieldValue {
            typealias Field = ConfinementViolation.Field
            var fields = [Field("function", function)]
            if let fileID, let line {
                var location = [Field("fileID", fileID), Field("line", .number(line))]
                location.append("column", column.map(ConfinementViolation.FieldValue.number))
                location.append("path", file.map(ConfinementViolation.FieldValue.string))
                fields.append(Field("location", .object(location)))
            }
            fields.append("image", image.map(ConfinementViolation.FieldValue.string))
            return .object(fields)
        }

        /// `App/main.swift:14 in touchFromElsewhere(_:)`, or `touchFromElsewhere(_:) in App` without a file.
        package var description: String {
            if let fileID, let line { return "\(fileID):\(line) in \(function)" }
            return function + (image.map { " in \($0)" } ?? "")
        }
    }

    /// Where the violating access was made: the first frame of the violating thread outside this library,
    /// the Swift standard library and runtime and libdispatch (and outside the property's own accessor,
    /// for a `@Confined` property), as `File.swift:line in function`.
    ///
    /// Found from the stack captured when the violation was made; symbolicated the first time it is read
    /// (a report that storm control does not print is never symbolicated). `nil` when no frame qualifies
    /// (a stripped binary), or for a violation made with the package initializer and not set.
    package var accessSite: StackFrame? {
        get { access.site }
        set { access = .explicit(site: newValue, stack: access.frames) }
    }

    /// A short symbolicated stack of the violating thread, starting at ``accessSite`` — in builds with the
    /// debug tier, up to ``ConfinementSystem/reportStackDepth`` frames (8 by default; 0 turns it off);
    /// empty otherwise.
    package var stack: [StackFrame] {
        get { access.frames }
        set { access = .explicit(site: access.site, stack: newValue) }
    }

    /// The frame that called the access site's function: for a method guard, the line that called the
    /// guarded method from the wrong context (the guard itself is ``callSite``). `nil` when that frame
    /// is the library's or the system's (work a scheduler ran), or unknown.
    package var callerOfAccessSite: StackFrame? { access.caller }

    /// What storm control and warn-once tell sites apart by: the access site's return address while the
    /// stack is not symbolicated (two bad call sites of one member are two findings), else the site.
    package var accessSiteKey: AnyHashable? {
        switch access {
        case .none: return nil
        case .captured(let capture): return capture.key.map(AnyHashable.init)
        case .explicit(let site, _): return site.map(AnyHashable.init)
        }
    }

    /// ``accessSiteKey`` where it is known without symbolicating anything (no stack, a site set by code,
    /// or a stack seen before), else `nil`: the printing handlers leave a new stack to the reporting
    /// thread.
    package var knownAccessSiteKey: AnyHashable?? {
        guard case .captured(let capture) = access else { return .some(accessSiteKey) }
        return capture.knownKey.map { $0.map(AnyHashable.init) }
    }

    /// Captures the calling thread's stack as this violation's access site (return addresses only; see
    /// ``accessSite``), with the configured ``ConfinementSystem/reportStackDepth`` frames shown from it
    /// (debug tier; none otherwise). Called by the library where it makes a violation, on the violating
    /// thread.
    ///
    /// - Parameter atEntry: The check is the compiler's, at the entry of the function that made it (Swift's
    ///   isolation checks): the site is that function's first line, and a `@preconcurrency` witness thunk
    ///   is a site.
    package mutating func captureAccessSite(atEntry: Bool = false) {
        let depth = ConfinementSystem.debugChecksCompiledIn ? ConfinementSystem.reportStackDepth : 0
        access = .captured(CapturedAccess(
            stack: CallStack.capture(limit: CapturedAccess.libraryFrameAllowance + depth), member: member, depth: depth,
            atEntry: atEntry
        ))
    }

    /// This violation with the calling thread's stack captured (see ``captureAccessSite()``).
    package func capturingAccessSite() -> ConfinementViolation {
        var violation = self
        violation.captureAccessSite()
        return violation
    }

    /// Where repeat lines and the summary say a site is: ` at <call site>`, else ` at <access site>`, else
    /// nothing.
    package var sitePlace: String {
        if let callSite { return " at \(callSite)" }
        return accessSite.map { " at \($0)" } ?? ""
    }
}

/// A violation's access site: not known, captured (symbolicated on first read), or set by code.
enum ViolationAccess: Sendable {
    case none
    case captured(CapturedAccess)
    case explicit(site: ConfinementViolation.StackFrame?, stack: [ConfinementViolation.StackFrame])

    var site: ConfinementViolation.StackFrame? {
        switch self {
        case .none: return nil
        case .captured(let capture): return capture.resolved.site
        case .explicit(let site, _): return site
        }
    }

    var frames: [ConfinementViolation.StackFrame] {
        switch self {
        case .none: return []
        case .captured(let capture): return capture.resolved.stack
        case .explicit(_, let stack): return stack
        }
    }

    /// The frame that called the site's function (``ConfinementViolation/callerOfAccessSite``).
    var caller: ConfinementViolation.StackFrame? {
        switch self {
        case .none: return nil
        case .captured(let capture): return capture.resolved.caller
        case .explicit(_, let stack): return stack.dropFirst().first
        }
    }

    /// Where a test failure points and what an editor should open (a report's
    /// ``ConfinementViolation/failureSite``, an observation step's site): for a method guard, the line
    /// that called the guarded method; otherwise the access site.
    func failureSite(isMethodGuard: Bool) -> ConfinementViolation.StackFrame? {
        if isMethodGuard, let caller, caller.line != nil { return caller }
        return site
    }
}

/// A captured stack and what it resolves to, each computed once, on first need, from any thread.
final class CapturedAccess: Sendable {
    /// Frames the capture allows for the library's own frames above the access site (checks, factories,
    /// reporting), beyond the stack's depth: at `-Onone` a property access is about a dozen deep.
    static let libraryFrameAllowance = 24

    let stack: CallStack
    /// The member, when it is a property: its accessors' frames are the compiler's, not the access site.
    let property: String?
    let depth: Int
    /// Whether the site is placed at its function's entry (``ConfinementViolation/captureAccessSite(atEntry:)``).
    let atEntry: Bool
    private let symbolicated = LockedValue<Resolved?>(nil)

    /// What the stack resolves to.
    struct Resolved {
        var key: SiteKey?
        var site: ConfinementViolation.StackFrame?
        var stack: [ConfinementViolation.StackFrame]
        /// The user frame that called the site's function (see
        /// ``ConfinementViolation/callerOfAccessSite``), whatever the stack's depth.
        var caller: ConfinementViolation.StackFrame? = nil
    }

    /// - Parameters:
    ///   - stack: The captured stack.
    ///   - member: The member as a report names it: a method guard's is spelled with its arguments
    ///     (`refresh()`), a property's is a name.
    ///   - depth: How many frames from the access site on are shown.
    ///   - atEntry: Whether the site is its function's first line (see ``ConfinementViolation/captureAccessSite(atEntry:)``).
    init(stack: CallStack, member: String, depth: Int, atEntry: Bool = false) {
        self.stack = stack
        self.property = member.hasSuffix(")") || atEntry ? nil : member
        self.depth = depth
        self.atEntry = atEntry
    }

    /// The access site's return address: the same for every violation made there, different for two
    /// bad call sites. Storm control asks it of every violation, so a stack seen before (the same return
    /// addresses, the same property) is answered from ``SiteKeys`` without building any frame.
    var key: SiteKey? {
        if let known = knownKey { return known }
        let key = resolved.key
        SiteKeys.store(key, for: stack.addresses, property: property)
        return key
    }

    /// ``key`` where it answers without symbolicating (the stack was seen before), else `nil`.
    var knownKey: SiteKey?? {
        SiteKeys.key(for: stack.addresses, property: property)
    }

    /// The access site and the stack from it, symbolicated with source locations.
    var resolved: Resolved {
        symbolicated.withLock { resolved in
            if let resolved { return resolved }
            let (frames, first) = userFrames()
            var result = Resolved(key: nil, site: nil, stack: [])
            if let first {
                var fromSite = Array(frames[first...])
                fromSite[0] = CallStack.atItsStatement(fromSite[0])
                if atEntry {
                    let site = fromSite[0]
                    fromSite[0] = CallStack.atItsEntry(site, orOfTheCallAfter: StackFrameClassifier.isWitnessThunk(site))
                }
                let shown = fromSite.lazy
                    .filter { !$0.isThunk && ($0.name != nil || $0.image != nil) && !StackFrameClassifier.isEntry($0) }
                    .prefix(depth).map(Self.reportFrame)
                result = Resolved(key: SiteKey(fromSite[0]), site: Self.reportFrame(fromSite[0]), stack: Array(shown))
                let caller = fromSite.dropFirst().first { !$0.isThunk && ($0.name != nil || $0.image != nil) }
                if let caller, !StackFrameClassifier.isLibraryOrSystem(caller), !StackFrameClassifier.isEntry(caller) {
                    result.caller = Self.reportFrame(CallStack.atItsStatement(caller))
                    // A method guard's site is the line that called the method: keyed by the guard's own
                    // frame, two callers would be one site where the guard is not inlined (debug) and two
                    // where it is (optimized builds), so warn-once would group differently per build.
                    if property == nil, !atEntry { result.key = SiteKey(caller) }
                }
            }
            resolved = result
            return result
        }
    }

    /// The frame as a report shows it, named by ``StackFrameClassifier/reportName(of:)``.
    static func reportFrame(_ frame: CallStack.Frame) -> ConfinementViolation.StackFrame {
        let (function, module) = StackFrameClassifier.reportName(of: frame)
        return ConfinementViolation.StackFrame(
            function: function, file: frame.path, line: frame.line, column: frame.column, image: frame.image,
            module: module
        )
    }
}

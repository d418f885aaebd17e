import Foundation

/// Turns a proposal into diagnostics and edits of the `Confinement.observed()` lines.
///
/// Each edit replaces exactly the `Confinement.observed(…)` expression on the record's `createdAt` line
/// and nothing else on it. Where the owner cannot be named by a variable of the sources, the expression
/// stays and a placeholder comment marks the line: the tool never invents a name.
struct ProposalApplier {
    /// The marker of a placeholder comment; a line that carries one is not edited again.
    static let placeholderMarker = "/* schedule-audit:"

    let tree: SourceTree
    let schedulers: SchedulerDeclarations
    private(set) var sources: [String: (file: SourceFile, lines: [String])] = [:]

    /// Reads and scans every file of `tree`.
    init(tree: SourceTree) {
        self.tree = tree
        for (path, text) in tree.sources {
            sources[path] = (SourceFile(path: path, text: text), text.components(separatedBy: "\n"))
        }
        schedulers = SchedulerDeclarations(files: sources.values.map(\.file))
    }

    /// The lines of a file, as read when planning.
    func lines(of path: String) -> [String]? {
        sources[path]?.lines
    }

    /// The diagnostics and edits for every type of `proposal`, in its order.
    func plan(_ proposal: Proposal) -> ApplyPlan {
        var plan = ApplyPlan()
        for entry in proposal.types {
            plan.diagnostics += diagnose(entry, edits: &plan.edits)
        }
        return plan
    }

    typealias Diagnostic = ApplyPlan.Diagnostic

    private func diagnose(_ entry: Proposal.Entry, edits: inout [ApplyPlan.LineEdit]) -> [Diagnostic] {
        let name = "'\(entry.qualifiedName)'"
        let tag = " [\(entry.conclusion.rawValue)]"
        guard let anchor = entry.createdAt ?? entry.boundAt else {
            return [Diagnostic(path: "<unknown>", line: 1, column: 1, severity: .warning, message: "\(name) has no record site in the proposal\(tag)")]
        }
        let record = locate(anchor)
        func at(_ severity: Diagnostic.Severity, _ message: String) -> Diagnostic {
            Diagnostic(path: record.path, line: anchor.line, column: record.column, severity: severity, message: message)
        }
        var out: [Diagnostic] = []
        var siteNotes: [Diagnostic] = []
        // Evidence not already said by a diagnostic above it.
        var evidence: [Diagnostic] {
            entry.evidence.filter { line in !out.contains { $0.message.contains(line) } }.map { at(.note, "evidence: \($0)") }
        }
        if let problem = record.problem { out.append(at(.warning, "\(name): \(problem); no edit")) }

        // The new text for the expression, and, for a placeholder, why the owner has no name.
        let replacement: (text: String, summary: String)
        // An owner held by each instance: the record is assigned in the initializers instead.
        let held = entry.owner.flatMap { owner in
            ownerExpression(owner).spelling == nil ? instanceOwner(owner, path: record.path, recordLine: anchor.line - 1) : nil
        }
        switch entry.conclusion {
        case .owner:
            let expression = held.map { ("self." + $0.property, nil) } ?? entry.owner.map(ownerExpression) ?? (nil, "the proposal names no owner")
            let owner = entry.owner?.description ?? "?"
            out.append(at(.warning, entry.strayMoves.isEmpty
                ? "\(name) has one owner in every observed instance, \(owner): declare it\(tag)"
                : "\(name) starts on \(owner) in every observed instance, and some are used elsewhere after it (warnings below): declare it\(tag)"))
            replacement = Self.replacement(expression) { "Confinement(owner: \($0))" }
        case .main:
            out.append(at(.warning, entry.strayMoves.isEmpty
                ? "\(name) is used only on the main thread: declare it\(tag)"
                : "\(name) starts on the main thread in every observed instance, and some are used elsewhere after it (warnings below): declare it\(tag)"))
            out.append(at(.note, "this type could be @MainActor"))
            replacement = ("Confinement()", "")
        case .firstUser:
            out.append(at(.warning, "\(name): each instance \(entry.strayMoves.isEmpty ? "stays in" : "starts in") the context that first used it, and instances differ: bind it on first use\(tag)"))
            replacement = ("Confinement.detached()", "")
        case .handOff:
            out.append(at(.warning, "\(name) is handed forward and never back: make it transferable\(tag)"))
            if let owner = entry.owner {
                let expression = held.map { ("self." + $0.property, nil) } ?? ownerExpression(owner)
                replacement = Self.replacement(expression) { "Confinement.transferable(owner: \($0))" }
            } else {
                replacement = ("Confinement.detached()", "")
            }
            // A hand-off is inserted only where the record becomes transferable: an observed one takes none.
            let transferable = record.edit != nil && replacement.summary.isEmpty
            for handOff in entry.handOffs {
                let target = ownerExpression(handOff.to)
                let spelled = target.spelling ?? "<scheduler '\(handOff.to.label)'>"
                var message = Proposer.transferMembers.contains(handOff.member)
                    ? "\(name) is handed from \(handOff.from.description) to \(handOff.to.description) here, by the \(handOff.member) written"
                    : "hand \(name) from \(handOff.from.description) to \(handOff.to.description) before this first use there: <object>.handOff(to: \(spelled))"
                if let reason = target.reason { message += " (\(reason))" }
                siteNotes.append(site(handOff.site, .note, message))
                siteNotes += insertHandOff(handOff, of: entry, transferable: transferable, edits: &edits)
            }
        case .notConfinable:
            out.append(at(.warning, "\(name) is not confinable as written: \(entry.evidence.first ?? "")\(tag)"))
            let locks = sources[record.path].map { $0.file.lockMembers(ofClassAt: anchor.line - 1) } ?? []
            if !locks.isEmpty {
                out.append(at(.note, "\(name) is guarded by the lock \(locks.joined(separator: ", ")): shared under a lock, it has no one owner; the record stays observed (or remove it and the @Confined wrappers)"))
            }
            out += entry.uses.map { site($0.site, .note, "\(name) used from \($0.context.description) here" + ($0.member.isEmpty ? "" : " ('\($0.member)')")) }
            return out + evidence
        case .contradicted:
            out.append(at(.warning, "\(name) is declared owned by \(entry.owner?.description ?? "?"), but was used from \(entry.uses.count) other \(entry.uses.count == 1 ? "context" : "contexts") (what the checks would report)\(tag)"))
            out += entry.uses.map { site($0.site, .note, "'\($0.member)' of \(name) used from \($0.context.description) here") }
            return out + evidence.dropFirst(1 + entry.uses.count)
        case .insufficient:
            return out + [at(.note, "\(name): not enough evidence to propose an owner\(tag)")] + evidence
        }
        for point in entry.entryPoints ?? [] {
            siteNotes += removeGuard(of: point, in: name, edits: &edits)
        }
        for stray in entry.strayMoves {
            let target = ownerExpression(stray.to).spelling ?? "<scheduler '\(stray.to.label)'>"
            siteNotes.append(site(stray.site, .warning, "\(name) is used from \(stray.to.description) here, after \(stray.from.description), without a handOff(to:): the proposed record reports this use; a bug, or a hand-off to write (<object>.handOff(to: \(target)) and a transferable record)"))
        }
        if let edit = record.edit, let held, replacement.summary.isEmpty,
            !edits.contains(where: { $0.path == record.path && $0.line == anchor.line }) {
            out += assignInInitializers(held, expression: replacement.text, record: (anchor.line, edit.lineText, edit.prefix, edit.suffix), edits: &edits)
        } else if let edit = record.edit {
            if replacement.summary.isEmpty {
                out.append(at(.note, "fix-it: replace '\(edit.expression)' with '\(replacement.text)'"))
            } else {
                out.append(at(.warning, "\(name): \(replacement.summary); a placeholder comment marks the line"))
            }
            if edit.lineText.contains(Self.placeholderMarker) && !replacement.summary.isEmpty {
                out.append(at(.note, "the placeholder is already there; no edit"))
            } else if !edits.contains(where: { $0.path == record.path && $0.line == anchor.line }) {
                let text = replacement.summary.isEmpty ? replacement.text : edit.expression + " " + replacement.text
                edits.append(.init(path: record.path, line: anchor.line, old: edit.lineText, new: edit.prefix + text + edit.suffix))
            }
        } else if let refusal = record.refusal {
            out.append(at(.error, "\(name): \(refusal); not edited"))
        }
        return out + siteNotes + evidence
    }

    /// The new expression when the owner has a spelling; else the placeholder and the reason.
    private static func replacement(
        _ owner: (spelling: String?, reason: String?), _ expression: (String) -> String
    ) -> (text: String, summary: String) {
        if let spelling = owner.spelling { return (expression(spelling), "") }
        let reason = owner.reason ?? "no variable names the owner"
        return (placeholder(reason), reason)
    }

    /// A placeholder comment, put after the unchanged `Confinement.observed()`.
    static func placeholder(_ reason: String) -> String {
        "\(placeholderMarker) owner not named: \(reason.replacingOccurrences(of: "*/", with: "* /")) */"
    }

    /// How an owner is spelled in code, or why it cannot be.
    func ownerExpression(_ context: Observation.Context) -> (spelling: String?, reason: String?) {
        switch context.kind {
        case .main:
            return ("MainThreadScheduler.shared", nil)
        case .scheduler:
            switch schedulers.lookup(label: context.label) {
            case .found(let spelling, _): return (spelling, nil)
            case .notFound(let reason): return (nil, reason)
            }
        case .queue:
            // A raw serial queue owns objects directly (`Confinement(owner: storageQueue)`).
            switch schedulers.lookup(label: context.label, queue: true) {
            case .found(let spelling, _): return (spelling, nil)
            case .notFound(let reason): return (nil, "\(context.description) is a raw dispatch queue: \(reason); keep it in a global or static 'let' and name that")
            }
        case .thread:
            return (nil, "\(context.description) is a plain thread: run its work on a ThreadScheduler kept in a global or static 'let', and name that")
        case .task, .pool:
            return (nil, "\(context.description) cannot own an object")
        }
    }

    /// A note at an observed site, in its real file when it can be found.
    func site(_ site: Observation.Site?, _ severity: Diagnostic.Severity, _ message: String) -> Diagnostic {
        guard let site else {
            return Diagnostic(path: "<unknown>", line: 1, column: 1, severity: severity, message: message + " (no user frame was recorded)")
        }
        switch tree.resolve(site.file, path: site.path) {
        case .found(let path):
            return Diagnostic(path: path, line: site.line, column: 1, severity: severity, message: message)
        case .missing(let reason):
            return Diagnostic(path: site.file, line: site.line, column: 1, severity: severity, message: message + " (\(reason))")
        case .ambiguous(let paths):
            return Diagnostic(path: site.file, line: site.line, column: 1, severity: severity, message: message + " (several files match: \(paths.joined(separator: ", ")))")
        }
    }

    /// The record's line: its real file and column, and the expression to replace, or why not.
    private struct RecordLine {
        struct Edit {
            var lineText: String
            var prefix: String
            var expression: String
            var suffix: String
        }

        var path: String
        var column = 1
        var edit: Edit?
        /// A file that cannot be found (a warning, no edit).
        var problem: String?
        /// A found line without the expression (an error: the sources changed since the run).
        var refusal: String?
    }

    private func locate(_ location: Observation.File.Location) -> RecordLine {
        let resolution = tree.resolve(location.file)
        guard case .found(let path) = resolution else {
            if case .ambiguous(let paths) = resolution {
                return RecordLine(path: location.file, problem: "'\(location.file)' matches several files: \(paths.joined(separator: ", "))")
            }
            if case .missing(let reason) = resolution { return RecordLine(path: location.file, problem: reason) }
            return RecordLine(path: location.file)
        }
        guard let source = sources[path], location.line >= 1, location.line <= source.lines.count else {
            return RecordLine(path: path, refusal: "line \(location.line) is past the end of the file")
        }
        let tokens = source.file.tokens
        let line = location.line - 1
        for index in tokens.indices where tokens[index].line == line && tokens[index].isIdentifier("Confinement") {
            guard index + 3 < tokens.count, tokens[index + 1].isPunctuation("."), tokens[index + 2].isIdentifier("observed"),
                tokens[index + 3].isPunctuation("("), let close = source.file.matchingClose(index + 3), tokens[close].line == line
            else { continue }
            let bytes = Array(source.lines[line].utf8)
            let start = tokens[index].column, end = tokens[close].column + 1
            let edit = RecordLine.Edit(
                lineText: source.lines[line], prefix: String(decoding: bytes[..<start], as: UTF8.self),
                expression: String(decoding: bytes[start..<end], as: UTF8.self), suffix: String(decoding: bytes[end...], as: UTF8.self)
            )
            return RecordLine(path: path, column: start + 1, edit: edit)
        }
        let column = tokens.first { $0.line == line && $0.isIdentifier("Confinement") }.map { $0.column + 1 } ?? 1
        return RecordLine(path: path, column: column, refusal: "line \(location.line) no longer contains 'Confinement.observed(' on one line (the sources changed since the run?)")
    }
}

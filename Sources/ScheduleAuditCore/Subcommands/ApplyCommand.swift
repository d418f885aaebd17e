import Foundation

/// `schedule-audit-tool apply [<proposal.json>] [--sources <dir> …] [--apply]`: a proposal as
/// compiler-format diagnostics with fix-its; a dry run prints the diff, `--apply` edits the sources.
struct ApplyCommand: Equatable, Sendable {
    /// The source directory when `--sources` is not given, relative to the working directory.
    static let defaultSources = "Sources"

    static let usage = """
        USAGE: schedule-audit-tool apply [<proposal.json>] [--sources <dir> …] [--apply]

        Turns a proposal into compiler-format diagnostics (path:line:column: warning|note: …) with
        fix-its: each 'Confinement.observed()' becomes the proposed confinement, naming the scheduler by
        the variable that declares it; where every instance of a hand-off type left its first owner
        after one line, '<object>.handOff(to: <new owner>)' is inserted after that line's statement.
        A dry run (the default) prints the diagnostics and a unified diff; --apply edits the files,
        changing only those lines.
        Through the plugin: swift package --allow-writing-to-package-directory schedule-audit apply --apply

        ARGUMENTS:
          <proposal.json>   the file 'propose' wrote (default: \(ProposeCommand.defaultOutput))

        OPTIONS:
          --sources <dir>   a directory of the sources the proposal's files are found in, by module
                            folder (repeatable; default: \(defaultSources))
          --apply           edit the files instead of printing the diff
          -h, --help        print this help

        EXIT STATUS: 0 planned or applied; 1 an edit was refused because its line changed since the run
                     (then nothing is written); 2 bad arguments, an unreadable proposal or source directory

        """

    var proposal = ProposeCommand.defaultOutput
    var sources: [String] = []
    var write = false

    init(arguments: [String]) throws {
        var parser = SubcommandArguments(arguments, accepted: "<proposal.json>, --sources <dir>, --apply, --help")
        var proposals: [String] = []
        while let argument = parser.next() {
            switch argument {
            case "--sources": sources.append(try parser.value(for: argument))
            case "--apply": write = true
            case _ where argument.hasPrefix("-"): throw parser.unknown(argument)
            default: proposals.append(argument)
            }
        }
        guard proposals.count <= 1 else {
            throw AuditError("one proposal at a time; got '\(proposals[0])' and '\(proposals[1])' (merge runs with 'propose')")
        }
        proposal = proposals.first ?? proposal
        if sources.isEmpty { sources = [Self.defaultSources] }
    }

    /// Plans, then prints the diff or writes the edits.
    /// - Returns: The diagnostics, the diff or what was written, and the exit status.
    /// - Throws: ``AuditError`` for an unreadable proposal or source directory, or a file that cannot be written.
    func run() throws -> (output: String, status: Int32) {
        let proposal = try Proposal.load(path: proposal)
        let applier = ProposalApplier(tree: try SourceTree(roots: sources))
        let plan = applier.plan(proposal)
        var out = plan.diagnostics.map { $0.rendered + "\n" }.joined()
        let byFile = Dictionary(grouping: plan.edits, by: \.path)
        let files = byFile.keys.sorted()
        let counts = "\(plan.edits.count) \(plan.edits.count == 1 ? "edit" : "edits") in \(files.count) \(files.count == 1 ? "file" : "files")"
        let status = plan.hasErrors ? AuditCommand.exitFindings : AuditCommand.exitSuccess
        if !write {
            for path in files {
                out += EditedSource(path: path, lines: applier.lines(of: path) ?? [], edits: byFile[path] ?? []).unifiedDiff()
            }
            return (out + "schedule-audit apply: \(counts) (dry run; pass --apply to write them)\n", status)
        }
        guard !plan.hasErrors else {
            return (out + "schedule-audit apply: nothing written: an edit was refused (see the errors above); propose again from a run of these sources\n", status)
        }
        for path in files {
            try Self.write(byFile[path] ?? [], to: path)
        }
        return (out + "schedule-audit apply: \(counts) written\n", status)
    }

    /// Replaces the edited lines of one file, after checking each is still what was planned on.
    private static func write(_ edits: [ApplyPlan.LineEdit], to path: String) throws {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw AuditError("cannot read '\(path)' to edit it")
        }
        let lines = text.components(separatedBy: "\n")
        for edit in edits where edit.line > lines.count || lines[edit.line - 1] != edit.old {
            throw AuditError("'\(path)' line \(edit.line) changed while applying; nothing more written")
        }
        let edited = EditedSource(path: path, lines: lines, edits: edits)
        do {
            try edited.text.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw AuditError("cannot write '\(path)': \(error.localizedDescription) (through the plugin, pass --allow-writing-to-package-directory)")
        }
    }
}


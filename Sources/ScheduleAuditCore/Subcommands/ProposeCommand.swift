import Foundation

/// `schedule-audit-tool propose [<file-or-dir> …] [--output <file>]`: merges observation files and
/// proposes one owner per type (see the "Proposing Owners" article).
struct ProposeCommand: Equatable, Sendable {
    /// Where observation files are read from when no path is given (the core writes them there).
    static let defaultInput = ".schedulable/observations"
    /// Where the proposal is written when `--output` is not given (what `apply` reads by default).
    static let defaultOutput = ".schedulable/proposal.json"

    static let usage = """
        USAGE: schedule-audit-tool propose [<file-or-dir> …] [--output <file>]

        Merges the observation files of runs with SCHEDULABLE_CONFINEMENT=observe (one per process) and
        proposes one owner per type, with its evidence: a table on standard output and a JSON proposal
        for 'schedule-audit-tool apply'. Through the plugin: swift package schedule-audit propose …

        ARGUMENTS:
          <file-or-dir>     an observation file, or a directory whose *.json files are all read
                            (default: \(defaultInput))

        OPTIONS:
          --output <file>   where to write the proposal (default: \(defaultOutput))
          -h, --help        print this help

        CONCLUSIONS: owner, main, first-user, hand-off, not-confinable, insufficient, contradicted

        EXIT STATUS: 0 proposed; 2 bad arguments, or an observation file that cannot be read

        """

    var inputs: [String] = []
    var output = ProposeCommand.defaultOutput

    init(arguments: [String]) throws {
        var parser = SubcommandArguments(arguments, accepted: "<file-or-dir>, --output <file>, --help")
        while let argument = parser.next() {
            switch argument {
            case "--output": output = try parser.value(for: argument)
            case _ where argument.hasPrefix("-"): throw parser.unknown(argument)
            default: inputs.append(argument)
            }
        }
        if inputs.isEmpty { inputs = [Self.defaultInput] }
    }

    /// Reads, merges, proposes and writes the proposal.
    /// - Returns: The table and a summary line, and status 0.
    /// - Throws: ``AuditError`` for unreadable input or an unwritable output.
    func run() throws -> (output: String, status: Int32) {
        let observations = try Observation.Store.load(paths: inputs)
        let proposal = Proposal(observations: observations.files, types: observations.types.map(Proposer.propose))
        let url = URL(fileURLWithPath: output)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try proposal.encoded().write(to: url)
        } catch {
            throw AuditError("cannot write the proposal to '\(output)': \(error.localizedDescription)")
        }
        let files = observations.files.count
        let summary = "schedule-audit propose: \(proposal.types.count) \(proposal.types.count == 1 ? "type" : "types") from \(files) observation \(files == 1 ? "file" : "files"); proposal written to '\(output)'\n"
        return (proposal.table() + summary, AuditCommand.exitSuccess)
    }
}


extension Proposal {
    /// The table `propose` prints: one line per type (type, conclusion, owner or first evidence), then its
    /// other evidence indented.
    func table() -> String {
        let rows = types.map { entry -> (String, String, String, [String]) in
            let headline = entry.owner.map { owner in
                owner.description + (entry.createdAt.map { " (record at \($0.file):\($0.line))" } ?? "")
            }
            let lines = headline.map { [$0] + entry.evidence } ?? entry.evidence
            return (entry.qualifiedName, entry.conclusion.rawValue, lines.first ?? "", Array(lines.dropFirst()))
        }
        let typeWidth = max(4, rows.map(\.0.count).max() ?? 0)
        let conclusionWidth = max("CONCLUSION".count, rows.map(\.1.count).max() ?? 0)
        func pad(_ text: String, _ width: Int) -> String {
            text + String(repeating: " ", count: width - text.count)
        }
        var out = "\(pad("TYPE", typeWidth))  \(pad("CONCLUSION", conclusionWidth))  OWNER / EVIDENCE\n"
        for (type, conclusion, first, rest) in rows {
            out += "\(pad(type, typeWidth))  \(pad(conclusion, conclusionWidth))  \(first)\n"
            for line in rest {
                out += "    \(line)\n"
            }
        }
        return out
    }
}

/// `schedule-audit-tool claims`: lists the Swift 6 claims of the sources that an observed run can
/// test, and with observation files marks each class claim held, contradicted or unexercised.
///
/// ```
/// schedule-audit-tool claims [--sources <dir> …] [--observations <file-or-dir> …]
/// ```
public struct ClaimsCommand: Equatable, Sendable {
    /// The usage text that `claims --help` prints.
    public static let usage = """
        USAGE: schedule-audit-tool claims [--sources <dir> …] [--observations <file-or-dir> …]

        Lists the Swift 6 claims that a run can test, one 'path:line:column: note: claim: …' line each:
        classes declared '@unchecked Sendable' with a stored 'var' and no lock member, 'nonisolated(unsafe)'
        variables (and the class they hold, when the sources declare it), and 'assumeIsolated' calls.
        With observation files (what a run in observe mode writes), each class claim is marked:
          held          every instance used by one context, or handed on and never back
          contradicted  an instance back in an earlier context, or used from a pool thread or
                        several tasks (a warning, with both sites)
          unexercised   the class is not in the files: observe it with 'adopt' first

        OPTIONS:
          --sources <dir>                 a directory of Swift sources (repeatable; default: Sources)
          --observations <file-or-dir>    an observation file, or a directory of them (*.json; repeatable)
          -h, --help                      print this help

        EXIT STATUS: 0 listed; 2 bad arguments, unreadable sources, or an observation file that is
                     not one (or of a newer version)

        """

    /// Directories searched for Swift sources.
    public var sourceDirectories: [String] = ["Sources"]
    /// Observation files or directories of them.
    public var observations: [String] = []

    /// Parses the arguments after `claims`.
    ///
    /// - Parameter arguments: The command-line arguments after the subcommand's name.
    /// - Throws: ``AuditError`` naming the argument that is wrong and what is accepted.
    public static func parse(arguments: [String]) throws -> Self {
        var remaining = arguments[...]
        var command = Self()
        var directories: [String] = []
        while let argument = remaining.popFirst() {
            guard argument == "--sources" || argument == "--observations" else {
                throw AuditError("unknown argument '\(argument)'; accepted: --sources <dir>, --observations <file-or-dir>, --help")
            }
            guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
                throw AuditError("option '\(argument)' needs a value")
            }
            if argument == "--sources" { directories.append(value) } else { command.observations.append(value) }
        }
        if !directories.isEmpty { command.sourceDirectories = directories }
        return command
    }

    /// Lists (and marks) the claims.
    ///
    /// - Returns: One note per claim, a marking line per class claim when observations were given, and
    ///   a summary; status 0.
    /// - Throws: ``AuditError`` when the sources or an observation file cannot be read.
    public func run() throws -> (output: String, status: Int32) {
        let observed = try ObservationFile.load(arguments: observations)
        let claims = ClaimScan.claims(in: try SwiftSources.load(directories: sourceDirectories))
        var lines: [String] = []
        var marks: [String: Int] = [:]
        for claim in claims {
            let location = "\(claim.path):\(claim.line):\(claim.column)"
            lines.append("\(location): note: claim: \(claim.message)")
            guard !observations.isEmpty, let type = claim.observedType else { continue }
            let marking = ClaimMarking.mark(typeName: type.qualified, simpleName: type.simple, in: observed)
            let severity = if case .contradicted = marking { "warning" } else { "note" }
            lines.append("\(location): \(severity): \(marking.label): \(marking.evidence)")
            marks[marking.label, default: 0] += 1
        }
        let counts = Claim.Kind.allKinds.map { kind in claims.filter { $0.kind == kind }.count }
        var summary = "claims: \(claims.count) \(claims.count == 1 ? "claim" : "claims") (\(counts[0]) @unchecked Sendable, \(counts[1]) nonisolated(unsafe), \(counts[2]) assumeIsolated)"
        if !observations.isEmpty {
            let marked = ["held", "contradicted", "unexercised"].map { "\(marks[$0] ?? 0) \($0)" }
            summary += "; marked from \(observed.count) observation \(observed.count == 1 ? "file" : "files"): \(marked.joined(separator: ", "))"
        }
        lines.append(summary)
        return (lines.joined(separator: "\n") + "\n", AuditCommand.exitSuccess)
    }
}

extension Claim.Kind {
    /// The kinds in the order the summary counts them.
    static let allKinds: [Self] = [.uncheckedSendable, .nonisolatedUnsafe, .assumeIsolated]
}

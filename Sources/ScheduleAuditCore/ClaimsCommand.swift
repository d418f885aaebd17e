/// `schedule-audit-tool claims`: lists the Swift 6 claims of the sources that an observed run can
/// test, and with observation files marks each claim: a class's (or a variable's holding its instance)
/// held, contradicted or unexercised from the conclusion `propose` gives the class; any other, not observable.
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
        With observation files (what a run in observe mode writes), each claim is marked. A class claim,
        and a 'nonisolated(unsafe)' variable holding a class's instance, from the conclusion 'propose' gives
        that class (the same files, read and judged the same way):
          held            owner, main, first-user or hand-off (the line says which)
          contradicted    not-confinable, a stray use (a move without handOff(to:) that only some
                          instances made), or a declared owner missed: a warning naming the sites
          unexercised     insufficient evidence, the class is not in the files ('adopt' it first), or
                          a file's runtime did not tell a use inside another queue's sync apart from
                          the thread running it (no "resolution": "innermost-serial"): the run could
                          not have shown a violation, so it is never 'held'
          not observable  an 'assumeIsolated' call, or a variable of another type: no run tests it
                          (the line says why)

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
    /// - Returns: One note per claim, a marking line per claim when observations were given, and
    ///   a summary; status 0.
    /// - Throws: ``AuditError`` when the sources or an observation file cannot be read.
    public func run() throws -> (output: String, status: Int32) {
        // One reader and one judgement with `propose`: the files merged as it merges them, each type's
        // conclusion its Proposer's.
        let observed = observations.isEmpty ? nil : try Observation.Store.load(paths: observations)
        let judged = observed?.types.map { (type: $0, entry: Proposer.propose($0)) } ?? []
        let claims = ClaimScan.claims(in: try SwiftSources.load(directories: sourceDirectories))
        var lines: [String] = []
        var marks: [String: Int] = [:]
        for claim in claims {
            let location = "\(claim.path):\(claim.line):\(claim.column)"
            lines.append("\(location): note: claim: \(claim.message)")
            guard observed != nil else { continue }
            let marking: ClaimMarking
            if let type = claim.observedType {
                marking = ClaimMarking.mark(typeName: type.qualified, simpleName: type.simple, in: judged)
            } else {
                marking = .notObservable(claim.unobservable ?? "no class's instances test it")
            }
            let severity = if case .contradicted = marking { "warning" } else { "note" }
            lines.append("\(location): \(severity): \(marking.label): \(marking.evidence)")
            marks[marking.label, default: 0] += 1
        }
        let counts = Claim.Kind.allKinds.map { kind in claims.filter { $0.kind == kind }.count }
        var summary = "claims: \(claims.count) \(claims.count == 1 ? "claim" : "claims") (\(counts[0]) @unchecked Sendable, \(counts[1]) nonisolated(unsafe), \(counts[2]) assumeIsolated)"
        if let files = observed?.files.count {
            let marked = ClaimMarking.labels.map { "\(marks[$0] ?? 0) \($0)" }
            summary += "; marked from \(files) observation \(files == 1 ? "file" : "files"): \(marked.joined(separator: ", "))"
        }
        lines.append(summary)
        return (lines.joined(separator: "\n") + "\n", AuditCommand.exitSuccess)
    }
}

extension Claim.Kind {
    /// The kinds in the order the summary counts them.
    static let allKinds: [Self] = [.uncheckedSendable, .nonisolatedUnsafe, .assumeIsolated]
}

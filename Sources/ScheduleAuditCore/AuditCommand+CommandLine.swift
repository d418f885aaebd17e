/// The program around the audit: help, version, exit statuses and error messages, kept out of
/// `main.swift` so that the tests run exactly what users get.
extension AuditCommand {
    /// What a command line asks for.
    public enum Invocation: Equatable, Sendable {
        /// Audit, as the arguments say.
        case audit(AuditCommand)
        /// Print the usage (`--help`, `-h`).
        case help
        /// Print the version (`--version`).
        case version
    }

    /// The usage text that `--help` prints, and that a run without arguments prints to stderr.
    public static let usage = """
        USAGE: schedule-audit-tool --module <symbol-graph-dir> [--module <dir> …] [--context <dir> …]
                                   [--format text|json] [--strict]
               schedule-audit-tool <subcommand> [<argument> …]

        Lists the members of ConfinedObject classes that Schedulable's runtime checks cannot see.
        Most users run it through its plugin, which gathers the symbol graphs:
          swift package schedule-audit [--target <name> …] [--format text|json] [--strict]

        OPTIONS:
          --module <dir>       a directory of one module's symbol graphs to audit (repeatable; at least one)
          --context <dir>      a directory of a dependency's symbol graphs, read for facts about its types
          --format text|json   findings as compiler diagnostics (the default), or as JSON
          --strict             exit with status 1 when anything is found
          -h, --help           print this help
          --version            print the version

        EXIT STATUS: 0 audited (nothing found, or not --strict); 1 findings with --strict;
                     2 bad arguments or unreadable symbol graphs

        SUBCOMMANDS (each with its own --help):
          adopt <TypeName>     make a class observable: conformance, observe record, @Confined, guards
          claims               list the @unchecked Sendable, nonisolated(unsafe) and assumeIsolated claims
          propose              merge observation files and propose one owner per type
          apply                turn a proposal into diagnostics with fix-its; --apply edits the sources

        """

    /// The options an error lists after naming a bad argument.
    static let acceptedArguments =
        "accepted: --module <dir>, --context <dir>, --format text|json, --strict, --help, --version"

    /// Reads a command line: `--help`, `-h` or `--version` anywhere wins over the rest (CLI convention:
    /// help is never an error).
    ///
    /// - Parameter arguments: The command-line arguments, without the program name.
    /// - Returns: What the command line asks for.
    /// - Throws: ``AuditError`` naming the argument that is wrong and what is accepted.
    public static func parse(_ arguments: [String]) throws -> Invocation {
        if arguments.contains(where: { $0 == "--help" || $0 == "-h" }) { return .help }
        if arguments.contains("--version") { return .version }
        return .audit(try AuditCommand(arguments: arguments))
    }

    /// Runs the whole program: what `schedule-audit-tool` prints and the status it exits with.
    ///
    /// - Without arguments: the usage on standard error, status 2 (``exitUsage``).
    /// - A first argument that names a subcommand (`adopt`, `claims`, `propose`, `apply`): that
    ///   subcommand, with its own `--help` and errors.
    /// - `--help`, `-h`: the usage on standard output, status 0; `--version`: the version, status 0.
    /// - Bad arguments or unreadable graphs: `error: ` and what is wrong on standard error, status 2.
    /// - Otherwise the audit's output and status (see ``run()``).
    ///
    /// - Parameter arguments: The command-line arguments, without the program name.
    /// - Returns: The text for standard output and standard error, and the exit status.
    public static func main(arguments: [String]) -> (standardOutput: String, standardError: String, status: Int32) {
        guard let first = arguments.first else {
            return ("", usage, exitUsage)
        }
        if let result = subcommand(first, arguments: Array(arguments.dropFirst())) {
            return result
        }
        do {
            switch try parse(arguments) {
            case .help:
                return (usage, "", exitSuccess)
            case .version:
                return ("schedule-audit-tool \(version)\n", "", exitSuccess)
            case .audit(let command):
                let (output, status) = try command.run()
                return (output, "", status)
            }
        } catch {
            return ("", "error: \(error)\nRun 'schedule-audit-tool --help' for usage.\n", exitUsage)
        }
    }

    /// Runs the subcommand a first argument names, or returns `nil` when it names none (the plain
    /// audit). Kept to one table so that other subcommands join it.
    static func subcommand(_ name: String, arguments: [String]) -> (standardOutput: String, standardError: String, status: Int32)? {
        let subcommands: [String: (usage: String, run: ([String]) throws -> (output: String, status: Int32))] = [
            "adopt": (AdoptCommand.usage, { try AdoptCommand.parse(arguments: $0).run() }),
            "claims": (ClaimsCommand.usage, { try ClaimsCommand.parse(arguments: $0).run() }),
            "propose": (ProposeCommand.usage, { try ProposeCommand(arguments: $0).run() }),
            "apply": (ApplyCommand.usage, { try ApplyCommand(arguments: $0).run() }),
        ]
        guard let subcommand = subcommands[name] else { return nil }
        if arguments.contains(where: { $0 == "--help" || $0 == "-h" }) { return (subcommand.usage, "", exitSuccess) }
        do {
            let (output, status) = try subcommand.run(arguments)
            return (output, "", status)
        } catch {
            return ("", "error: \(error)\nRun 'schedule-audit-tool \(name) --help' for usage.\n", exitUsage)
        }
    }
}

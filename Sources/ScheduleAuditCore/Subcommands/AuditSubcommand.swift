/// A mode of `schedule-audit-tool` named by its first argument (`schedule-audit-tool propose …`).
///
/// The table of them is ``AuditCommand/subcommands``; the plain invocation (no subcommand) is the audit.
/// A subcommand's `--help` or `-h` anywhere prints its usage; an ``AuditError`` from `run` is printed
/// as `error: …` with status 2, like the audit's own errors.
struct AuditSubcommand: Sendable {
    /// The first argument that selects it.
    var name: String
    /// One line for the tool's usage.
    var summary: String
    /// What `--help` prints.
    var usage: String
    /// Runs it with the arguments after its name: the text for standard output and the exit status.
    var run: @Sendable ([String]) throws -> (output: String, status: Int32)
}

extension AuditCommand {
    /// Every subcommand, in the order the usage lists them. Adding one is one line here.
    static let subcommands: [AuditSubcommand] = [
        .propose,
        .apply,
    ]

    /// The usage's list of subcommands.
    static var subcommandsUsage: String {
        let width = subcommands.map(\.name.count).max() ?? 0
        return subcommands.map {
            "  \($0.name)\(String(repeating: " ", count: width - $0.name.count))  \($0.summary)"
        }.joined(separator: "\n")
    }

    /// Runs `subcommand` with the arguments after its name, as ``main(arguments:)`` does for the audit.
    static func main(
        _ subcommand: AuditSubcommand, arguments: [String]
    ) -> (standardOutput: String, standardError: String, status: Int32) {
        if arguments.contains(where: { $0 == "--help" || $0 == "-h" }) {
            return (subcommand.usage, "", exitSuccess)
        }
        do {
            let (output, status) = try subcommand.run(arguments)
            return (output, "", status)
        } catch {
            return ("", "error: \(error)\nRun 'schedule-audit-tool \(subcommand.name) --help' for usage.\n", exitUsage)
        }
    }
}

/// Reads `--option value` pairs, flags and positional arguments, naming the argument that is wrong.
struct SubcommandArguments {
    private var remaining: ArraySlice<String>
    private let accepted: String

    /// - Parameters:
    ///   - arguments: The arguments after the subcommand's name.
    ///   - accepted: What an error lists after naming a bad argument.
    init(_ arguments: [String], accepted: String) {
        remaining = arguments[...]
        self.accepted = accepted
    }

    /// The next argument, or `nil` at the end.
    mutating func next() -> String? {
        remaining.popFirst()
    }

    /// The value after `option`.
    mutating func value(for option: String) throws -> String {
        guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
            throw AuditError("option '\(option)' needs a value")
        }
        return value
    }

    /// The error for an argument that is not accepted.
    func unknown(_ argument: String) -> AuditError {
        AuditError("unknown argument '\(argument)'; accepted: \(accepted)")
    }
}

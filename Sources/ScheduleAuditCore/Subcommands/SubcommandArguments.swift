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

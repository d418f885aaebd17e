import Foundation

/// `schedule-audit-tool adopt`: makes a class observable without typing, the first step of adopting
/// Schedulable in an existing codebase.
///
/// ```
/// schedule-audit-tool adopt <TypeName> [--sources <dir> …] [--apply]
/// ```
/// Adds `ConfinedObject` to the class, `let confinement = Confinement.observed()` as its first member,
/// `@Confined` to each stored instance `var` and `assertIsolated()` to each instance method (those of
/// its extensions too). A dry run (the default) prints the notes and a unified diff; `--apply` writes
/// the files.
public struct AdoptCommand: Equatable, Sendable {
    /// The usage text that `adopt --help` prints.
    public static let usage = """
        USAGE: schedule-audit-tool adopt <TypeName> [--sources <dir> …] [--apply]

        Makes a class observable by Schedulable without typing it: adds ConfinedObject to its
        inheritance clause (and 'import Schedulable'), 'let confinement = Confinement.observed()' as
        its first member, @Confined before each stored instance 'var', and 'assertIsolated()' as the
        first statement of each instance method (in its extensions too; not in an entry point, whose
        body is one hop such as 'queue.sync { … }'). Each edit, and each member
        left as it is, is a 'path:line:column: note:' line; a class that already conforms is left alone.
        Run the tests with the class adopted, then 'propose' turns what was observed into owners.

        ARGUMENTS:
          <TypeName>           the class, by name or as Outer.Inner when the name is ambiguous

        OPTIONS:
          --sources <dir>      a directory of Swift sources to search (repeatable; default: Sources)
          --apply              write the edits (without it, a dry run prints them as a unified diff)
          -h, --help           print this help

        EXIT STATUS: 0 planned or applied (or nothing to do); 2 bad arguments, no such class, several
                     classes of that name, a type that is not a class, or a class with a subclass
                     that conforms already (adopt the superclass first)

        """

    /// The class to adopt.
    public var typeName: String
    /// Directories searched for Swift sources.
    public var sourceDirectories: [String] = ["Sources"]
    /// Whether to write the edits.
    public var apply = false

    /// Parses the arguments after `adopt`.
    ///
    /// - Parameter arguments: The command-line arguments after the subcommand's name.
    /// - Throws: ``AuditError`` naming the argument that is wrong and what is accepted.
    public static func parse(arguments: [String]) throws -> Self {
        var remaining = arguments[...]
        var typeName: String?
        var directories: [String] = []
        var apply = false
        while let argument = remaining.popFirst() {
            switch argument {
            case "--sources":
                guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
                    throw AuditError("option '--sources' needs a value")
                }
                directories.append(value)
            case "--apply":
                apply = true
            case _ where argument.hasPrefix("-"):
                throw AuditError("unknown argument '\(argument)'; accepted: <TypeName>, --sources <dir>, --apply, --help")
            default:
                guard typeName == nil else {
                    throw AuditError("adopt takes one type name; got '\(typeName ?? "")' and '\(argument)'")
                }
                typeName = argument
            }
        }
        guard let typeName else { throw AuditError("no type to adopt; pass its name: 'adopt <TypeName>'") }
        var command = Self(typeName: typeName, apply: apply)
        if !directories.isEmpty { command.sourceDirectories = directories }
        return command
    }

    /// Plans the adoption, and with `--apply` writes it.
    ///
    /// - Returns: The notes, a summary line and (in a dry run) the diff; status 0.
    /// - Throws: ``AuditError`` when the sources cannot be read or written, or the type cannot be adopted.
    public func run() throws -> (output: String, status: Int32) {
        let sources = try SwiftSources.load(directories: sourceDirectories)
        let plan = try AdoptionPlan(typeName: typeName, files: sources)
        var output = plan.notes.map { $0.rendered + "\n" }.joined()
        guard plan.editCount > 0 else {
            return (output + "adopt: '\(typeName)': nothing to change\n", AuditCommand.exitSuccess)
        }
        let skipped = plan.notes.count - plan.editCount
        let counts = "\(plan.editCount) \(plan.editCount == 1 ? "edit" : "edits") in \(plan.files.count) \(plan.files.count == 1 ? "file" : "files"), \(skipped) left as \(skipped == 1 ? "it is" : "they are")"
        if apply {
            for file in plan.files {
                do {
                    try file.text.write(toFile: file.path, atomically: true, encoding: .utf8)
                } catch {
                    throw AuditError("cannot write '\(file.path)': \(error.localizedDescription)")
                }
            }
            output += "adopt: '\(typeName)': \(counts); written\n"
        } else {
            output += "adopt: '\(typeName)': \(counts); dry run, pass --apply to write\n"
            output += plan.files.map { $0.unifiedDiff() }.joined()
        }
        return (output, AuditCommand.exitSuccess)
    }
}

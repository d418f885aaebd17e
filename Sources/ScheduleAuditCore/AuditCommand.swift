import Foundation

/// The command line of `schedule-audit-tool`, which the `schedule-audit` plugin runs.
///
/// ```
/// schedule-audit-tool --module <symbol-graph-dir> [--module <dir> …]
///                     [--context <symbol-graph-dir> …] [--format text|json] [--strict]
/// schedule-audit-tool --help | --version
/// ```
/// Each `--module` directory holds one module's graphs (as `getSymbolGraph(for:options:)` returns
/// them); `--context` directories hold dependencies' graphs, used only for facts about types.
/// ``main(arguments:)`` is the whole program, help and errors included.
public struct AuditCommand: Equatable, Sendable {
    /// The release of Schedulable this tool belongs to, printed by `--version`: the one place in the
    /// code that names it (RELEASING.md; `.ci/check-install` checks it against CHANGELOG.md).
    public static let version = "0.1.0"

    /// Exit status when the audit ran and, with `--strict`, found nothing.
    public static let exitSuccess: Int32 = 0
    /// Exit status with `--strict` when anything was found.
    public static let exitFindings: Int32 = 1
    /// Exit status for bad arguments or unreadable input.
    public static let exitUsage: Int32 = 2

    /// Directories of the modules to audit.
    public var moduleDirectories: [String] = []
    /// Directories of dependencies' graphs.
    public var contextDirectories: [String] = []
    /// The output format.
    public var format: AuditOutput.Format = .text
    /// Whether findings make the exit status non-zero.
    public var strict = false

    /// Parses arguments (without the program name).
    /// - Parameter arguments: The command-line arguments.
    /// - Throws: ``AuditError`` naming the argument that is wrong and what is accepted.
    public init(arguments: [String]) throws {
        var remaining = arguments[...]
        func value(for option: String) throws -> String {
            guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
                throw AuditError("option '\(option)' needs a value")
            }
            return value
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--module": moduleDirectories.append(try value(for: argument))
            case "--context": contextDirectories.append(try value(for: argument))
            case "--strict": strict = true
            case "--format":
                let name = try value(for: argument)
                guard let format = AuditOutput.Format(rawValue: name) else {
                    throw AuditError("unknown format '\(name)'; use 'text' or 'json'")
                }
                self.format = format
            default:
                throw AuditError("unknown argument '\(argument)'; \(Self.acceptedArguments)")
            }
        }
        guard !moduleDirectories.isEmpty else {
            throw AuditError("no module to audit; pass '--module <symbol-graph-dir>'")
        }
    }

    /// Audits every module and renders the result.
    /// - Returns: The text to print and the exit status.
    /// - Throws: ``AuditError`` when a graph directory cannot be read.
    public func run() throws -> (output: String, status: Int32) {
        let context = try contextDirectories.flatMap { try SymbolGraph.loadDirectory(URL(fileURLWithPath: $0)) }
        let reports = try moduleDirectories.map { directory in
            let graphs = try SymbolGraph.loadDirectory(URL(fileURLWithPath: directory))
            guard !graphs.isEmpty else {
                throw AuditError("no '*.symbols.json' files in '\(directory)'")
            }
            return ScheduleAuditor(moduleGraphs: graphs, contextGraphs: context).run()
        }
        let output = AuditOutput(modules: reports)
        let status = strict && output.findingCount > 0 ? Self.exitFindings : Self.exitSuccess
        return (output.rendered(as: format), status)
    }
}

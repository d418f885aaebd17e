import Foundation
import PackagePlugin

/// `swift package schedule-audit [--target NAME …] [--format text|json] [--strict]`, or
/// `swift package schedule-audit <subcommand> …` (`adopt`, `claims`, `propose`, `apply`).
///
/// Gathers symbol graphs with SwiftPM and hands them to `schedule-audit-tool`, which holds the logic
/// (a plugin cannot depend on a library target, and a plain target can be unit-tested). Subcommands
/// need no graphs: their arguments go to the tool unchanged, run in the package's directory.
///
/// The plugin declares no write permission: SwiftPM would then ask for it on every run, the plain
/// audit included. `adopt --apply` and `apply --apply` write the sources, which `--allow-writing-to-package-directory`
/// allows where a sandbox applies (macOS); the tool's error says so when a write is refused.
@main
struct ScheduleAuditPlugin: CommandPlugin {
    /// What `--help` prints; the tool's own `--help` describes the tool's arguments, not these.
    static let usage = """
        USAGE: swift package schedule-audit [--target <name> …] [--format text|json] [--strict]

        Lists the members of ConfinedObject classes that Schedulable's runtime checks cannot see.

        OPTIONS:
          --target <name>      a target to audit (repeatable; default: every non-test Swift target)
          --format text|json   findings as compiler diagnostics (the default), or as JSON on stdout
          --strict             fail when anything is found (for CI)
          -h, --help           print this help

        SUBCOMMANDS (their arguments go to schedule-audit-tool, run in the package directory):
          adopt <TypeName> [--sources <dir> …] [--apply]
              make a class observable; --apply edits the sources
          claims [--sources <dir> …] [--observations <file-or-dir> …]
              list the Swift 6 claims a run can test, and mark them from observation files
          propose [<file-or-dir> …] [--output <file>]
              merge observation files into a proposal and print its table
          apply [<proposal.json>] [--sources <dir> …] [--apply]
              the proposal as diagnostics and a diff; --apply edits the sources
          Where a sandbox applies (macOS), writing needs 'swift package --allow-writing-to-package-directory'.
          'swift package schedule-audit <subcommand> --help' prints a subcommand's own help
        """

    /// The subcommands whose arguments go to `schedule-audit-tool` unchanged (its table of them is
    /// `AuditCommand.subcommands`; a plugin cannot link that target to read it).
    static let subcommands: Set<String> = ["adopt", "claims", "propose", "apply"]

    func performCommand(context: PluginContext, arguments: [String]) async throws {
        if let name = arguments.first, Self.subcommands.contains(name) {
            let status = try runTool(context, arguments, in: context.package.directoryURL)
            if status != 0 {
                throw PluginFailure("schedule-audit-tool \(name) failed with status \(status) (see above)")
            }
            return
        }
        if arguments.contains(where: { $0 == "--help" || $0 == "-h" }) {
            print(Self.usage)
            return
        }
        var extractor = ArgumentExtractor(arguments)
        let targetNames = extractor.extractOption(named: "target")
        let formats = extractor.extractOption(named: "format")
        let strict = extractor.extractFlag(named: "strict") > 0
        if let unknown = extractor.remainingArguments.first {
            throw PluginFailure(
                "unknown argument '\(unknown)'; accepted: --target <name>, --format text|json, --strict, --help"
            )
        }
        let format = formats.last ?? "text"
        guard ["text", "json"].contains(format) else {
            throw PluginFailure("unknown format '\(format)'; use 'text' or 'json'")
        }

        let targets = try selectTargets(named: targetNames, in: context.package)
        // `.private` so internal and private members appear (they are what the audit is about; private
        // ones come without a source location, which the tool finds in the class's body);
        // synthesized members come from protocol extensions and are not written in the class.
        let options = PackageManager.SymbolGraphOptions(
            minimumAccessLevel: .private, includeInheritedDocs: false, includeSynthesized: false,
            includeSPI: true, emitExtensionBlocks: false
        )
        var toolArguments: [String] = []
        var contextTargets: [String: SourceModuleTarget] = [:]
        for target in targets {
            let graph = try packageManager.getSymbolGraph(for: target, options: options)
            toolArguments += ["--module", graph.directoryURL.path]
            for case let dependency as SwiftSourceModuleTarget in target.recursiveTargetDependencies {
                contextTargets[dependency.id] = dependency
            }
        }
        // Dependencies' public graphs answer "is this class Sendable" and "does this superclass adopt
        // ConfinedObject" for types the audited module only uses.
        let publicOptions = PackageManager.SymbolGraphOptions(
            minimumAccessLevel: .public, includeInheritedDocs: false, includeSynthesized: false,
            includeSPI: false, emitExtensionBlocks: false
        )
        for dependency in contextTargets.values.sorted(by: { $0.name < $1.name })
        where !targets.contains(where: { $0.id == dependency.id }) {
            let graph = try packageManager.getSymbolGraph(for: dependency, options: publicOptions)
            toolArguments += ["--context", graph.directoryURL.path]
        }
        toolArguments += ["--format", format] + (strict ? ["--strict"] : [])

        switch try runTool(context, toolArguments) {
        case 0:
            break
        case 1:
            throw PluginFailure("schedule-audit reported findings (see above) and --strict is set")
        case let status:
            throw PluginFailure("schedule-audit-tool failed with status \(status)")
        }
    }

    /// Runs `schedule-audit-tool`, its output going to the plugin's, and returns its exit status.
    private func runTool(_ context: PluginContext, _ arguments: [String], in directory: URL? = nil) throws -> Int32 {
        let process = Process()
        process.executableURL = try context.tool(named: "schedule-audit-tool").url
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// The named targets, or every Swift source target that is not a test when none are named.
    private func selectTargets(named names: [String], in package: Package) throws -> [SwiftSourceModuleTarget] {
        let candidates = package.targets.compactMap { $0 as? SwiftSourceModuleTarget }.filter { $0.kind != .test }
        guard !names.isEmpty else { return candidates }
        return try names.map { name in
            if let target = candidates.first(where: { $0.name == name }) { return target }
            if package.targets.contains(where: { $0.name == name }) {
                throw PluginFailure("target '\(name)' is not a Swift source target that can be audited; targets: \(candidates.map(\.name).joined(separator: ", "))")
            }
            throw PluginFailure("no target named '\(name)'; targets: \(candidates.map(\.name).joined(separator: ", "))")
        }
    }
}

/// A failure the plugin reports to the user; SwiftPM prints the description and exits non-zero.
struct PluginFailure: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}

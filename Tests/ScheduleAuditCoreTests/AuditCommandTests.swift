import Foundation
import Testing
@testable import ScheduleAuditCore

@Suite("schedule-audit-tool command line and output")
struct AuditCommandTests {
    /// Copies the fixture graphs to a temporary directory with their `/fixture/` paths pointing at the
    /// real fixture sources, as the plugin's graphs point at the package's sources.
    static func graphDirectories() throws -> (module: String, context: String) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("schedule-audit-tests-\(UUID().uuidString)")
        for kind in ["module", "context"] {
            let source = Fixture.directory.appendingPathComponent("symbol-graphs/\(kind)")
            let target = root.appendingPathComponent(kind)
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
            for name in try FileManager.default.contentsOfDirectory(atPath: source.path) {
                let text = try String(contentsOf: source.appendingPathComponent(name), encoding: .utf8)
                    .replacingOccurrences(of: "file:///fixture/", with: Fixture.directory.absoluteString)
                try text.write(to: target.appendingPathComponent(name), atomically: true, encoding: .utf8)
            }
        }
        return (root.appendingPathComponent("module").path, root.appendingPathComponent("context").path)
    }

    @Test func textOutputUsesCompilerDiagnosticLines() throws {
        let dirs = try Self.graphDirectories()
        let (output, status) = try AuditCommand(arguments: ["--module", dirs.module, "--context", dirs.context]).run()
        #expect(status == AuditCommand.exitSuccess)
        let lines = output.split(separator: "\n").map(String.init)
        let warnings = lines.filter { $0.contains(": warning: ") }
        #expect(warnings.count == 10)
        let pattern = #/^/.+/FlawedUploader\.swift:\d+:\d+: warning: .+ \[[a-zA-Z]+\]$/#
        #expect(warnings.allSatisfy { $0.wholeMatch(of: pattern) != nil })
        #expect(lines.filter { $0.contains(": note: ") }.count == 4)
        #expect(lines.last == "schedule-audit: module 'AuditFixture': 6 ConfinedObject classes, 10 findings")
    }

    @Test func jsonOutputCarriesTheSameFindings() throws {
        let dirs = try Self.graphDirectories()
        let command = try AuditCommand(arguments: ["--module", dirs.module, "--context", dirs.context, "--format", "json"])
        let (output, _) = try command.run()
        let decoded = try JSONDecoder().decode(AuditOutput.self, from: Data(output.utf8))
        #expect(decoded.version == 1)
        #expect(decoded.findingCount == 10)
        #expect(decoded.modules.map(\.module) == ["AuditFixture"])
        #expect(Set(decoded.modules[0].findings.map(\.kind)) == Set(AuditFinding.Kind.allCases))
        #expect(decoded.modules[0].findings.allSatisfy { $0.path.hasPrefix(Fixture.directory.path) })
    }

    @Test func strictFailsOnlyWhenSomethingIsFound() throws {
        let dirs = try Self.graphDirectories()
        let (_, failing) = try AuditCommand(arguments: ["--module", dirs.module, "--context", dirs.context, "--strict"]).run()
        #expect(failing == AuditCommand.exitFindings)
        // The Schedulable graph alone declares no protectable class: nothing to find, strict passes.
        let (output, passing) = try AuditCommand(arguments: ["--module", dirs.context, "--strict"]).run()
        #expect(passing == AuditCommand.exitSuccess)
        #expect(output == "schedule-audit: module 'Schedulable': 0 ConfinedObject classes, 0 findings\n")
    }

    @Test(arguments: [
        (["--format", "xml", "--module", "m"], "unknown format 'xml'; use 'text' or 'json'"),
        (["--module"], "option '--module' needs a value"),
        ([], "no module to audit; pass '--module <symbol-graph-dir>'"),
        (["--target", "X"], "unknown argument '--target'"),
    ])
    func badArgumentsAreExplained(arguments: [String], message: String) {
        let error = #expect(throws: AuditError.self) { try AuditCommand(arguments: arguments) }
        #expect(error?.description.hasPrefix(message) == true)
    }

    @Test(arguments: ["--help", "-h"])
    func helpPrintsTheUsageAndSucceeds(flag: String) {
        let result = AuditCommand.main(arguments: [flag])
        #expect(result.status == 0)
        #expect(result.standardOutput == AuditCommand.usage)
        #expect(result.standardOutput.hasPrefix("USAGE: schedule-audit-tool --module <symbol-graph-dir>"))
        #expect(result.standardError.isEmpty)
        // Help wins wherever it is, even beside an argument that would be an error.
        #expect(AuditCommand.main(arguments: ["--target", "X", flag]).status == 0)
    }

    @Test func noArgumentsPrintTheUsageToStandardErrorAndFail() {
        let result = AuditCommand.main(arguments: [])
        #expect(result.status == 2)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError == AuditCommand.usage)
    }

    @Test func versionPrintsTheReleaseVersion() {
        let result = AuditCommand.main(arguments: ["--version"])
        #expect(result.status == 0)
        #expect(result.standardOutput == "schedule-audit-tool \(AuditCommand.version)\n")
        #expect(AuditCommand.version.wholeMatch(of: #/\d+\.\d+\.\d+/#) != nil)
    }

    @Test(arguments: [
        (["--target", "X"], "error: unknown argument '--target'; accepted: --module <dir>, --context <dir>, --format text|json, --strict, --help, --version\n"),
        (["--module", "m", "--format", "yaml"], "error: unknown format 'yaml'; use 'text' or 'json'\n"),
        (["--module", "/nonexistent/schedule-audit"], "error: cannot read symbol graph directory '/nonexistent/schedule-audit'"),
    ])
    func errorsNameTheArgumentAndWhatIsAcceptedAndExitWithUsageStatus(arguments: [String], message: String) {
        let result = AuditCommand.main(arguments: arguments)
        #expect(result.status == 2)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.hasPrefix(message))
        #expect(result.standardError.hasSuffix("Run 'schedule-audit-tool --help' for usage.\n"))
    }

    @Test func anAuditRunsThroughMainWithItsOwnStatus() throws {
        let dirs = try Self.graphDirectories()
        let result = AuditCommand.main(arguments: ["--module", dirs.module, "--context", dirs.context, "--strict"])
        #expect(result.status == AuditCommand.exitFindings)
        #expect(result.standardOutput.hasSuffix("schedule-audit: module 'AuditFixture': 6 ConfinedObject classes, 10 findings\n"))
        #expect(result.standardError.isEmpty)
    }

    @Test func unreadableGraphDirectoryIsAnError() throws {
        let command = try AuditCommand(arguments: ["--module", "/nonexistent/schedule-audit"])
        let error = #expect(throws: AuditError.self) { try command.run() }
        #expect(error?.description.contains("cannot read symbol graph directory '/nonexistent/schedule-audit'") == true)
    }

    @Test func malformedGraphIsAnError() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("schedule-audit-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("{\"module\": 1}".utf8).write(to: directory.appendingPathComponent("Broken.symbols.json"))
        let error = #expect(throws: AuditError.self) { try SymbolGraph.loadDirectory(directory) }
        #expect(error?.description.contains("cannot decode symbol graph") == true)
    }
}

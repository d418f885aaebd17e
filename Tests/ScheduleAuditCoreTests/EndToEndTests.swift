import Foundation
import Testing
@testable import ScheduleAuditCore

/// Runs `swift package schedule-audit` on the fixture package, built against this checkout's real
/// `Schedulable`. Opt-in (`SCHEDULABLE_E2E=1 swift test --filter EndToEndTests`): it builds a second
/// package (about a minute the first time on two cores, seconds after that; the build is kept in
/// `.build-audit-e2e/`).
@Suite(
    "End to end: swift package schedule-audit",
    .serialized,
    .enabled(if: ProcessInfo.processInfo.environment["SCHEDULABLE_E2E"] == "1", "set SCHEDULABLE_E2E=1 to run"),
    .timeLimit(.minutes(10))
)
struct EndToEndTests {
    static let root = Fixture.directory.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A package whose only target is the fixture sources (a symlink), depending on this checkout.
    static func fixturePackage() throws -> URL {
        let package = root.appendingPathComponent(".build-audit-e2e/AuditFixture")
        let manager = FileManager.default
        try manager.createDirectory(at: package, withIntermediateDirectories: true)
        let sources = package.appendingPathComponent("Sources")
        if (try? manager.destinationOfSymbolicLink(atPath: sources.path)) == nil {
            try manager.createSymbolicLink(at: sources, withDestinationURL: Fixture.directory.appendingPathComponent("Sources"))
        }
        // A path dependency's identity is its directory name, which differs between checkouts.
        let manifest = """
            // swift-tools-version: 6.1
            import PackageDescription
            let package = Package(
                name: "AuditFixture", platforms: [.macOS(.v15)],
                dependencies: [.package(path: "\(root.path)")],
                targets: [.target(name: "AuditFixture", dependencies: [.product(name: "Schedulable", package: "\(root.lastPathComponent)")])]
            )
            """
        try manifest.write(to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        return package
    }

    static func runPlugin(_ arguments: [String], options: [String] = []) throws -> (status: Int32, stdout: String, stderr: String) {
        let package = try fixturePackage()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "package", "--package-path", package.path] + options + ["schedule-audit"] + arguments
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        // Read before waiting: a full pipe would otherwise block the child forever.
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    @Test func jsonRunReportsOneOfEachFindingAndNothingOnTheCleanType() throws {
        let run = try Self.runPlugin(["--format", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        let output = try JSONDecoder().decode(AuditOutput.self, from: Data(run.stdout.utf8))
        let report = try #require(output.modules.first)
        #expect(report.protectableTypes == [
            "CleanUploader", "FlawedSubclass", "FlawedUploader", "IncludingUploader", "MovingUploader", "PrivateStateUploader",
        ])
        // The same findings as the unit tests on the committed graphs: the committed graphs are current.
        let committed = try Fixture.audit()
        #expect(ScheduleAuditorTests.summary(report) == ScheduleAuditorTests.summary(committed))
        #expect(Set(report.findings.map(\.kind)) == Set(AuditFinding.Kind.allCases))
        #expect(report.findings.allSatisfy { $0.path.hasSuffix("/Sources/AuditFixture/FlawedUploader.swift") })
    }

    @Test func textRunPrintsDiagnosticLines() throws {
        let run = try Self.runPlugin([])
        #expect(run.status == 0, "\(run.stderr)")
        let warnings = run.stdout.split(separator: "\n").filter { $0.contains(": warning: ") }
        #expect(warnings.count == 10)
        #expect(warnings.allSatisfy { $0.wholeMatch(of: #/.+\.swift:\d+:\d+: warning: .+/#) != nil })
    }

    @Test func strictRunFails() throws {
        let run = try Self.runPlugin(["--strict"])
        #expect(run.status != 0)
        #expect(run.stderr.contains("--strict is set"))
    }

    @Test func unknownTargetIsNamedWithTheAlternatives() throws {
        let run = try Self.runPlugin(["--target", "Nope"])
        #expect(run.status != 0)
        #expect(run.stderr.contains("no target named 'Nope'; targets: AuditFixture"))
    }

    @Test func subcommandsAreForwardedToTheTool() throws {
        let sources = try ProposeFixture.sourcesCopy()
        let proposal = sources.deletingLastPathComponent().appendingPathComponent("proposal.json").path
        let propose = try Self.runPlugin(["propose", ProposeFixture.observations, "--output", proposal])
        #expect(propose.status == 0, "\(propose.stderr)")
        #expect(propose.stdout.contains("schedule-audit propose: 8 types from 7 observation files"))
        let apply = try Self.runPlugin(
            ["apply", proposal, "--sources", sources.path, "--apply"], options: ["--allow-writing-to-package-directory"]
        )
        #expect(apply.status == 0, "\(apply.stderr)")
        #expect(apply.stdout.hasSuffix("schedule-audit apply: 5 edits in 5 files written\n"))
        let help = try Self.runPlugin(["apply", "--help"])
        #expect(help.stdout.hasPrefix("USAGE: schedule-audit-tool apply "))
        let refused = try Self.runPlugin(["apply", "/nonexistent/proposal.json"])
        #expect(refused.status != 0)
        // SwiftPM forwards what the plugin's child prints on either stream to its own standard output.
        #expect((refused.stdout + refused.stderr).contains("cannot read proposal file '/nonexistent/proposal.json'"))
    }
}

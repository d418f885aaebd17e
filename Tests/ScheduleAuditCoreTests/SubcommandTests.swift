import Foundation
import Testing
@testable import ScheduleAuditCore

@Suite("schedule-audit-tool subcommands: dispatch, help and errors")
struct SubcommandTests {
    typealias F = ProposeFixture

    static let usages = ["propose": ProposeCommand.usage, "apply": ApplyCommand.usage]

    @Test(arguments: ["propose", "apply"], ["--help", "-h"])
    func eachSubcommandPrintsItsOwnHelp(name: String, flag: String) throws {
        let result = AuditCommand.main(arguments: [name, flag])
        #expect(result.status == 0)
        #expect(result.standardError.isEmpty)
        #expect(result.standardOutput == Self.usages[name])
        #expect(result.standardOutput.hasPrefix("USAGE: schedule-audit-tool \(name) "))
        // Help wins beside an argument that would be an error.
        #expect(AuditCommand.main(arguments: [name, "--bogus", flag]).status == 0)
    }

    @Test func theToolsUsageListsTheSubcommands() {
        #expect(AuditCommand.usage.contains("\n  propose              merge observation files and propose one owner per type\n"))
        #expect(AuditCommand.usage.contains("\n  apply                turn a proposal into diagnostics with fix-its; --apply edits the sources\n"))
    }

    @Test(arguments: [
        (["propose", "--format", "json"], "error: unknown argument '--format'; accepted: <file-or-dir>, --output <file>, --help\nRun 'schedule-audit-tool propose --help' for usage.\n"),
        (["propose", "--output"], "error: option '--output' needs a value\nRun 'schedule-audit-tool propose --help' for usage.\n"),
        (["propose", "/nonexistent/obs"], "error: no such file or directory '/nonexistent/obs'\nRun 'schedule-audit-tool propose --help' for usage.\n"),
        (["apply", "--write"], "error: unknown argument '--write'; accepted: <proposal.json>, --sources <dir>, --apply, --help\nRun 'schedule-audit-tool apply --help' for usage.\n"),
        (["apply", "--sources", "--apply"], "error: option '--sources' needs a value\nRun 'schedule-audit-tool apply --help' for usage.\n"),
        (["apply", "a.json", "b.json"], "error: one proposal at a time; got 'a.json' and 'b.json' (merge runs with 'propose')\nRun 'schedule-audit-tool apply --help' for usage.\n"),
        (["apply", "/nonexistent/p.json"], "error: cannot read proposal file '/nonexistent/p.json'\nRun 'schedule-audit-tool apply --help' for usage.\n"),
    ])
    func errorsNameTheBadArgumentAndExitWithUsageStatus(arguments: [String], message: String) {
        let result = AuditCommand.main(arguments: arguments)
        #expect(result.status == AuditCommand.exitUsage)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError == message)
    }

    @Test func aMissingSourceDirectoryIsAnError() throws {
        let directory = try F.temporaryDirectory()
        let proposal = directory.appendingPathComponent("p.json").path
        #expect(AuditCommand.main(arguments: ["propose", F.observation("owner"), "--output", proposal]).status == 0)
        let result = AuditCommand.main(arguments: ["apply", proposal, "--sources", "/nonexistent/Sources"])
        #expect(result.status == AuditCommand.exitUsage)
        #expect(result.standardError.hasPrefix("error: source directory '/nonexistent/Sources' does not exist; pass '--sources <dir>'\n"))
    }

    @Test func defaultsAreTheCoresDirectoryTheProposalFileAndSources() throws {
        let propose = try ProposeCommand(arguments: [])
        #expect(propose.inputs == [".schedulable/observations"])
        #expect(propose.output == ".schedulable/proposal.json")
        let apply = try ApplyCommand(arguments: [])
        #expect(apply.proposal == ".schedulable/proposal.json")
        #expect(apply.sources == ["Sources"])
        #expect(!apply.write)
    }

    @Test func proposePrintsTheTableAndWritesTheVersionedProposal() throws {
        let output = try F.temporaryDirectory().appendingPathComponent("nested/proposal.json").path
        let result = AuditCommand.main(arguments: ["propose", F.observation("owner"), F.observation("main"), "--output", output])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == """
            TYPE              CONCLUSION  OWNER / EVIDENCE
            App.ProfileModel  main        main thread (record at App/ProfileModel.swift:4)
                2 instances, every use on main thread
                this type could be @MainActor
            App.Renderer      owner       scheduler 'com.app.frames' (record at App/Renderer.swift:4)
                1 instance, every use on scheduler 'com.app.frames'
            App.UploadQueue   owner       scheduler 'com.app.uploads' (record at App/UploadQueue.swift:4)
                3 instances, every use on scheduler 'com.app.uploads'
            schedule-audit propose: 3 types from 2 observation files; proposal written to '\(output)'

            """)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))) as? [String: Any])
        #expect(json["format"] as? String == "schedulable-proposal")
        #expect(json["version"] as? Int == 2)
        // Version 2 writes a location's file as the core library's JSON does.
        let text = try String(contentsOfFile: output, encoding: .utf8)
        #expect(text.contains(#""fileID" : "#) && !text.contains(#""file" : "#))
        let proposal = try Proposal.load(path: output)
        #expect(proposal.types.map(\.conclusion) == [.main, .owner, .owner])
        #expect(proposal.observations == [F.observation("main"), F.observation("owner")])
    }

    @Test func thePlainAuditIsUnchangedByTheDispatch() {
        // A first argument that is not a subcommand name is the audit's, as before.
        let result = AuditCommand.main(arguments: ["propose-nothing"])
        #expect(result.status == AuditCommand.exitUsage)
        #expect(result.standardError.hasPrefix("error: unknown argument 'propose-nothing'; accepted: --module <dir>"))
    }
}

import Foundation
import Testing
@testable import ScheduleAuditCore

@Suite("propose: a generic class's specializations are one type")
struct SpecializationTests {
    typealias F = ProposeFixture

    /// `Cursor<Int>`, two instances on scheduler `a`, and `Cursor<Optional<Bool>>`, one on `b`: each
    /// alone has one owner, pooled each instance is its first user's. Both are created at `App/T.swift:4`
    /// unless `otherLine` moves the second record.
    static func types(otherLine: Int? = nil) -> (int: String, bool: String) {
        let int = F.typeJSON([[2], [2]], name: "Cursor<Int>")
        var bool = F.typeJSON([[3]], name: "Cursor<Optional<Bool>>")
        if let otherLine { bool = bool.replacingOccurrences(of: #""line": 4"#, with: #""line": \#(otherLine)"#) }
        return (int, bool)
    }

    static func entries(_ types: [String], files: Int = 1) throws -> [Proposal.Entry] {
        let directory = try F.temporaryDirectory()
        // One file with every type, or one file per type (two processes).
        let texts = files == 1 ? [types.joined(separator: ", ")] : types
        let paths = try texts.enumerated().map { index, text in
            try F.write(F.observationJSON(contexts: F.contexts, types: text), to: "o\(index).json", in: directory)
        }
        return try Observation.Store.load(paths: paths).types.map(Proposer.propose)
    }

    @Test func eachSpecializationAloneHasItsOwnOwner() throws {
        let (int, bool) = Self.types()
        for (text, owner, name) in [(int, "a", "Cursor<Int>"), (bool, "b", "Cursor<Optional<Bool>>")] {
            let entries = try Self.entries([text])
            try #require(entries.count == 1)
            #expect(entries[0].type == "Cursor")
            #expect(entries[0].conclusion == .owner)
            #expect(entries[0].owner?.label == owner)
            #expect(entries[0].evidence.contains("1 specialization observed (\(name))"))
        }
    }

    @Test(arguments: [1, 2])
    func specializationsArePooledIntoOneConclusion(files: Int) throws {
        let (int, bool) = Self.types()
        let entries = try Self.entries([int, bool], files: files)
        try #require(entries.count == 1)
        let entry = entries[0]
        #expect(entry.type == "Cursor")
        #expect(entry.qualifiedName == "App.Cursor")
        #expect(entry.conclusion == .firstUser)
        #expect(entry.instances.seen == 3)
        #expect(entry.evidence == [
            "3 instances, each first used in one context, 2 contexts in all: Confinement.detached()",
            "2 specializations merged (Cursor<Int>, Cursor<Optional<Bool>>): they share one record",
        ])
    }

    @Test func differentRecordsKeepSpecializationsApartAndNamed() throws {
        let (int, bool) = Self.types(otherLine: 5)
        let entries = try Self.entries([int, bool])
        #expect(entries.map(\.type) == ["Cursor<Int>", "Cursor<Optional<Bool>>"])
        #expect(entries.map(\.conclusion) == [.owner, .owner])
    }

    @Test func applyGetsOneFixItForTheSharedLine() throws {
        let (int, bool) = Self.types()
        let directory = try F.temporaryDirectory()
        let observations = try F.write(F.observationJSON(contexts: F.contexts, types: "\(int), \(bool)"), to: "o.json", in: directory)
        let sources = try TemporarySources(["Sources/App/T.swift": """
            import Schedulable

            final class Cursor<Value>: ConfinedObject {
                let confinement = Confinement.observed()
                @Confined var value: Value? = nil
            }

            """])
        let proposal = directory.appendingPathComponent("proposal.json").path
        let proposed = AuditCommand.main(arguments: ["propose", observations, "--output", proposal])
        #expect(proposed.status == 0, "\(proposed.standardError)")
        let result = AuditCommand.main(arguments: ["apply", proposal, "--sources", sources.path("Sources")])
        #expect(result.status == 0, "\(result.standardError)")
        let out = result.standardOutput
        let file = sources.path("Sources/App/T.swift")
        #expect(out.components(separatedBy: "fix-it:").count == 2, "\(out)")
        #expect(out.contains("\(file):4:23: note: fix-it: replace 'Confinement.observed()' with 'Confinement.detached()'\n"), "\(out)")
        #expect(out.hasSuffix("schedule-audit apply: 1 edit in 1 file (dry run; pass --apply to write them)\n"), "\(out)")
    }
}

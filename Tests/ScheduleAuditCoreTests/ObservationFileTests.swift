import Foundation
import Testing
@testable import ScheduleAuditCore

@Suite("propose: reading observation files")
struct ObservationFileTests {
    typealias F = ProposeFixture

    /// The error `propose` gives for one file with this text.
    static func error(for text: String) throws -> String {
        let directory = try F.temporaryDirectory()
        let path = try F.write(text, to: "bad.json", in: directory)
        let error = #expect(throws: AuditError.self) { try Observation.Store.load(paths: [path]) }
        let description = try #require(error?.description)
        #expect(description.contains(path), "the error names the file")
        return description
    }

    /// The file the library's writer produces (`SchedulableTests`' `theWrittenFileIsTheFixture` writes
    /// and compares it, version 2), and the same run as version 1 wrote it (locations' file spelt
    /// `"file"`): this reader reads both and judges what the run did. A change of the writer that this
    /// reader does not follow fails here.
    @Test(arguments: [2, 1]) func theWritersFixtureIsReadAndJudged(version: Int) throws {
        let fixture = Fixture.directory.deletingLastPathComponent()
            .appendingPathComponent("ObservationFile/observations-v\(version).json").path
        let text = try String(contentsOfFile: fixture, encoding: .utf8)
        #expect(text.contains(#""version" : \#(version)"#))
        #expect(text.contains(#""fileID" : "#) == (version >= 2) && text.contains(#""file" : "#) == (version < 2))
        if version == 2 { #expect(version == Observation.File.supportedVersion, "the writer's fixture is of the version this reader reads") }
        let entries = try F.propose([fixture])
        #expect(Set(entries.keys) == ["FixtureArticle", "FixtureShelf"])
        let article = try #require(entries["FixtureArticle"])
        #expect(article.module == "SchedulableTests")
        #expect(article.conclusion == .handOff)
        #expect(article.owner == Observation.Context(kind: .scheduler, label: "fixture.network"))
        #expect(article.createdAt?.file == "SchedulableTests/ObservationFileFixtureTests.swift")
        let handOff = try #require(article.handOffs.first)
        #expect(handOff.to == Observation.Context(kind: .scheduler, label: "fixture.storage"))
        #expect(handOff.letGo?.file == "SchedulableTests/ObservationFileFixtureTests.swift")
        #expect(handOff.letGo?.function == "closure #1 in static ObservationFileFixtureTests.run()")
        #expect(article.instances.seen == 3)
        let shelf = try #require(entries["FixtureShelf"])
        #expect(shelf.conclusion == .owner)
        #expect(shelf.owner == Observation.Context(kind: .scheduler, label: "fixture.storage"))
    }

    @Test func anotherFormatIsRejected() throws {
        let message = try Self.error(for: #"{"format": "schedulable-proposal", "version": 1}"#)
        #expect(message.hasSuffix("is not a schedulable-observations file: found 'schedulable-proposal'"))
    }

    @Test func aNewerVersionIsRejected() throws {
        let message = try Self.error(for: #"{"format": "schedulable-observations", "version": 3, "types": "anything"}"#)
        #expect(message.hasSuffix("is schedulable-observations version 3; this schedule-audit-tool reads up to version 2: update Schedulable"))
    }

    @Test(arguments: [
        ("{\"format\": \"schedulable-observations\", \"version\": 1, ", "is not a schedulable-observations file: not a JSON object"),
        ("[1, 2]", "is not a schedulable-observations file: not a JSON object"),
        ("{\"version\": 1}", "found no \"format\" key"),
        ("{\"format\": \"schedulable-observations\"}", "no \"version\" key"),
        (F.observationJSON(contexts: "", types: "").replacingOccurrences(of: "\"limits\"", with: "\"limit\""), "missing key 'limits' in the top level"),
        (F.observationJSON(contexts: F.contexts, types: F.typeJSON([[2, 9]], memberContexts: [2])), "type 'T': a step of instance 0 names context 9, which 'contexts' does not list"),
        (F.observationJSON(contexts: F.contexts, types: F.typeJSON([[2]], memberContexts: [9])), "type 'T': member 'm' names context 9"),
        (F.observationJSON(contexts: F.contexts + #", {"id": 1, "kind": "main", "label": "x"}"#, types: ""), "context id 1 is listed twice"),
        (F.observationJSON(contexts: #"{"id": 1, "kind": "fiber", "label": "x"}"#, types: ""), "malformed observation file"),
        (F.observationJSON(contexts: F.contexts, types: F.typeJSON([[2]]).replacingOccurrences(of: "\"observed\"", with: "\"guessed\"")), "unknown record kind 'guessed'"),
        (F.observationJSON(contexts: F.contexts, types: F.typeJSON([[2]]).replacingOccurrences(of: "\"kept\": 1", with: "\"kept\": \"one\"")), "wrong value at types[0].instances.kept"),
    ])
    func aMalformedFileIsAnErrorThatNamesItNeverACrash(text: String, message: String) throws {
        #expect(try Self.error(for: text).contains(message))
    }

    @Test func anObservedRecordWithoutItsLineIsStillJudged() throws {
        let type = F.typeJSON([[2]]).replacingOccurrences(of: #""createdAt": {"file": "App/T.swift", "line": 4}"#, with: #""other": 1"#)
        let entry = try F.entry(type)
        #expect(entry.conclusion == .owner)
        #expect(entry.createdAt == nil)
    }

    @Test func unknownKeysAreIgnored() throws {
        // The owner fixture carries a key no version-1 reader knows.
        let text = try String(contentsOfFile: F.observation("owner"), encoding: .utf8)
        #expect(text.contains("futureKey"))
        #expect(try F.propose([F.observation("owner")])["UploadQueue"]?.conclusion == .owner)
    }

    /// The optional fields a step carries since issue 38 (what the new user ran): still format version 1,
    /// read by this reader as it was.
    @Test func aStepsWorkAndTaskNameAreReadAsVersionOne() throws {
        let step = #""member": "m", "site": {"file": "App/T.swift", "line": 9}}"#
        let withSides = #""member": "m", "site": {"file": "App/T.swift", "line": 9}, "#
            + #""work": {"scheduledAt": {"file": "App/Feed.swift", "line": 30}, "function": "refresh()"}, "#
            + #""taskName": "Upload batch 3"}"#
        let type = F.typeJSON([[2, 3]]).replacingOccurrences(of: step, with: withSides)
        #expect(type.contains("\"taskName\""))
        #expect(try F.entry(type).conclusion == F.entry(F.typeJSON([[2, 3]])).conclusion)
    }

    @Test func oneBadFileAmongGoodOnesFailsTheWholeRunNamingIt() throws {
        let directory = try F.temporaryDirectory()
        try FileManager.default.copyItem(atPath: F.observation("owner"), toPath: directory.appendingPathComponent("a.json").path)
        let bad = try F.write("{}", to: "b.json", in: directory)
        try F.write("not json, and not read", to: "notes.txt", in: directory)
        let error = #expect(throws: AuditError.self) { try Observation.Store.load(paths: [directory.path]) }
        #expect(error?.description == "'\(bad)' is not a schedulable-observations file: found no \"format\" key")
    }

    @Test func aTypeWhoseRecordDiffersBetweenFilesIsAnError() throws {
        let directory = try F.temporaryDirectory()
        let moved = F.typeJSON([[2]]).replacingOccurrences(of: "\"line\": 4", with: "\"line\": 5")
        try F.write(F.observationJSON(contexts: F.contexts, types: F.typeJSON([[2]])), to: "a.json", in: directory)
        try F.write(F.observationJSON(contexts: F.contexts, types: moved), to: "b.json", in: directory)
        let error = #expect(throws: AuditError.self) { try Observation.Store.load(paths: [directory.path]) }
        #expect(error?.description.contains("type 'App.T' has a different record in") == true)
        #expect(error?.description.contains("observed at App/T.swift:5 against observed at App/T.swift:4") == true)
    }

    @Test func missingPathsAndEmptyDirectoriesAreErrors() throws {
        let missing = #expect(throws: AuditError.self) { try Observation.Store.load(paths: ["/nonexistent/observations"]) }
        #expect(missing?.description == "no such file or directory '/nonexistent/observations'")
        let empty = try F.temporaryDirectory()
        let none = #expect(throws: AuditError.self) { try Observation.Store.load(paths: [empty.path]) }
        #expect(none?.description == "no observation files (*.json) in '\(empty.path)'")
    }
}

import Foundation
import Testing

@testable import Schedulable

// The observation file from the writer's side. The audit's reader tests read the same fixture
// (`ScheduleAuditCoreTests`, `theWritersFixtureIsReadAndJudged`), so a change of the format shows on
// both sides: here as a difference from the fixture, there as a conclusion that changed.
//
// The sites in the fixture are lines of this file: edit it, then rewrite the fixture with
// `SCHEDULABLE_UPDATE_FIXTURES=1 swift test --filter ObservationFileFixtureTests` and read the diff.

/// Parsed on the network queue, kept on the storage queue: every instance is let go at one line.
private final class FixtureArticle: ConfinedObject, @unchecked Sendable {
    let confinement = Confinement.observed()
    @Confined var words = 0
    func parse() { words = 3 }
    func markStored() { preconditionIsolated() }
}

/// Used only in the storage queue's work.
private final class FixtureShelf: ConfinedObject, @unchecked Sendable {
    let confinement = Confinement.observed()
    func add() { preconditionIsolated() }
}

@Suite("Observation: the file the writer produces is the versioned fixture")
struct ObservationFileFixtureTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/ObservationFile/observations-v2.json")

    init() {
        ConfinementObservations.writesFileAtExit = false
    }

    /// The scenario: three articles parsed on `fixture.network` and stored on `fixture.storage`, one
    /// shelf used on `fixture.storage` twice.
    static func run() {
        let network = SerialQueueScheduler(label: "fixture.network")
        let storage = SerialQueueScheduler(label: "fixture.storage")
        let shelf = FixtureShelf()
        var kept: [FixtureArticle] = []
        for _ in 0..<3 {
            let article = FixtureArticle()
            network.sync { article.parse() }
            storage.sync {
                article.markStored()
                shelf.add()
            }
            kept.append(article)
        }
        _ = kept
    }

    /// The file's entries of this file's types alone, as a process that observed nothing else would
    /// write them: contexts and instance serials renumbered in order of appearance, the process fixed,
    /// and the optional fields that depend on the machine left out (a site's absolute `path`, the
    /// test runner's `taskName`).
    static func normalized(_ json: String) throws -> String {
        var file = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let contexts = try #require(file["contexts"] as? [[String: Any]])
        let labels = Dictionary(uniqueKeysWithValues: contexts.map { ($0["id"] as? Int ?? 0, $0) })
        let types = try #require(file["types"] as? [[String: Any]]).filter { ["FixtureArticle", "FixtureShelf"].contains($0["type"] as? String ?? "") }
        var order: [Int] = []
        func renumber(_ id: Any?) -> Int {
            let id = id as? Int ?? 0
            if let index = order.firstIndex(of: id) { return index + 1 }
            order.append(id)
            return order.count
        }
        let renumbered = types.map { type -> [String: Any] in
            var type = type
            var serials: [Int] = []
            type["instanceSteps"] = (type["instanceSteps"] as? [[String: Any]] ?? []).map { instance -> [String: Any] in
                var instance = instance
                serials.append(instance["serial"] as? Int ?? 0)
                instance["serial"] = serials.count
                instance["steps"] = (instance["steps"] as? [[String: Any]] ?? []).map { step -> [String: Any] in
                    var step = step
                    step["context"] = renumber(step["context"])
                    // Where the checkout is and what the test runner names its task are not the format's.
                    step["taskName"] = nil
                    for key in ["site", "letGo"] {
                        if var site = step[key] as? [String: Any] {
                            site["path"] = nil
                            step[key] = site
                        }
                    }
                    return step
                }
                return instance
            }
            type["members"] = (type["members"] as? [[String: Any]] ?? []).map { member -> [String: Any] in
                var member = member
                member["contexts"] = (member["contexts"] as? [[String: Any]] ?? []).map { use -> [String: Any] in
                    var use = use
                    use["context"] = renumber(use["context"])
                    if var site = use["site"] as? [String: Any] {
                        site["path"] = nil
                        use["site"] = site
                    }
                    return use
                }
                return member
            }
            return type
        }
        file["types"] = renumbered
        file["contexts"] = order.enumerated().map { index, id -> [String: Any] in
            var context = labels[id] ?? [:]
            context["id"] = index + 1
            return context
        }
        file["process"] = ["pid": 0, "executable": "fixture"] as [String: Any]
        let data = try JSONSerialization.data(withJSONObject: file, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    // The sites are this file's lines as a debug build records them; an optimised build may inline the
    // frames they come from.
    #if DEBUG
    @Test(.enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func theWrittenFileIsTheFixture() throws {
        Self.run()
        let written = try Self.normalized(ConfinementObservations.json)
        if ProcessInfo.processInfo.environment["SCHEDULABLE_UPDATE_FIXTURES"] == "1" {
            try written.write(to: Self.fixture, atomically: true, encoding: .utf8)
        }
        let fixture = try String(contentsOf: Self.fixture, encoding: .utf8)
        #expect(written == fixture, "the writer's file differs from \(Self.fixture.path); if the change is meant, rewrite it with SCHEDULABLE_UPDATE_FIXTURES=1 and bump the format's version if a reader of the fixture's version cannot read it")
        // The fixture's version is the writer's.
        #expect(fixture.contains("\"version\" : \(ConfinementObservations.formatVersion)\n"))
    }
    #endif
}

import Foundation
import Testing
@testable import ScheduleAuditCore

/// The fixture of `propose` and `apply` under `Tests/Fixtures/ProposeFixture`: hand-written observation
/// files (one per conclusion in `observations/`, two processes of one run in `observations/merge/`) and
/// the small source tree (`Sources/App`) their sites and records point into.
enum ProposeFixture {
    static let directory = Fixture.directory.deletingLastPathComponent().appendingPathComponent("ProposeFixture")
    static let observations = directory.appendingPathComponent("observations").path
    static let merge = directory.appendingPathComponent("observations/merge").path

    /// The path of one observation file (`owner` → `observations/owner.json`).
    static func observation(_ name: String) -> String {
        directory.appendingPathComponent("observations/\(name).json").path
    }

    /// The proposal entries for some observation paths.
    static func propose(_ paths: [String]) throws -> [String: Proposal.Entry] {
        let set = try Observation.Store.load(paths: paths)
        return Dictionary(uniqueKeysWithValues: set.types.map(Proposer.propose).map { ($0.type, $0) })
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("schedule-audit-propose-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A copy of the fixture's `Sources` in a temporary directory, to edit.
    static func sourcesCopy() throws -> URL {
        let root = try temporaryDirectory()
        let copy = root.appendingPathComponent("Sources")
        try FileManager.default.copyItem(at: directory.appendingPathComponent("Sources"), to: copy)
        return copy
    }

    /// Writes `text` to `name` in `directory` and returns the path.
    @discardableResult
    static func write(_ text: String, to name: String, in directory: URL) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// An observation file with the given `contexts` and `types` arrays (JSON text) and limits.
    static func observationJSON(
        contexts: String, types: String, instancesPerType: Int = 64, stepsPerInstance: Int = 8
    ) -> String {
        """
        {"format": "schedulable-observations", "version": 1, "process": {"pid": 1, "executable": "T"},
         "limits": {"instancesPerType": \(instancesPerType), "stepsPerInstance": \(stepsPerInstance), "contextsPerMember": 16},
         "contexts": [\(contexts)], "types": [\(types)]}
        """
    }

    /// One observed type `T` at `App/T.swift:4` whose kept instances have the given context ids as
    /// steps (in the writer's keys: `kept`, `droppedSteps`). The step `handOffStep` of the first instance
    /// is an explicit `handOff(to:)`.
    static func typeJSON(
        _ instances: [[Int]], name: String = "T", droppedSteps: Int = 0, stepsDropped: Int = 0,
        memberContexts: [Int]? = nil, handOffStep: Int? = nil
    ) -> String {
        let site = #"{"file": "App/T.swift", "line": 9}"#
        let steps = instances.enumerated().map { serial, ids in
            let list = ids.enumerated().map { index, id in
                let member = serial == 0 && index == handOffStep ? "handOff(to:)" : "m"
                return #"{"context": \#(id), "member": "\#(member)", "site": \#(site)}"#
            }.joined(separator: ", ")
            return #"{"serial": \#(serial), "steps": [\#(list)], "stepsDropped": \#(stepsDropped)}"#
        }.joined(separator: ", ")
        let members = (memberContexts ?? Array(Set(instances.flatMap { $0 })).sorted())
            .map { #"{"context": \#($0), "site": \#(site)}"# }.joined(separator: ", ")
        return """
            {"type": "\(name)", "module": "App", "record": {"kind": "observed", "createdAt": {"file": "App/T.swift", "line": 4}},
             "instances": {"kept": \(instances.count), "droppedSteps": \(droppedSteps)},
             "members": [{"member": "m", "contexts": [\(members)], "contextsDropped": 0}],
             "instanceSteps": [\(steps)]}
            """
    }

    /// Contexts 1 main, 2 `a`, 3 `b`, 4 `c` (schedulers), 5 pool, 6 and 7 tasks, 8 a plain thread.
    static let contexts = """
        {"id": 1, "kind": "main", "label": "main thread"}, {"id": 2, "kind": "scheduler", "label": "a"},
        {"id": 3, "kind": "scheduler", "label": "b"}, {"id": 4, "kind": "scheduler", "label": "c"},
        {"id": 5, "kind": "pool", "label": "pool"}, {"id": 6, "kind": "task", "label": "task 1"},
        {"id": 7, "kind": "task", "label": "task 2"}, {"id": 8, "kind": "thread", "label": "thread 9"}
        """

    /// The conclusion for one hand-made type.
    static func entry(_ type: String, instancesPerType: Int = 64) throws -> Proposal.Entry {
        let directory = try temporaryDirectory()
        let path = try write(observationJSON(contexts: contexts, types: type, instancesPerType: instancesPerType), to: "o.json", in: directory)
        return try #require(try propose([path]).values.first)
    }
}

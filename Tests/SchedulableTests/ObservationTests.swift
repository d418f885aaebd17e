import Dispatch
import Foundation
import Testing

@testable import Schedulable

// Each test observes a type of its own: the store is the process's, and types are its keys.

/// A service whose owner is not declared: `Confinement.observed()`.
private final class ObservedOnOne: ConfinedObject, @unchecked Sendable {
    static let observedLine = #line; let confinement = Confinement.observed()
    func touch() { preconditionIsolated() }
}

/// The same, a type for each test: `Tag` tells them apart (`Observed<HandOff>`).
private final class Observed<Tag>: ConfinedObject, @unchecked Sendable {
    let confinement = Confinement.observed()
    func touch() { preconditionIsolated() }
}

private enum HandOff {}
private enum ExplicitHandOff {}
private enum Shared {}
private enum OnPool {}
private enum Many {}
private enum BackAndForth {}
private enum ExitTest {}

private final class ObservedSilent: ConfinedObject, @unchecked Sendable {
    let confinement = Confinement.observed()
    @Confined var value = 0
    func touch() { preconditionIsolated() }
}

private final class ObservedProperty: ConfinedObject, @unchecked Sendable {
    let confinement = Confinement.observed()
    @Confined var pending: [Int] = []
}

private final class DeclaredButObserved: ConfinedObject, @unchecked Sendable {
    let confinement: Confinement
    init(owner: some SerialScheduler) { confinement = Confinement(owner: owner) }
    // The debug tier: a level decides what its violation does (the precondition tier always stops).
    func touch() { assertIsolated() }
}

/// Two types of one name, as two modules (or two features nested in one) have them: `Twin` each.
private enum FirstFeature {
    final class Twin: ConfinedObject, @unchecked Sendable {
        let confinement = Confinement.observed()
        func touch() { preconditionIsolated() }
    }
}

private enum SecondFeature {
    final class Twin: ConfinedObject, @unchecked Sendable {
        let confinement = Confinement.observed()
        func touch() { preconditionIsolated() }
    }
}

/// One type of the observation file, with its contexts resolved: each instance's steps as
/// `kind:label` strings.
private struct ObservedType {
    var json: [String: Any]
    var contexts: [Int: String]

    init?(_ name: String) {
        let data = Data(ConfinementObservations.json.utf8)
        guard let file = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let types = file["types"] as? [[String: Any]],
            let type = types.first(where: { $0["type"] as? String == name }),
            let contexts = file["contexts"] as? [[String: Any]]
        else { return nil }
        json = type
        self.contexts = Dictionary(uniqueKeysWithValues: contexts.map {
            ($0["id"] as! Int, "\($0["kind"] as! String):\($0["label"] as! String)")
        })
    }

    var instances: [[String: Any]] { json["instanceSteps"] as? [[String: Any]] ?? [] }
    var record: [String: Any] { json["record"] as? [String: Any] ?? [:] }
    var counts: [String: Any] { json["instances"] as? [String: Any] ?? [:] }

    func steps(_ instance: [String: Any]) -> [String] {
        (instance["steps"] as? [[String: Any]] ?? []).map { contexts[$0["context"] as! Int]! }
    }
}

@Suite("Observation: which contexts use an object whose owner is not declared")
struct ObservationTests {
    let first = SerialQueueScheduler(label: "observe.first")
    let second = SerialQueueScheduler(label: "observe.second")

    init() {
        // This process observes on purpose; its file would go into the package's directory.
        ConfinementObservations.writesFileAtExit = false
    }

    @Test func eachInstanceUsedOnOneSchedulerIsOneStepNamingIt() throws {
        for _ in 0..<3 {
            let service = ObservedOnOne()
            for _ in 0..<5 { first.sync { service.touch() } }
        }
        let type = try #require(ObservedType("ObservedOnOne"))
        #expect(type.record["kind"] as? String == "observed")
        let createdAt = try #require(type.record["createdAt"] as? [String: Any])
        #expect(createdAt["fileID"] as? String == "SchedulableTests/ObservationTests.swift")
        #expect(createdAt["line"] as? Int == ObservedOnOne.observedLine)
        #expect(type.json["module"] as? String == "SchedulableTests")
        #expect(type.instances.count == 3)
        #expect(type.instances.allSatisfy { type.steps($0) == ["scheduler:observe.first"] })
        let step = try #require((type.instances.first?["steps"] as? [[String: Any]])?.first)
        #expect(step["member"] as? String == "touch()")
        let site = try #require(step["site"] as? [String: Any])
        #expect(site["fileID"] as? String == "SchedulableTests/ObservationTests.swift")
    }

    /// The same order in every run: each use waits for the one before (60 runs, within the kept bound).
    @Test func aHandOffIsTwoStepsInOrderEveryRun() throws {
        for _ in 0..<60 {
            let service = Observed<HandOff>()
            first.sync { service.touch() }
            second.sync { service.touch() }
            second.sync { service.touch() }
        }
        let type = try #require(ObservedType("Observed<HandOff>"))
        #expect(type.instances.count == 60)
        #expect(type.instances.allSatisfy { type.steps($0) == ["scheduler:observe.first", "scheduler:observe.second"] })
    }

    /// Two types of one name are two entries, never one with both's instances (the store once keyed
    /// types by name: this file's `Observed<HandOff>` and the resolver tests' counted each other's).
    @Test func twoTypesOfOneNameAreTwoEntries() throws {
        for _ in 0..<2 {
            let twin = FirstFeature.Twin()
            first.sync { twin.touch() }
        }
        for _ in 0..<3 {
            let twin = SecondFeature.Twin()
            second.sync { twin.touch() }
        }
        let file = try #require(try JSONSerialization.jsonObject(with: Data(ConfinementObservations.json.utf8)) as? [String: Any])
        let twins = try #require(file["types"] as? [[String: Any]]).filter { $0["type"] as? String == "Twin" }
        // In the order of their `observed()` lines (FirstFeature's first), in every build and run.
        #expect(twins.map { ($0["instanceSteps"] as? [Any])?.count } == [2, 3])
    }

    /// An explicit hand-off is the step, at its line: the new owner's uses then take the fast path.
    @Test func anExplicitHandOffIsAStepAtItsLine() throws {
        var handOffLine = 0
        for _ in 0..<60 {
            let service = Observed<ExplicitHandOff>()
            first.sync { service.touch() }
            first.sync { handOffLine = #line; service.handOff(to: second) }
            for _ in 0..<3 { second.sync { service.touch() } }
        }
        let type = try #require(ObservedType("Observed<ExplicitHandOff>"))
        #expect(type.instances.count == 60)
        #expect(type.instances.allSatisfy { type.steps($0) == ["scheduler:observe.first", "scheduler:observe.second"] })
        let step = try #require((type.instances.first?["steps"] as? [[String: Any]])?.last)
        #expect(step["member"] as? String == "handOff(to:)")
        let site = try #require(step["site"] as? [String: Any])
        #expect(site["fileID"] as? String == "SchedulableTests/ObservationTests.swift")
        #expect(site["line"] as? Int == handOffLine)
    }

    @Test func aReturnToAnEarlierContextIsAStepOfItsOwn() throws {
        for _ in 0..<60 {
            let service = Observed<Shared>()
            first.sync { service.touch() }
            second.sync { service.touch() }
            first.sync { service.touch() }
        }
        let type = try #require(ObservedType("Observed<Shared>"))
        let expected = ["scheduler:observe.first", "scheduler:observe.second", "scheduler:observe.first"]
        #expect(type.instances.allSatisfy { type.steps($0) == expected })
    }

    @Test func aPoolThreadsUseIsAStepAndBindsNothing() throws {
        let service = Observed<OnPool>()
        // Work of a global queue, not this test's task (a `sync` would run the block in the task).
        let group = DispatchGroup()
        for _ in 0..<3 {
            DispatchQueue.global().async(group: group) { service.touch() }
            group.wait()
        }
        first.sync { service.touch() }
        let type = try #require(ObservedType("Observed<OnPool>"))
        let steps = try #require(type.instances.first.map(type.steps))
        #expect(steps.count == 2)
        #expect(steps.first?.hasPrefix("pool:") == true)
        #expect(steps.last == "scheduler:observe.first")
    }

    @Test func memoryIsBoundedPerTypeAndWhatIsDroppedIsCounted() throws {
        let extra = 6
        for _ in 0..<(Observation.Store.instancesPerType + extra) {
            let service = Observed<Many>()
            first.sync { service.touch() }
            second.sync { service.touch() }
        }
        let type = try #require(ObservedType("Observed<Many>"))
        #expect(type.instances.count == Observation.Store.instancesPerType)
        #expect(type.counts["kept"] as? Int == Observation.Store.instancesPerType)
        #expect(type.counts["droppedSteps"] as? Int == extra * 2)
        #expect(type.instances.allSatisfy { type.steps($0).count == 2 })
        // One instance moved back and forth: its first steps kept, the rest counted.

        let service = Observed<BackAndForth>()
        for _ in 0..<10 {
            first.sync { service.touch() }
            second.sync { service.touch() }
        }
        let backAndForth = try #require(ObservedType("Observed<BackAndForth>"))
        let instance = try #require(backAndForth.instances.first)
        #expect(backAndForth.steps(instance).count == Observation.Store.stepsPerInstance)
        #expect(instance["stepsDropped"] as? Int == 20 - Observation.Store.stepsPerInstance)
    }

    @Test func anObservedRecordNeverReportsAndItsQuestionsStillAnswer() {
        let recorder = ViolationRecorder()
        withConfinementViolationHandler(recorder) {
            let service = ObservedSilent()
            first.sync { service.touch() }
            second.sync {
                service.touch()
                service.value += 1
            }
            DispatchQueue.global().sync { service.touch() }
            // Bound to the second scheduler now: a question elsewhere says no and moves nothing.
            #expect(!service.isIsolated)
            #expect(second.sync { service.isIsolated })
        }
        #expect(recorder.count == 0)
    }

    @Test(.enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func aPropertyIsObservedByItsName() throws {
        let service = ObservedProperty()
        first.sync { service.pending.append(1) }
        second.sync { _ = service.pending.count }
        let type = try #require(ObservedType("ObservedProperty"))
        let members = try #require(type.json["members"] as? [[String: Any]])
        #expect(members.map { $0["member"] as? String } == ["pending"])
        #expect((members.first?["contexts"] as? [[String: Any]])?.count == 2)
    }

    @Test(.enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func theObserveLevelRecordsWhatWouldHaveBeenReportedAndPrintsNothing() throws {
        let printed = LockedLines()
        let policy = PolicyViolationHandler(ConfinementPolicy(default: .observe), output: { printed.append($0) })
        withConfinementViolationHandler(policy) {
            let service = DeclaredButObserved(owner: first)
            first.sync { service.touch() }
            for _ in 0..<3 { second.sync { service.touch() } }
        }
        #expect(printed.lines.isEmpty)
        let type = try #require(ObservedType("DeclaredButObserved"))
        #expect(type.record["kind"] as? String == "declared")
        #expect((type.record["owner"] as? Int).flatMap { type.contexts[$0] } == "scheduler:observe.first")
        #expect(type.instances.count == 1)
        #expect(type.steps(type.instances[0]) == ["scheduler:observe.second"])
    }

    @Test func theObserveLevelIsPartOfThePolicySyntax() throws {
        let policy = try ConfinementPolicy(parsing: "observe,UploadQueue=trap")
        #expect(policy.defaultLevel == .observe)
        #expect(policy.description == "observe,UploadQueue=trap")
    }

    /// A program that ends normally writes its file at exit, and says so on standard error (the probe
    /// program: its main thread runs top-level code). On the main thread, a scheduler and a raw queue.
    @Test func aProgramWritesItsFileAtExitWhereTheEnvironmentSays() throws {
        let directory = NSTemporaryDirectory() + "schedulable-observe-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let outcome = try runMainProbe(["observe"], environment: ["\(ConfinementObservations.directoryEnvironmentVariable)=\(directory)"])
        #expect(outcome.exitStatus == 0, "stderr: \(outcome.standardError)")
        #expect(outcome.standardError.contains("Schedulable: observed 3 types; wrote \(directory)/schedulable-main-probe-"))
        let files = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(files.count == 1)
        let data = try #require(FileManager.default.contents(atPath: directory + "/" + files[0]))
        let file = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(file["format"] as? String == "schedulable-observations")
        #expect(file["version"] as? Int == ConfinementObservations.formatVersion)
        #expect(file["resolution"] as? String == "innermost-serial")
        let types = try #require(file["types"] as? [[String: Any]])
        #expect(types.map { $0["type"] as? String } == ["Preferences", "RawQueueCache", "UploadLog"])
        let contexts = try #require(file["contexts"] as? [[String: Any]])
        let names = Dictionary(uniqueKeysWithValues: contexts.map { ($0["id"] as! Int, "\($0["kind"]!):\($0["label"]!)") })
        #expect(Set(names.values) == ["main:main thread", "scheduler:probe.observe", "queue:probe.observe.raw"])
        // The raw queue's work, though the main thread runs it (`sync`): one step, on the queue.
        let raw = try #require(types.first { $0["type"] as? String == "RawQueueCache" })
        let steps = try #require((raw["instanceSteps"] as? [[String: Any]])?.first?["steps"] as? [[String: Any]])
        #expect(steps.map { names[$0["context"] as! Int] } == ["queue:probe.observe.raw"])
    }

    /// An exit test's child is a process of its own: it writes its file at exit, beside the parent's.
    @Test(.exitTest) func anExitTestWritesItsFileAtExit() async throws {
        let directory = NSTemporaryDirectory() + "schedulable-observe-exit-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        await #expect(processExitsWith: .success) { [directory = directory as String] in
            setenv(ConfinementObservations.directoryEnvironmentVariable, directory, 1)
            let service = Observed<ExitTest>()
            SerialQueueScheduler(label: "observe.exit").sync { service.touch() }
            SerialQueueScheduler(label: "observe.exit.other").sync { service.touch() }
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json") }
        #expect(files.count == 1)
        let data = try #require(FileManager.default.contents(atPath: directory + "/" + files[0]))
        let file = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let type = try #require((file["types"] as? [[String: Any]])?.first { $0["type"] as? String == "Observed<ExitTest>" })
        let steps = try #require((type["instanceSteps"] as? [[String: Any]])?.first?["steps"] as? [[String: Any]])
        #expect(steps.count == 2)
    }

    @Test func writingToAPlaceThatCannotBeWrittenSaysWhy() {
        guard case .failure(let error) = ConfinementObservations.write(toDirectory: "/proc/schedulable-cannot") else {
            Issue.record("writing under /proc succeeded")
            return
        }
        #expect(error.description.hasPrefix("cannot write the observation file /proc"))
    }
}

/// Lines a handler printed, collected across threads.
private final class LockedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []
    func append(_ line: String) { lock.withLock { storage.append(line) } }
    var lines: [String] { lock.withLock { storage } }
}

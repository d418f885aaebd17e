import Foundation
import Testing
@testable import ScheduleAuditCore

@Suite("propose: one conclusion per type, from observation files")
struct ProposerTests {
    typealias F = ProposeFixture

    @Test func ownerFixtureNamesTheSchedulerAndTheRecordLine() throws {
        let entry = try #require(try F.propose([F.observation("owner")])["UploadQueue"])
        #expect(entry.conclusion == .owner)
        #expect(entry.owner == Observation.Context(kind: .scheduler, label: "com.app.uploads"))
        #expect(entry.createdAt == .init(file: "App/UploadQueue.swift", line: 4))
        #expect(entry.instances == .init(seen: 3, dropped: 0, droppedSteps: 0, cut: 0))
        #expect(!entry.sampled)
        #expect(entry.evidence == ["3 instances, every use on scheduler 'com.app.uploads'"])
    }

    /// Construction is not a use: an instance whose initializer touched it on the caller's thread and
    /// that was then used only in one queue's work is that queue's; a use after construction on the
    /// caller's thread still counts, and so does an explicit hand-off.
    @Test func constructionOnTheCallersThreadIsNotAUse() {
        let main = Observation.Context(kind: .main, label: "main thread")
        let queue = Observation.Context(kind: .queue, label: "app.storage")
        func step(_ context: Observation.Context, _ member: String, _ function: String) -> Observation.Store.Use {
            Observation.Store.Use(context: context, member: member, site: Observation.Site(file: "App/Store.swift", line: 3, function: function))
        }
        func entry(_ instances: [[Observation.Store.Use]]) -> Proposal.Entry {
            var type = Observation.Store.TypeEntry(type: "Store", module: "App", recordKind: "observed", createdAt: .init(file: "App/Store.swift", line: 2))
            type.instances = instances.enumerated().map { .init(file: "run.json", serial: $0 + 1, steps: $1, stepsDropped: 0) }
            type.seen = instances.count
            type.memberUses = instances.flatMap { $0 }.uniqued { "\($0.context.label)\u{0}\($0.member)" }
            return Proposer.propose(type)
        }
        let built = [step(main, "rows", "App.Store.init(path:)"), step(queue, "rows", "add(_:)")]
        #expect(entry([built, built]).conclusion == .owner)
        #expect(entry([built, built]).owner == queue)
        // Used on the main thread outside its initializer, then on the queue: a move, as before.
        let used = [step(main, "rows", "prepare()"), step(queue, "rows", "add(_:)")]
        #expect(entry([used, used]).conclusion == .handOff)
        // Built, then handed off explicitly: the hand-off stands.
        let handed = [step(main, "rows", "init(path:)"), step(queue, "handOff(to:)", "start()")]
        #expect(entry([handed, handed]).conclusion == .handOff)
    }

    @Test func mainFixtureSuggestsMainActor() throws {
        let entry = try #require(try F.propose([F.observation("main")])["ProfileModel"])
        #expect(entry.conclusion == .main)
        #expect(entry.owner?.kind == .main)
        #expect(entry.evidence.contains("this type could be @MainActor"))
    }

    @Test func firstUserFixtureHasOneContextPerInstance() throws {
        let entry = try #require(try F.propose([F.observation("first-user")])["Connection"])
        #expect(entry.conclusion == .firstUser)
        #expect(entry.owner == nil)
        #expect(entry.uses.map(\.context.kind) == [.scheduler, .thread, .task])
    }

    @Test func handOffFixtureNamesTheMoveAndItsSite() throws {
        let entry = try #require(try F.propose([F.observation("hand-off")])["Download"])
        #expect(entry.conclusion == .handOff)
        #expect(entry.owner == Observation.Context(kind: .scheduler, label: "com.app.network"))
        #expect(entry.handOffs.map(\.to.label) == ["com.app.disk"])
        #expect(entry.handOffs.first?.site == Observation.Site(file: "App/Download.swift", line: 9, function: "save()"))
    }

    @Test func notConfinableFixtureNamesBothSitesOfTheReturn() throws {
        let entry = try #require(try F.propose([F.observation("not-confinable")])["Cache"])
        #expect(entry.conclusion == .notConfinable)
        #expect(entry.uses.map(\.site?.file) == ["App/Cache.swift", "App/Views.swift"])
        #expect(entry.evidence.first?.hasPrefix("returns to main thread at App/Views.swift:5 render(_:_:) after scheduler 'com.app.uploads' at App/Cache.swift:5") == true)
        #expect(entry.evidence.contains("a bug, or state that a lock guards"))
    }

    @Test func insufficientFixtureSaysTheDroppedInstancesContradictTheSample() throws {
        let entry = try #require(try F.propose([F.observation("insufficient")])["Prefetcher"])
        #expect(entry.conclusion == .insufficient)
        #expect(entry.sampled)
        // This fixture counts instances in the format note's keys (`seen`, `dropped`), not the writer's.
        #expect(entry.instances == .init(seen: 3, dropped: 2, droppedSteps: 0, cut: 0))
        #expect(entry.evidence.contains { $0.contains("'pages' was also used from main thread at App/Views.swift:4") })
        #expect(entry.evidence.contains("a sample: steps kept for 1 of 3 instances (2 beyond the instancesPerType limit)"))
    }

    @Test func contradictedFixtureListsWhatTheChecksWouldHaveReported() throws {
        let entry = try #require(try F.propose([F.observation("contradicted")])["Ledger"])
        #expect(entry.conclusion == .contradicted)
        #expect(entry.record == "declared")
        #expect(entry.owner == Observation.Context(kind: .scheduler, label: "com.app.uploads"))
        #expect(entry.boundAt == .init(file: "App/Ledger.swift", line: 4))
        #expect(entry.uses == [.init(context: .init(kind: .main, label: "main thread"), member: "total", site: .init(file: "App/Views.swift", line: 4, function: "render(_:_:)"))])
    }

    @Test func aDirectoryIsEveryJSONFileInItAndEachConclusionAppears() throws {
        let entries = try F.propose([F.observations])
        #expect(Set(entries.values.map(\.conclusion)) == Set(Proposal.Conclusion.allCases))
        #expect(entries.count == 8)
    }

    @Test func twoProcessesMergeByLabelNotByID() throws {
        let set = try Observation.Store.load(paths: [F.merge])
        #expect(set.files.count == 2)
        let entries = Dictionary(uniqueKeysWithValues: set.types.map(Proposer.propose).map { ($0.type, $0) })
        // id 3 in one file and id 1 in the other are the same scheduler: one owner, three instances.
        let queue = try #require(entries["UploadQueue"])
        #expect(queue.conclusion == .owner)
        #expect(queue.instances.seen == 3)
        // One process saw a Download stay on the network queue, the other one move to the disk queue
        // without a handOff(to:): together, the owner is where both started and the move is stray.
        let download = try #require(entries["Download"])
        #expect(download.conclusion == .owner)
        #expect(download.owner?.label == "com.app.network")
        #expect(download.strayMoves.map(\.to.label) == ["com.app.disk"])
        #expect(download.evidence.contains("then used from scheduler 'com.app.disk' at App/Download.swift:9 save() without a handOff(to:), by 1 of 2 instances: a bug, or a hand-off to write there (then make the record transferable)"))
        // The second file alone, where every instance moves, says hand-off.
        #expect(try F.propose([F.merge + "/AppTests-200.json"])["Download"]?.conclusion == .handOff)
    }

    @Test func poolUseIsNotConfinable() throws {
        let entry = try F.entry(F.typeJSON([[2, 5]]))
        #expect(entry.conclusion == .notConfinable)
        #expect(entry.uses.map(\.context.kind) == [.scheduler, .pool])
        #expect(entry.evidence.first?.contains("a concurrent pool that owns nothing") == true)
    }

    @Test func poolUseOnlyInTheMembersOfADroppedInstanceIsNotConfinable() throws {
        let entry = try F.entry(F.typeJSON([[2]], droppedSteps: 1, memberContexts: [2, 5]), instancesPerType: 1)
        #expect(entry.conclusion == .notConfinable)
        #expect(entry.sampled)
    }

    @Test func twoTasksInOneInstanceAreNotConfinable() throws {
        let entry = try F.entry(F.typeJSON([[6, 7]]))
        #expect(entry.conclusion == .notConfinable)
        #expect(entry.evidence.first?.contains("task 'task 1'") == true)
    }

    @Test func aMoveToATaskCannotBeAHandOff() throws {
        let entry = try F.entry(F.typeJSON([[2, 6]]))
        #expect(entry.conclusion == .notConfinable)
        #expect(entry.evidence.first?.contains("which no handOff(to:) can name") == true)
    }

    @Test func handOffChainsAreMergedFromInstances() throws {
        let entry = try F.entry(F.typeJSON([[2, 3], [2, 3, 4]]))
        #expect(entry.conclusion == .handOff)
        #expect(entry.owner?.label == "a")
        #expect(entry.handOffs.map { "\($0.from.label)>\($0.to.label)" } == ["a>b", "b>c"])
        #expect(entry.strayMoves.isEmpty)
    }

    @Test func movesOnlySomeInstancesMakeWithoutAHandOffAreStray() throws {
        // The planted bug of Examples/PhotoSync: the owner's queue read once from another scheduler.
        let entry = try F.entry(F.typeJSON([[2, 3], [2], [2]]))
        #expect(entry.conclusion == .owner)
        #expect(entry.owner?.label == "a")
        #expect(entry.handOffs.isEmpty)
        #expect(entry.strayMoves.map { "\($0.from.label)>\($0.to.label)" } == ["a>b"])
        #expect(entry.evidence.first == "3 instances, each first used on scheduler 'a'")
    }

    @Test func anExplicitHandOffIsAHandOffEvenIfSomeInstancesStay() throws {
        let entry = try F.entry(F.typeJSON([[2, 3], [2]], handOffStep: 1))
        #expect(entry.conclusion == .handOff)
        #expect(entry.handOffs.map(\.member) == ["handOff(to:)"])
        #expect(entry.strayMoves.isEmpty)
        // An implicit move beside it, by some instances only, is stray.
        let mixed = try F.entry(F.typeJSON([[2, 3], [2, 4], [2]], handOffStep: 1))
        #expect(mixed.conclusion == .handOff)
        #expect(mixed.handOffs.map(\.to.label) == ["b"])
        #expect(mixed.strayMoves.map(\.to.label) == ["c"])
    }

    @Test func handOffsFromDifferentFirstContextsHaveNoOwner() throws {
        let entry = try F.entry(F.typeJSON([[2, 4], [3, 4]]))
        #expect(entry.conclusion == .handOff)
        #expect(entry.owner == nil)
    }

    @Test func oneTaskForEveryInstanceIsFirstUser() throws {
        let entry = try F.entry(F.typeJSON([[6]]))
        #expect(entry.conclusion == .firstUser)
        #expect(entry.owner == nil)
    }

    @Test func cutStepsAndDroppedInstancesAreSaidAndKeepTheConclusion() throws {
        let entry = try F.entry(F.typeJSON([[2], [2]], droppedSteps: 3, stepsDropped: 2), instancesPerType: 2)
        #expect(entry.conclusion == .owner)
        #expect(entry.sampled)
        #expect(entry.instances == .init(seen: 2, dropped: 0, droppedSteps: 3, cut: 2))
        #expect(entry.evidence.contains("a sample: 3 steps of instances beyond the instancesPerType limit counted, not kept"))
        #expect(entry.evidence.contains("2 instances have more steps than stepsPerInstance: a later return is not ruled out"))
    }

    @Test func nothingDroppedIsNoSample() throws {
        let entry = try F.entry(F.typeJSON([[2], [2]]))
        #expect(!entry.sampled)
        #expect(entry.evidence == ["2 instances, every use on scheduler 'a'"])
    }

    @Test func aReturnByAnExplicitHandOffIsAHandOffNotSharing() throws {
        let entry = try F.entry(F.typeJSON([[2, 3, 2]], handOffStep: 2))
        #expect(entry.conclusion == .handOff)
        #expect(entry.owner?.label == "a")
        #expect(entry.handOffs.map { "\($0.from.label)>\($0.to.label) \($0.member)" } == ["a>b m", "b>a handOff(to:)"])
        // The same moves without the explicit call: the return is interleaved use.
        #expect(try F.entry(F.typeJSON([[2, 3, 2]])).conclusion == .notConfinable)
    }

    @Test func noInstanceWithAStepIsInsufficient() throws {
        let entry = try F.entry(F.typeJSON([], droppedSteps: 4, memberContexts: [2]))
        #expect(entry.conclusion == .insufficient)
        #expect(entry.evidence.first == "no kept instance has a step: nothing to judge")
        #expect(entry.sampled)
    }

    @Test func aDeclaredTypeWithoutMissesIsInsufficient() throws {
        let type = """
            {"type": "D", "record": {"kind": "declared", "owner": 2, "boundAt": {"file": "D.swift", "line": 3}},
             "instances": {"seen": 0, "dropped": 0}, "members": [], "instanceSteps": []}
            """
        let entry = try F.entry(type)
        #expect(entry.conclusion == .insufficient)
        #expect(entry.module == nil)
        #expect(entry.evidence == ["declared owner scheduler 'a' (bound at D.swift:3); no miss was recorded"])
    }
}

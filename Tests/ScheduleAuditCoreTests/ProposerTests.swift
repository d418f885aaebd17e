import Foundation
import Testing
@testable import ScheduleAuditCore

@Suite("propose: one verdict per type, from observation files")
struct ProposerTests {
    typealias F = ProposeFixture

    @Test func ownerFixtureNamesTheSchedulerAndTheRecordLine() throws {
        let entry = try #require(try F.propose([F.observation("owner")])["UploadQueue"])
        #expect(entry.verdict == .owner)
        #expect(entry.owner == ContextKey(kind: .scheduler, label: "com.app.uploads"))
        #expect(entry.createdAt == .init(file: "App/UploadQueue.swift", line: 4))
        #expect(entry.instances == .init(seen: 3, dropped: 0, cut: 0))
        #expect(!entry.sampled)
        #expect(entry.evidence == ["3 instances, every use on scheduler 'com.app.uploads'"])
    }

    @Test func mainFixtureSuggestsMainActor() throws {
        let entry = try #require(try F.propose([F.observation("main")])["ProfileModel"])
        #expect(entry.verdict == .main)
        #expect(entry.owner?.kind == .main)
        #expect(entry.evidence.contains("this type could be @MainActor"))
    }

    @Test func firstUserFixtureHasOneContextPerInstance() throws {
        let entry = try #require(try F.propose([F.observation("first-user")])["Connection"])
        #expect(entry.verdict == .firstUser)
        #expect(entry.owner == nil)
        #expect(entry.uses.map(\.context.kind) == [.scheduler, .thread, .task])
    }

    @Test func handOffFixtureNamesTheMoveAndItsSite() throws {
        let entry = try #require(try F.propose([F.observation("hand-off")])["Download"])
        #expect(entry.verdict == .handOff)
        #expect(entry.owner == ContextKey(kind: .scheduler, label: "com.app.network"))
        #expect(entry.handOffs.map(\.to.label) == ["com.app.disk"])
        #expect(entry.handOffs.first?.site == ObservationSite(file: "App/Download.swift", line: 9, function: "save()"))
    }

    @Test func notConfinableFixtureNamesBothSitesOfTheReturn() throws {
        let entry = try #require(try F.propose([F.observation("not-confinable")])["Cache"])
        #expect(entry.verdict == .notConfinable)
        #expect(entry.uses.map(\.site?.file) == ["App/Cache.swift", "App/Views.swift"])
        #expect(entry.evidence.first?.hasPrefix("returns to main thread at App/Views.swift:5 render(_:_:) after scheduler 'com.app.uploads' at App/Cache.swift:5") == true)
        #expect(entry.evidence.contains("a bug, or state that a lock guards"))
    }

    @Test func insufficientFixtureSaysTheDroppedInstancesContradictTheSample() throws {
        let entry = try #require(try F.propose([F.observation("insufficient")])["Prefetcher"])
        #expect(entry.verdict == .insufficient)
        #expect(entry.sampled)
        #expect(entry.instances == .init(seen: 3, dropped: 2, cut: 0))
        #expect(entry.evidence.contains { $0.contains("'pages' was also used from main thread at App/Views.swift:4") })
        #expect(entry.evidence.contains("a sample: steps kept for 1 of 3 instances (2 beyond the instancesPerType limit)"))
    }

    @Test func contradictedFixtureListsWhatTheChecksWouldHaveReported() throws {
        let entry = try #require(try F.propose([F.observation("contradicted")])["Ledger"])
        #expect(entry.verdict == .contradicted)
        #expect(entry.record == "declared")
        #expect(entry.owner == ContextKey(kind: .scheduler, label: "com.app.uploads"))
        #expect(entry.boundAt == .init(file: "App/Ledger.swift", line: 4))
        #expect(entry.uses == [.init(context: .init(kind: .main, label: "main thread"), member: "total", site: .init(file: "App/Views.swift", line: 4, function: "render(_:_:)"))])
    }

    @Test func aDirectoryIsEveryJSONFileInItAndEachVerdictAppears() throws {
        let entries = try F.propose([F.observations])
        #expect(Set(entries.values.map(\.verdict)) == Set(Proposal.Verdict.allCases))
        #expect(entries.count == 8)
    }

    @Test func twoProcessesMergeByLabelNotByID() throws {
        let set = try ObservationSet.load(paths: [F.merge])
        #expect(set.files.count == 2)
        let entries = Dictionary(uniqueKeysWithValues: set.types.map(Proposer.propose).map { ($0.type, $0) })
        // id 3 in one file and id 1 in the other are the same scheduler: one owner, three instances.
        let queue = try #require(entries["UploadQueue"])
        #expect(queue.verdict == .owner)
        #expect(queue.instances.seen == 3)
        // Only the second process saw a Download move; together: a hand-off from the network queue.
        let download = try #require(entries["Download"])
        #expect(download.verdict == .handOff)
        #expect(download.owner?.label == "com.app.network")
        #expect(download.handOffs.map(\.to.label) == ["com.app.disk"])
        // Each file alone says less.
        let first = try F.propose([F.merge + "/AppTests-100.json"])
        #expect(first["Download"]?.verdict == .owner)
    }

    @Test func poolUseIsNotConfinable() throws {
        let entry = try F.entry(F.typeJSON([[2, 5]]))
        #expect(entry.verdict == .notConfinable)
        #expect(entry.uses.map(\.context.kind) == [.scheduler, .pool])
        #expect(entry.evidence.first?.contains("a concurrent pool that owns nothing") == true)
    }

    @Test func poolUseOnlyInTheMembersOfADroppedInstanceIsNotConfinable() throws {
        let entry = try F.entry(F.typeJSON([[2]], seen: 2, dropped: 1, memberContexts: [2, 5]), instancesPerType: 1)
        #expect(entry.verdict == .notConfinable)
        #expect(entry.sampled)
    }

    @Test func twoTasksInOneInstanceAreNotConfinable() throws {
        let entry = try F.entry(F.typeJSON([[6, 7]]))
        #expect(entry.verdict == .notConfinable)
        #expect(entry.evidence.first?.contains("task 'task 1'") == true)
    }

    @Test func aMoveToATaskCannotBeAHandOff() throws {
        let entry = try F.entry(F.typeJSON([[2, 6]]))
        #expect(entry.verdict == .notConfinable)
        #expect(entry.evidence.first?.contains("which no handOff(to:) can name") == true)
    }

    @Test func handOffChainsAreMergedFromInstances() throws {
        let entry = try F.entry(F.typeJSON([[2, 3], [2, 3, 4], [2]]))
        #expect(entry.verdict == .handOff)
        #expect(entry.owner?.label == "a")
        #expect(entry.handOffs.map { "\($0.from.label)>\($0.to.label)" } == ["a>b", "b>c"])
    }

    @Test func handOffsFromDifferentFirstContextsHaveNoOwner() throws {
        let entry = try F.entry(F.typeJSON([[2, 4], [3, 4]]))
        #expect(entry.verdict == .handOff)
        #expect(entry.owner == nil)
    }

    @Test func oneTaskForEveryInstanceIsFirstUser() throws {
        let entry = try F.entry(F.typeJSON([[6]]))
        #expect(entry.verdict == .firstUser)
        #expect(entry.owner == nil)
    }

    @Test func cutStepsAndDroppedInstancesAreSaidAndKeepTheVerdict() throws {
        let entry = try F.entry(F.typeJSON([[2], [2]], seen: 5, dropped: 3, stepsDropped: 2), instancesPerType: 2)
        #expect(entry.verdict == .owner)
        #expect(entry.sampled)
        #expect(entry.instances == .init(seen: 5, dropped: 3, cut: 2))
        #expect(entry.evidence.contains("a sample: steps kept for 2 of 5 instances (3 beyond the instancesPerType limit)"))
        #expect(entry.evidence.contains("2 instances have more steps than stepsPerInstance: a later return is not ruled out"))
    }

    @Test func noInstanceWithAStepIsInsufficient() throws {
        let entry = try F.entry(F.typeJSON([], seen: 4, dropped: 4, memberContexts: [2]))
        #expect(entry.verdict == .insufficient)
        #expect(entry.evidence.first == "no instance with a step (4 seen, 4 dropped): nothing to judge")
    }

    @Test func aDeclaredTypeWithoutMissesIsInsufficient() throws {
        let type = """
            {"type": "D", "record": {"kind": "declared", "owner": 2, "boundAt": {"file": "D.swift", "line": 3}},
             "instances": {"seen": 0, "dropped": 0}, "members": [], "instanceSteps": []}
            """
        let entry = try F.entry(type)
        #expect(entry.verdict == .insufficient)
        #expect(entry.module == nil)
        #expect(entry.evidence == ["declared owner scheduler 'a' (bound at D.swift:3); no miss was recorded"])
    }
}

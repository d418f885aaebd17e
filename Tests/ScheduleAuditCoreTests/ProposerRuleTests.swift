import Testing
@testable import ScheduleAuditCore

/// A row per rule of `Proposer.judge`, in its order (`.ci/check-rules` holds the numbers of its `// N.`
/// comments, these `ruleN…` rows and ProposingOwners' "The rules, in order" to one list). Each row shows
/// its rule deciding, and, where an earlier rule could have, that the order is the one written.
/// Contexts (``ProposeFixture/contexts``): 1 main, 2 `a`, 3 `b`, 4 `c` (schedulers), 5 pool, 6 and 7
/// tasks, 8 a plain thread.
@Suite("propose: one row per rule")
struct ProposerRuleTests {
    typealias F = ProposeFixture

    static func declared(misses: String) -> String {
        """
        {"type": "D", "record": {"kind": "declared", "owner": 2, "boundAt": {"file": "D.swift", "line": 3}},
         "instances": {"kept": 0, "droppedSteps": 0}, "members": [{"member": "m", "contexts": [\(misses)], "contextsDropped": 0}], "instanceSteps": []}
        """
    }

    @Test func rule1ADeclaredOwnerMissedIsContradictedAndOneNeverMissedInsufficient() throws {
        let missed = try F.entry(Self.declared(misses: #"{"context": 3, "site": {"file": "D.swift", "line": 9}}"#))
        #expect(missed.conclusion == .contradicted)
        #expect(missed.uses.map(\.context.label) == ["b"])
        // A miss from the pool would be rule 3's, but a declared record is judged by rule 1 first.
        let pool = try F.entry(Self.declared(misses: #"{"context": 5, "site": {"file": "D.swift", "line": 9}}"#))
        #expect(pool.conclusion == .contradicted)
        #expect(try F.entry(Self.declared(misses: "")).conclusion == .insufficient)
    }

    @Test func rule2NoKeptInstanceWithAStepIsInsufficientBeforeAnyUseIsJudged() throws {
        // The members list a pool use (rule 3's), but no instance's steps were kept.
        let entry = try F.entry(F.typeJSON([], droppedSteps: 2, memberContexts: [5]))
        #expect(entry.conclusion == .insufficient)
        #expect(entry.evidence.first == "no kept instance has a step: nothing to judge")
    }

    @Test func rule3APoolUseAReturnOrTwoTasksIsNotConfinableBeforeWhereInstancesStart() throws {
        #expect(try F.entry(F.typeJSON([[2, 5]])).conclusion == .notConfinable)
        #expect(try F.entry(F.typeJSON([[6, 7]])).conclusion == .notConfinable)
        // Instances that start apart would be first-user (rule 4); a return decides first.
        let entry = try F.entry(F.typeJSON([[2, 3, 2], [4]]))
        #expect(entry.conclusion == .notConfinable)
        #expect(entry.evidence.first?.hasPrefix("returns to scheduler 'a'") == true)
    }

    @Test func rule4InstancesStartingApartWithoutAHandOffAreFirstUserWhateverTheSampleMissed() throws {
        // Context 4 is in the members only (rule 5's case), but each instance is its own owner anyway.
        let entry = try F.entry(F.typeJSON([[2], [3]], memberContexts: [2, 3, 4]))
        #expect(entry.conclusion == .firstUser)
        #expect(entry.uses.map(\.context.label) == ["a", "b"])
    }

    @Test func rule5AMemberUsedFromAContextNoKeptInstanceShowsIsInsufficient() throws {
        let entry = try F.entry(F.typeJSON([[2]], memberContexts: [2, 4]))
        #expect(entry.conclusion == .insufficient)
        #expect(entry.evidence.first?.hasPrefix("the kept instances say one owner, but 'm' was also used from scheduler 'c'") == true)
        // The same without the unseen context: rule 6's owner.
        #expect(try F.entry(F.typeJSON([[2]])).conclusion == .owner)
    }

    @Test func rule6OneStartWithoutAHandOffIsMainOwnerOrATasksFirstUser() throws {
        let owner = try F.entry(F.typeJSON([[2], [2]]))
        #expect(owner.conclusion == .owner)
        #expect(owner.owner?.label == "a")
        #expect(try F.entry(F.typeJSON([[1]])).conclusion == .main)
        let task = try F.entry(F.typeJSON([[6]]))
        #expect(task.conclusion == .firstUser)
        #expect(task.owner == nil)
        // Moves only some instances make leave the owner where they start, listed as stray.
        let stray = try F.entry(F.typeJSON([[2, 3], [2]]))
        #expect(stray.conclusion == .owner)
        #expect(stray.strayMoves.map(\.to.label) == ["b"])
    }

    @Test func rule7MovesForwardAreAHandOffAndAMoveToAThreadIsNotConfinable() throws {
        let entry = try F.entry(F.typeJSON([[2, 3], [2, 3]]))
        #expect(entry.conclusion == .handOff)
        #expect(entry.owner?.label == "a")
        #expect(entry.handOffs.map { "\($0.from.label)>\($0.to.label)" } == ["a>b"])
        let thread = try F.entry(F.typeJSON([[2, 8]]))
        #expect(thread.conclusion == .notConfinable)
        #expect(thread.evidence.first?.contains("which no handOff(to:) can name") == true)
    }
}

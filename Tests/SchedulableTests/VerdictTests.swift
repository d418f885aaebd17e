import Dispatch
import Foundation
import Testing

@testable import Schedulable

/// The verdict's rules (`Checking/Checking.swift`), one row each, judged with a fake record and a fake
/// "here": changing a rule is one edit there and one row here. The real engine's answers are in
/// `MatrixTests` and in `FixedOwnerVerdictTests` below.
@Suite("The verdict, rule by rule")
struct VerdictTests {
    static let owner = ExecutionContext(label: "verdict.owner", parent: nil, kind: .custom, id: 9_000_001)
    static let elsewhere = ExecutionContext(label: "verdict.elsewhere", parent: nil, kind: .custom, id: 9_000_002)
    static var method: ConfinedMemberReference { .method("ping()", callSite: .none) }
    static var property: ConfinedMemberReference { .property(name: "count", declaredAt: .none) }

    /// Runs the verdict and says what it returned and what it did, as one line per effect.
    func judge(
        _ access: CheckedAccess, _ member: ConfinedMemberReference? = nil, to newOwner: ExecutionContext? = nil,
        record: FakeRecord, here: FakeHere, object: AnyObject? = nil,
        tier: ConfinementViolation.Tier = .assert
    ) -> (verdict: String, effects: [String]) {
        let recorder = ViolationRecorder()
        let verdict = Checking.verdict(access, member: member, newOwner: newOwner, object: object, record: record, here: here) {
            refusal, _ in
            record.effects.append("report(\(refusal.name))")
            let violation = ConfinementViolation.wrongContext(
                member: Self.method, tier: tier, owner: Self.owner, boundAt: nil, object: nil
            )
            return PendingReport(violation, objectHandler: recorder)
        }
        let answer: String
        switch verdict {
        case .pass: answer = "pass"
        case .passResolving: answer = "passResolving"
        case .no: answer = "no"
        case .report(let delivery): answer = (delivery.handler as AnyObject) === recorder ? "report" : "report to another handler"
        }
        return (answer, record.effects + here.log.asked)
    }

    @Test func rule0AFixedOwnerIsNeverTransferredNotEvenByItsOwner() {
        // Held by every layer, and detached-looking to the lock-free rules: still refused, nothing moves.
        let here = FakeHere(holdsID: true, holdsOwner: true, bindable: Self.owner, unseen: true, dispatchSays: true)
        let record = FakeRecord(word: .settled(Self.owner.id), owner: Self.owner, fixed: true)
        let handOff = judge(.transfer, Self.method, to: Self.elsewhere, record: record, here: here, tier: .precondition)
        #expect(handOff.verdict == "report")
        #expect(handOff.effects == ["stripe", "report(fixedOwner)"])
        let detach = judge(.transfer, Self.method, record: FakeRecord(word: .settled(Self.owner.id), owner: Self.owner, fixed: true), here: FakeHere(holdsOwner: true))
        #expect(detach.verdict == "report")
        #expect(!detach.effects.contains { $0.hasPrefix("transfer") })
        // A use of the same record is judged by the other rules.
        let use = judge(.use, Self.method, record: FakeRecord(word: .settled(Self.owner.id), owner: Self.owner, fixed: true), here: FakeHere(holdsID: true))
        #expect(use.verdict == "pass")
    }

    @Test func rule1AReadByAProbeIsRecordedNotChecked() {
        let here = FakeHere(probing: true)
        let result = judge(.use, Self.property, record: FakeRecord(word: .unsettled, owner: Self.owner), here: here)
        #expect(result.verdict == "pass")
        #expect(result.effects == ["probe"])
    }

    @Test func rule2AnUnstoredRecordIsClosedAndReportedThenJudged() {
        let record = FakeRecord(word: .unsettled, owner: Self.owner, stored: false, settlesOnClose: true)
        let result = judge(.use, Self.method, record: record, here: FakeHere(holdsID: true), object: NSObject())
        #expect(result.verdict == "pass")
        #expect(result.effects == ["closeUnstored", "holds(id)"])
    }

    @Test func rule3ASettledOwnerHeldByATrackedLayerPassesWithoutTheStripe() {
        let result = judge(.use, Self.method, record: FakeRecord(word: .settled(Self.owner.id), owner: Self.owner), here: FakeHere(holdsID: true))
        #expect(result.verdict == "pass")
        #expect(result.effects == ["holds(id)"])
    }

    @Test func rule4AnExcludedMemberOfASettledRecordPassesWithoutTheStripe() {
        let record = FakeRecord(word: .settled(Self.owner.id), owner: Self.owner, excluded: true)
        let result = judge(.use, Self.method, record: record, here: FakeHere())
        #expect(result.verdict == "pass")
        #expect(result.effects == ["holds(id)"])
    }

    @Test func rule6AQuestionOnADetachedRecordBindsNothing() {
        let detached = { FakeRecord(word: .unsettled, owner: nil) }
        #expect(judge(.question, record: detached(), here: FakeHere(bindable: Self.owner)).verdict == "pass")
        let onPool = judge(.question, record: detached(), here: FakeHere(bindable: nil))
        #expect(onPool.verdict == "no")
        #expect(onPool.effects == ["stripe", "bindable"])
    }

    @Test func rule7AnExcludedMemberDoesNotBindADetachedRecord() {
        let record = FakeRecord(word: .unsettled, owner: nil, excluded: true)
        let result = judge(.use, Self.method, record: record, here: FakeHere(bindable: Self.owner))
        #expect(result.verdict == "pass")
        #expect(result.effects == ["stripe", "excludes"])
    }

    @Test func rule8AFirstUseOnAPoolThreadIsReportedNotSerial() {
        let result = judge(.use, Self.method, record: FakeRecord(word: .unsettled, owner: nil), here: FakeHere(bindable: nil))
        #expect(result.verdict == "report")
        #expect(result.effects == ["stripe", "excludes", "report(notSerial)", "bindable"])
    }

    @Test func rule9AFirstUseBindsADetachedRecordWhereItRuns() {
        let result = judge(.use, Self.method, record: FakeRecord(word: .unsettled, owner: nil), here: FakeHere(bindable: Self.owner))
        #expect(result.verdict == "pass")
        #expect(result.effects == ["stripe", "excludes", "bind(9000001)", "bindable"])
        let resolving = FakeRecord(word: .unsettled, owner: nil, needsResolution: true)
        #expect(judge(.use, Self.method, record: resolving, here: FakeHere(bindable: Self.owner)).verdict == "passResolving")
    }

    @Test func rule10TheOwnerPassesByTheDrainLockAndEndsTheWindow() {
        let result = judge(.use, Self.method, record: FakeRecord(word: .unsettled, owner: Self.owner), here: FakeHere(holdsOwner: true))
        #expect(result.verdict == "pass")
        #expect(result.effects == ["stripe", "endWindow", "legitimate", "holds(owner)"])
    }

    @Test func rule11TheBuildingWorkPassesWhileItsWindowIsOpen() {
        let record = FakeRecord(word: .unsettled, owner: Self.owner, inWindow: true)
        let result = judge(.use, Self.method, record: record, here: FakeHere())
        #expect(result.verdict == "pass")
        #expect(result.effects == ["stripe", "legitimate", "holds(owner)"])
    }

    @Test func rule11TheCreatingTaskOnAnotherExecutorEndsItsWindowAndIsJudgedLikeAnyoneElse() {
        let hopped = { FakeRecord(word: .unsettled, owner: Self.owner, window: .creatingTaskOnAnotherExecutor) }
        let use = judge(.use, Self.method, record: hopped(), here: FakeHere())
        #expect(use.verdict == "report")
        #expect(use.effects == ["stripe", "endWindow(hop)", "excludes", "report(wrongContext)", "holds(owner)", "delivering"])
        // A question ends it too, and answers "no".
        let question = judge(.question, record: hopped(), here: FakeHere())
        #expect(question.verdict == "no")
        #expect(question.effects == ["stripe", "endWindow(hop)", "holds(owner)"])
        // The owner's use comes first (rule 10), and an excluded member still passes after (rule 12).
        #expect(judge(.use, Self.method, record: hopped(), here: FakeHere(holdsOwner: true)).verdict == "pass")
        let excluded = FakeRecord(word: .unsettled, owner: Self.owner, excluded: true, window: .creatingTaskOnAnotherExecutor)
        let exclusion = judge(.use, Self.method, record: excluded, here: FakeHere())
        #expect(exclusion.verdict == "pass")
        #expect(exclusion.effects == ["stripe", "endWindow(hop)", "excludes", "holds(owner)"])
    }

    @Test func rule12AnExcludedMemberPassesAfterTheOwnersRules() {
        let record = FakeRecord(word: .unsettled, owner: Self.owner, excluded: true)
        let result = judge(.use, Self.method, record: record, here: FakeHere())
        #expect(result.verdict == "pass")
        #expect(result.effects == ["stripe", "excludes", "holds(owner)"])
    }

    @Test func rule13AnObservedRecordIsHandedOffFromAnywhere() {
        let observed = CodeLocation(fileID: "App/Observed.swift", line: 3)
        // Bound to its owner and handed off where nothing holds that owner: moved, passed, not reported.
        let record = FakeRecord(word: .unsettled, owner: Self.owner, observedAt: observed)
        let handOff = judge(.transfer, Self.method, to: Self.elsewhere, record: record, here: FakeHere(), tier: .precondition)
        #expect(handOff.verdict == "pass")
        #expect(handOff.effects == ["stripe", "transfer(9000002)", "holds(owner)"])
        // The same hand-off of a declared (not observed) record is refused: rule 13 is what passed it.
        let declared = FakeRecord(word: .unsettled, owner: Self.owner)
        let refused = judge(.transfer, Self.method, to: Self.elsewhere, record: declared, here: FakeHere(), tier: .precondition)
        #expect(refused.verdict == "report")
        #expect(!refused.effects.contains { $0.hasPrefix("transfer") })
    }

    @Test func rule14AQuestionAnswersNoAndReportsNothing() {
        let result = judge(.question, record: FakeRecord(word: .settled(Self.owner.id), owner: Self.owner), here: FakeHere())
        #expect(result.verdict == "no")
        #expect(result.effects == ["stripe", "holds(id)", "holds(owner)"])
    }

    @Test func rule15AnAccessDuringDeinitIsNotReported() {
        let here = FakeHere(deallocating: true)
        let result = judge(.use, Self.method, record: FakeRecord(word: .settled(Self.owner.id), owner: Self.owner), here: here, object: NSObject())
        #expect(result.verdict == "pass")
        #expect(result.effects == ["stripe", "excludes", "holds(id)", "holds(owner)", "deallocating"])
    }

    @Test func rule16LibdispatchHasTheLastWordWhereTheOutcomeIsATrap() {
        let settled = { FakeRecord(word: .settled(Self.owner.id), owner: Self.owner) }
        let yes = judge(.use, Self.method, record: settled(), here: FakeHere(unseen: true, dispatchSays: true), tier: .precondition)
        #expect(yes.verdict == "pass")
        #expect(yes.effects == ["stripe", "excludes", "report(wrongContext)", "holds(id)", "holds(owner)", "delivering", "unseen", "dispatch"])
        let no = judge(.use, Self.method, record: settled(), here: FakeHere(unseen: true, dispatchSays: false), tier: .precondition)
        #expect(no.verdict == "report")
        // Not asked: no trap would follow, the library accounts for the dispatch work, or a handler runs.
        for (here, tier) in [
            (FakeHere(unseen: true, dispatchSays: true), ConfinementViolation.Tier.assert),
            (FakeHere(unseen: false, dispatchSays: true), .precondition),
            (FakeHere(unseen: true, dispatchSays: true, delivering: true), .precondition),
        ] {
            let result = judge(.use, Self.method, record: settled(), here: here, tier: tier)
            #expect(result.verdict == "report")
            #expect(!result.effects.contains("dispatch"))
        }
    }

    @Test func rule17AnythingElseIsReported() {
        let result = judge(.use, Self.method, record: FakeRecord(word: .settled(Self.owner.id), owner: Self.owner), here: FakeHere())
        #expect(result.verdict == "report")
        #expect(result.effects == ["stripe", "excludes", "report(wrongContext)", "holds(id)", "holds(owner)", "delivering"])
    }

    @Test func aTransferIsMadeFromTheOwnerOrFromAnywhereWhileDetached() {
        let detached = judge(.transfer, Self.method, to: Self.elsewhere, record: FakeRecord(word: .unsettled, owner: nil), here: FakeHere())
        #expect(detached.verdict == "pass")
        #expect(detached.effects == ["stripe", "transfer(9000002)"])
        let fromOwner = judge(.transfer, Self.method, to: Self.elsewhere, record: FakeRecord(word: .settled(Self.owner.id), owner: Self.owner), here: FakeHere(holdsOwner: true))
        #expect(fromOwner.effects == ["stripe", "endWindow", "transfer(9000002)", "holds(owner)"])
        // Elsewhere: refused, even for an excluded member; no lock-free rule applies to a transfer.
        let record = FakeRecord(word: .settled(Self.owner.id), owner: Self.owner, excluded: true)
        let elsewhere = judge(.transfer, Self.method, to: Self.elsewhere, record: record, here: FakeHere(holdsID: true), tier: .precondition)
        #expect(elsewhere.verdict == "report")
        #expect(!elsewhere.effects.contains { $0.hasPrefix("transfer") })
        #expect(!elsewhere.effects.contains("holds(id)"))
    }

    @Test func rule5AnObservedRecordFollowsItsUserAndRecordsAStep() {
        let observed = CodeLocation(fileID: "App/Observed.swift", line: 3)
        // An observed record's word never settles: every use reaches the stripe.
        let record = { FakeRecord(word: .unsettled, owner: Self.owner, observedAt: observed) }
        // A use elsewhere: moved to where it runs, recorded (the violation built for the step), passed.
        let use = judge(.use, Self.method, record: record(), here: FakeHere(observing: Self.elsewhere), object: NSObject())
        #expect(use.verdict == "pass")
        #expect(use.effects == ["stripe", "excludes", "transfer(9000002)", "observing", "use", "deallocating", "observe"])
        // In its context: a legitimate use, nothing recorded.
        let same = judge(.use, Self.method, record: record(), here: FakeHere(observing: Self.owner), object: NSObject())
        #expect(same.verdict == "pass")
        #expect(same.effects == ["stripe", "excludes", "legitimate", "observing", "use"])
        // The rule of "where am I": a thread that holds the owner by an outer layer (the main thread
        // inside a raw `queue.sync {}`) is not in it — the innermost context is the queue: a step.
        let outer = judge(
            .use, Self.method, record: record(), here: FakeHere(holdsID: true, holdsOwner: true, observing: Self.elsewhere),
            object: NSObject()
        )
        #expect(outer.verdict == "pass")
        #expect(outer.effects == ["stripe", "excludes", "transfer(9000002)", "observing", "use", "deallocating", "observe"])
        // Outside anything serial (a pool thread, a task): detached, so the next use anywhere is a step.
        let pool = judge(.use, Self.method, record: record(), here: FakeHere(observing: nil), object: NSObject())
        #expect(pool.verdict == "pass")
        #expect(pool.effects.contains("transfer(nil)"))
        #expect(pool.effects.contains("observe"))
        // A question is answered by the owner; nothing moves, nothing is recorded.
        let question = judge(.question, record: record(), here: FakeHere(observing: Self.elsewhere))
        #expect(question.verdict == "no")
        #expect(!question.effects.contains { $0.hasPrefix("transfer") || $0 == "observe" })
        // A transfer is made from anywhere.
        let transfer = judge(.transfer, Self.method, to: Self.elsewhere, record: record(), here: FakeHere(), tier: .precondition)
        #expect(transfer.verdict == "pass")
        #expect(transfer.effects.contains("transfer(9000002)"))
        // Its object deallocating: no step.
        let deinitUse = judge(.use, Self.method, record: record(), here: FakeHere(observing: Self.elsewhere, deallocating: true), object: NSObject())
        #expect(deinitUse.verdict == "pass")
        #expect(!deinitUse.effects.contains("observe"))
    }

    @Test func rule5AnObservedRecordsFirstUseIsAStepOnAPoolThreadToo() {
        let observed = CodeLocation(fileID: "App/Observed.swift", line: 3)
        let first = judge(.use, Self.method, record: FakeRecord(word: .unsettled, owner: nil, observedAt: observed), here: FakeHere(observing: Self.elsewhere), object: NSObject())
        #expect(first.verdict == "pass")
        #expect(first.effects == ["stripe", "excludes", "bind(9000002)", "observing", "use", "deallocating", "observe"])
        let pool = judge(.use, Self.method, record: FakeRecord(word: .unsettled, owner: nil, observedAt: observed), here: FakeHere(observing: nil), object: NSObject())
        #expect(pool.verdict == "pass")
        #expect(!pool.effects.contains { $0.hasPrefix("bind(") })
        #expect(pool.effects.contains("observe"))
    }

    @Test func rule5AStepSaysWhereTheContextItLeavesLetGo() {
        let observed = CodeLocation(fileID: "App/Observed.swift", line: 3)
        // The record's most recent use was in its owner: the step out of it names that use.
        let used = FakeRecord(word: .unsettled, owner: Self.owner, observedAt: observed)
        used.lastUse = Observation.Use(member: Self.method, stack: .empty, contextID: Self.owner.id)
        let moved = judge(.use, Self.method, record: used, here: FakeHere(observing: Self.elsewhere), object: NSObject())
        #expect(moved.effects.last == "observe(letGo)")
        #expect(used.lastUse?.contextID == Self.elsewhere.id)
        // Its last use was before a hand-off to the owner, which has not used it since: unknown.
        let handedOff = FakeRecord(word: .unsettled, owner: Self.owner, observedAt: observed)
        handedOff.lastUse = Observation.Use(member: Self.method, stack: .empty, contextID: Self.elsewhere.id)
        let fresh = judge(.use, Self.method, record: handedOff, here: FakeHere(observing: Self.elsewhere), object: NSObject())
        #expect(fresh.effects.last == "observe")
        // A use in the owner is remembered, and nothing is recorded.
        let same = FakeRecord(word: .unsettled, owner: Self.owner, observedAt: observed)
        _ = judge(.use, Self.method, record: same, here: FakeHere(observing: Self.owner), object: NSObject())
        #expect(same.lastUse?.contextID == Self.owner.id)
    }

    @Test func aFixedOwnerIsARecordInTheFixedStateTheDrainLockIncluded() {
        let fixed = FixedOwner(Self.owner, boundAt: .none)
        let here = FakeHere(holdsOwner: true)
        let verdict = Checking.verdict(.question, member: nil, object: nil, record: fixed, here: here, report: Checking.noReport)
        #expect({ if case .pass = verdict { true } else { false } }())
        #expect(here.log.asked == ["holds(id)", "holds(owner)"])
    }
}

extension Refusal {
    var name: String {
        switch self {
        case .wrongContext: "wrongContext"
        case .notSerial: "notSerial"
        case .fixedOwner: "fixedOwner"
        }
    }
}

/// A record whose state the test sets, and which logs what the verdict does to it.
final class FakeRecord: VerdictRecord {
    var word: RecordWord
    let owner: ExecutionContext?
    let stored: Bool
    let settlesOnClose: Bool
    let excluded: Bool
    let constructionWindowHere: ConstructionWindowHere
    let needsResolution: Bool
    let isFixed: Bool
    let observedAt: CodeLocation?
    var effects: [String] = []

    init(
        word: RecordWord, owner: ExecutionContext?, stored: Bool = true, settlesOnClose: Bool = false,
        excluded: Bool = false, inWindow: Bool = false, window: ConstructionWindowHere? = nil,
        needsResolution: Bool = false, fixed: Bool = false, observedAt: CodeLocation? = nil
    ) {
        self.isFixed = fixed
        self.observedAt = observedAt
        self.word = word
        self.owner = owner
        self.stored = stored
        self.settlesOnClose = settlesOnClose
        self.excluded = excluded
        self.constructionWindowHere = window ?? (inWindow ? .open : .none)
        self.needsResolution = needsResolution
    }

    func isStored(in object: AnyObject) -> Bool { stored }
    func closeUnstored(on object: AnyObject, member: ConfinedMemberReference) {
        effects.append("closeUnstored")
        if settlesOnClose, let owner { word = .settled(owner.id) }
    }
    func excludesWhenSettled(_ member: ConfinedMemberReference) -> Bool { excluded }
    func withStripe<Result>(_ body: () -> Result) -> Result {
        effects.append("stripe")
        return body()
    }
    var lockedOwner: ExecutionContext? { owner }
    var lockedBoundAt: PackedCodeLocation { .none }
    func excludes(_ member: ConfinedMemberReference) -> Bool {
        effects.append("excludes")
        return excluded
    }
    func bindByFirstUse(to context: ExecutionContext, member: ConfinedMemberReference) { effects.append("bind(\(context.id))") }
    func endWindowOnOwnersUse(_ owner: ExecutionContext) { effects.append("endWindow") }
    func endWindowOnExecutorHop() { effects.append("endWindow(hop)") }
    func recordLegitimateUse(_ member: ConfinedMemberReference) { effects.append("legitimate") }
    func transfer(to newOwner: ExecutionContext?, member: ConfinedMemberReference) {
        effects.append("transfer(\(newOwner.map { "\($0.id)" } ?? "nil"))")
    }
    /// The remembered use, as the record's extras keep it; logs what a step says the left context let go.
    var lastUse: Observation.Use?
    func exchangeLastUse(_ use: Observation.Use) -> Observation.Use? {
        defer { lastUse = use }
        return lastUse
    }
}

/// "Here" with fixed answers; logs which questions the verdict asked, in order.
struct FakeHere: VerdictHere {
    final class Log { var asked: [String] = [] }
    let log = Log()
    var probing = false
    var holdsID = false
    var holdsOwner = false
    var bindable: ExecutionContext? = nil
    var observing: ExecutionContext? = nil
    var deallocating = false
    var unseen = false
    var dispatchSays = false
    var delivering = false

    func recordIfProbing(_ site: PackedCodeLocation) -> Bool { ask("probe", probing) }
    func holds(contextID id: UInt) -> Bool { ask("holds(id)", holdsID) }
    func holds(_ owner: ExecutionContext) -> Bool { ask("holds(owner)", holdsOwner) }
    var bindableContext: ExecutionContext? {
        _ = ask("bindable", true)
        return bindable
    }
    var observingContext: ExecutionContext? {
        _ = ask("observing", true)
        return observing
    }
    func isDeallocating(_ object: AnyObject) -> Bool { ask("deallocating", deallocating) }
    var isDelivering: Bool { ask("delivering", delivering) }
    var mayHoldQueuesUnseen: Bool { ask("unseen", unseen) }
    func dispatchConfirms(_ owner: ExecutionContext, elseTrapPrinting report: String) -> Bool { ask("dispatch", dispatchSays) }
    func observedUse(of member: ConfinedMemberReference, in context: ExecutionContext?) -> Observation.Use {
        _ = ask("use", true)
        return Observation.Use(member: member, stack: .empty, contextID: context?.id)
    }
    func recordStep(of object: AnyObject, createdAt: CodeLocation?, _ step: () -> Observation.Step) {
        _ = ask(step().letGo == nil ? "observe" : "observe(letGo)", true)
    }

    private func ask(_ question: String, _ answer: Bool) -> Bool {
        log.asked.append(question)
        return answer
    }
}

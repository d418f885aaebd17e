import Dispatch
import Foundation
import Schedulable
import Testing

/// Staged policy: levels per type and member, the environment syntax, and what each level does.
@Suite("Confinement policy")
struct PolicyTests {
    private func violation(
        type: String? = "UploadQueue", member: String = "enqueue(_:)", tier: ConfinementViolation.Tier = .assert,
        line: Int = 1
    ) -> ConfinementViolation {
        ConfinementViolation(
            kind: tier == .note ? .waitingRequired : .wrongContext, tier: tier, objectType: type, member: member,
            expectedOwner: "queue \"q\"", actualContext: "main thread",
            callSite: CodeLocation(fileID: "App/Upload.swift", line: line)
        )
    }

    @Test func theCompactSyntaxParsesADefaultAndOverridesPerTypeAndMember() throws {
        let policy = try ConfinementPolicy(parsing: " warn , UploadQueue=trap,UploadQueue.enqueue(_:)=off,Cache=fail-test")
        #expect(policy == ConfinementPolicy(default: .warn, overrides: [
            "UploadQueue": .trap, "UploadQueue.enqueue(_:)": .off, "Cache": .failTest,
        ]))
        #expect(policy.description == "warn,Cache=fail-test,UploadQueue=trap,UploadQueue.enqueue(_:)=off")
        #expect(try ConfinementPolicy(parsing: "UploadQueue=warn-once", fallback: .trap).defaultLevel == .trap)
        #expect(try ConfinementPolicy(parsing: policy.description) == policy)
    }

    @Test(arguments: [
        ("loud", "\"loud\": unknown level \"loud\""),
        ("warn,trap", "\"trap\": a second default level (the first is \"warn\")"),
        ("=trap", "\"=trap\": no type or member before \"=\""),
        ("warn,,A=trap", "an empty entry"),
        ("A=trap,A=off", "\"A=off\": A already has the level trap"),
        ("A=", "\"A=\": unknown level \"\""),
    ])
    func everyMalformedEntryIsNamedWithTheSyntax(text: String, problem: String) {
        #expect {
            try ConfinementPolicy(parsing: text)
        } throws: { error in
            let description = String(describing: error)
            return description.contains(problem) && description.contains("levels: off, observe, warn-once, warn, fail-test, trap")
        }
    }

    @Test func theValidEntriesOfAMalformedPolicyAreKept() {
        do {
            _ = try ConfinementPolicy(parsing: "warn,UploadQueue=loud,Cache=trap")
            Issue.record("no error")
        } catch {
            #expect(error.problems.count == 1)
            #expect(error.validPart == ConfinementPolicy(default: .warn, overrides: ["Cache": .trap]))
        }
    }

    @Test func aMembersLevelWinsOverItsTypesWhichWinsOverTheDefault() {
        let policy = ConfinementPolicy(default: .warn, overrides: ["UploadQueue": .trap, "UploadQueue.enqueue(_:)": .off])
        #expect(policy.level(for: violation()) == .off)
        #expect(policy.level(for: violation(member: "cancel()")) == .trap)
        #expect(policy.level(for: violation(type: "Cache")) == .warn)
        #expect(policy.level(for: violation(type: nil, member: "schedule(_:)")) == .warn)
    }

    @Test func notesNeverTrapAndThePreconditionTierAlwaysDoes() {
        let handler = PolicyViolationHandler(ConfinementPolicy(default: .trap, overrides: ["Cache": .off]))
        #expect(handler.level(for: violation(tier: .note)) == .warnOnce)
        #expect(handler.level(for: violation(type: "Cache", tier: .note)) == .off)
        #expect(handler.level(for: violation(type: "Cache", tier: .precondition)) == .trap)
    }

    @Test func warnOncePrintsEachCallSiteOnceThenCountsRepeatsAtPowersOfTwo() {
        let lines = LockedList<String>()
        let handler = PolicyViolationHandler(ConfinementPolicy(default: .warnOnce)) { lines.append($0) }
        for _ in 0..<5 { handler.handle(violation(line: 10)) }
        handler.handle(violation(line: 20))
        let output = lines.elements
        #expect(output.count == 4)
        #expect(output[0].hasPrefix("Schedulable: UploadQueue.enqueue(_:) used outside its owner\n"))
        #expect(output[1] == "Schedulable: UploadQueue.enqueue(_:) used outside its owner again at App/Upload.swift:10 (2 times so far)\n")
        #expect(output[2] == "Schedulable: UploadQueue.enqueue(_:) used outside its owner again at App/Upload.swift:10 (4 times so far)\n")
        #expect(output[3].contains("call site:       App/Upload.swift:20"))
    }

    /// Notes are not violations: they are counted and their doublings printed, but the summary leaves
    /// them out, so it counts only violations nobody expected.
    @Test func theSummaryCountsViolationsNotNotes() {
        let lines = LockedList<String>()
        let handler = PolicyViolationHandler(ConfinementPolicy(default: .warnOnce)) { lines.append($0) }
        for _ in 0..<4 { handler.handle(violation(member: "present()", tier: .note, line: 7)) }
        handler.handle(violation(line: 10))
        #expect(lines.elements.count == 4)   // the note, its 2nd and 4th time, the violation
        #expect(lines.elements[1] == "Schedulable: note: UploadQueue.present() had to wait again at App/Upload.swift:7 (2 times so far)\n")
        #expect(handler.summary == "Schedulable: violation summary: 1 violation at 1 site\n  1 × UploadQueue.enqueue(_:) at App/Upload.swift:10\n")
    }

    /// A repeat names its kind: work cancelled at shutdown is not "had to wait".
    @Test func aRepeatedCancellationNoteSaysCancelledNotWaited() {
        let lines = LockedList<String>()
        let handler = PolicyViolationHandler(ConfinementPolicy(default: .warnOnce)) { lines.append($0) }
        let note = ConfinementViolation(
            kind: .cancelledAtShutdown, tier: .note, member: "schedule(at:)",
            expectedOwner: "thread scheduler \"t\"", actualContext: "main thread",
            callSite: CodeLocation(fileID: "App/Timers.swift", line: 3)
        )
        handler.handle(note)
        handler.handle(note)
        #expect(lines.elements.last == "Schedulable: note: schedule(at:): work cancelled by the shutdown of thread scheduler \"t\" again at App/Timers.swift:3 (2 times so far)\n")
    }

    @Test func warnPrintsEveryTimeAndOffPrintsNothing() {
        let lines = LockedList<String>()
        let handler = PolicyViolationHandler(ConfinementPolicy(default: .warn, overrides: ["Cache": .off])) {
            lines.append($0)
        }
        for _ in 0..<3 {
            handler.handle(violation())
            handler.handle(violation(type: "Cache"))
        }
        handler.handle(violation(tier: .precondition))   // printed and stopped by the delivery path, not here
        #expect(lines.elements.count == 3)
        #expect(lines.elements.allSatisfy { $0.contains("UploadQueue.enqueue(_:) used outside its owner") })
    }

    @Test(.exitTest, .enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func anEnvironmentOverrideMakesOneTypeTrapWhileTheRestWarns() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            setenv("SCHEDULABLE_CONFINEMENT", "warn,Counter=trap", 1)
            useFromAnotherQueue(ownerLabel: "exit.policy.type") { $0.ping() }
        }.map { result in
            #expect(standardErrorText(result).contains("Counter.ping() used outside its owner"))
        }
    }

    @Test(.exitTest, .enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func anEnvironmentMemberOverrideSilencesOneMemberOfATrappingProcess() async {
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            setenv("SCHEDULABLE_CONFINEMENT", "trap,Counter.ping()=off", 1)
            useFromAnotherQueue(ownerLabel: "exit.policy.member", times: 3) { $0.ping() }
        }.map { result in
            #expect(!standardErrorText(result).contains("used outside its owner"))
        }
    }

    @Test(.exitTest, .enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func aMalformedEnvironmentEntryIsReportedAndTheValidOnesStillApply() async {
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            setenv("SCHEDULABLE_CONFINEMENT", "warn,Counter=loud", 1)
            useFromAnotherQueue(ownerLabel: "exit.policy.malformed", times: 2) { $0.ping() }
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(stderr.contains("\"Counter=loud\": unknown level \"loud\""))
            #expect(stderr.contains("applying the valid entries: warn"))
            #expect(stderr.components(separatedBy: "Counter.ping() used outside its owner\n").count == 3)
        }
    }

    @Test(.exitTest) func thePreconditionTierStopsTheProcessEvenWhenItsLevelIsOff() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            setenv("SCHEDULABLE_CONFINEMENT", "off", 1)
            useFromAnotherQueue(ownerLabel: "exit.policy.precondition") { $0.incrementAlways() }
        }.map { result in
            #expect(standardErrorText(result).contains("Counter.incrementAlways() used outside its owner"))
        }
    }

    @Test(.exitTest, .enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func aBootstrappedPolicyAppliesToUnscopedViolations() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            ConfinementSystem.bootstrap(policy: ConfinementPolicy(default: .off, overrides: ["Counter.ping()": .trap]))
            useFromAnotherQueue(ownerLabel: "exit.policy.bootstrap") { $0.reset() }   // off: goes on
            useFromAnotherQueue(ownerLabel: "exit.policy.bootstrap2") { $0.ping() }   // trap
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(!stderr.contains("Counter.reset()"))
            #expect(stderr.contains("Counter.ping() used outside its owner"))
        }
    }
}

import Dispatch
import Schedulable
import Testing

/// `@ScheduleProtected`, the design card's spelling, is `@Confined` under another name: the same
/// initialisers, the same checks, the same reports, the same options, the same release layout.
@Suite("@ScheduleProtected")
struct ScheduleProtectedTests {
    /// Written the way the design card writes it. `@unchecked Sendable` because the tests move it
    /// across threads on purpose; the library's checks are what the tests observe.
    final class Ledger: ConfinedObject, @unchecked Sendable {
        let confinement: Confinement
        @ScheduleProtected(name: "total") var total = 0
        @ScheduleProtected(name: "entries") var entries: [Int] = []
        @ScheduleProtected var note = ""
        static let noteLine = #line - 1

        init(owner: SerialQueueScheduler, options: ConfinementOptions<Ledger> = .default) {
            confinement = Confinement(owner: owner, options: options)
        }
    }

    /// A ledger for `owner` with `recorder` as its handler, past its construction window, so that
    /// from here on only the owner passes.
    func settledLedger(
        owner: SerialQueueScheduler, recorder: ViolationRecorder, options: ConfinementOptions<Ledger> = .default
    ) -> Ledger {
        let ledger = withConfinementViolationHandler(recorder) { Ledger(owner: owner, options: options) }
        ledger.confinement.endConstruction()
        return ledger
    }

    @Test func isTheConfinedWrapper() {
        #expect(ScheduleProtected<Int>.self == Confined<Int>.self)
        // Debug tier compiled out (release without ReleaseChecks): the value's bytes and nothing more.
        let expectedSize = ConfinementSystem.debugChecksCompiledIn ? MemoryLayout<Confined<Int>>.size : MemoryLayout<Int>.size
        #expect(MemoryLayout<ScheduleProtected<Int>>.size == expectedSize)
    }

    @Test func ownerAccessPasses() {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "test.protected.owner")
        let ledger = settledLedger(owner: owner, recorder: recorder)
        owner.sync {
            ledger.total += 5
            ledger.entries.append(5)
            ledger.note = "paid"
        }
        #expect(owner.sync { (ledger.total, ledger.entries, ledger.note) } == (5, [5], "paid"))
        #expect(recorder.count == 0)
    }

    /// Each off-owner access is reported once, naming the member; repeated because whether the intruding
    /// queue is seen as "not the owner" must not depend on timing.
    @Test func offOwnerAccessIsReportedNamingTheMember() {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "test.protected.reported")
        let intruder = DispatchQueue(label: "test.protected.intruder")
        for round in 0..<200 {
            let ledger = settledLedger(owner: owner, recorder: recorder)
            let before = recorder.count
            intruder.sync { ledger.total += 1 }             // read-modify-write: one check
            intruder.sync { ledger.entries.append(round) }
            intruder.sync { _ = ledger.note }
            let reported = recorder.violations.dropFirst(before)
            #expect(reported.count == expectedDebugTier(3))
            guard reported.count == 3 else { continue }
            #expect(reported.map(\.kind) == [.wrongContext, .wrongContext, .wrongContext])
            #expect(reported.map(\.objectType) == ["Ledger", "Ledger", "Ledger"])
            #expect(Array(reported.map(\.member).prefix(2)) == ["total", "entries"])
            // Unnamed, the property is named by its field, as `@Confined` does; the detail says where it is declared.
            #expect(reported.last?.member == "note")
            #expect(reported.last?.detail == "property declared at SchedulableTests/ScheduleProtectedTests.swift:\(Ledger.noteLine)")
            #expect(reported.allSatisfy { $0.expectedOwner == "queue \"test.protected.reported\"" })
            #expect(reported.allSatisfy { $0.actualContext.hasPrefix("queue \"test.protected.intruder\"") })
        }
        #expect(recorder.count == expectedDebugTier(600))
    }

    @Test func optionsSelectScheduleProtectedPropertiesByKeyPath() {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "test.protected.options")
        let ledger = settledLedger(owner: owner, recorder: recorder, options: .exclude(.property(\Ledger.entries)))
        // As with `@Confined`, a key path is resolved by reading the property where that is allowed.
        owner.sync { _ = ledger.total }
        let intruder = DispatchQueue(label: "test.protected.options.intruder")
        intruder.sync { ledger.entries.append(1) }
        intruder.sync { _ = ledger.total }
        #expect(recorder.members == (ConfinementSystem.debugChecksCompiledIn ? ["total"] : []))
    }
}

import Dispatch
import Schedulable
import Testing

/// One meaning per verb: the unlabeled argument of `assertIsolated` and `preconditionIsolated` is a
/// message for the report, on every type that has them, as on Swift's actors; a confined object's
/// report still names the guarded method. The message is evaluated only for a report.
@Suite("Check verbs: message")
struct CheckVerbMessageTests {
    /// A guarded method whose guard has a message, and one that counts the message's evaluations.
    final class Ledger: ConfinedObject, @unchecked Sendable {
        // @unchecked: the tests call it from the wrong thread on purpose.
        let confinement: Confinement
        var evaluations = 0

        init(owner: SerialQueueScheduler) {
            confinement = Confinement(owner: owner)
        }

        func save(_ count: Int) {
            assertIsolated("saving \(count) entries")
        }

        func saveAlways() {
            preconditionIsolated("saving always")
        }

        func counted() {
            assertIsolated(message())
        }

        private func message() -> String {
            evaluations += 1
            return "counted"
        }
    }

    private func ledger(_ owner: SerialQueueScheduler, _ recorder: ViolationRecorder) -> Ledger {
        let ledger = withConfinementViolationHandler(recorder) { Ledger(owner: owner) }
        ledger.confinement.endConstruction()
        return ledger
    }

    @Test func aConfinedObjectsMessageIsTheDetailAndTheMemberIsTheGuardedMethod() {
        let recorder = ViolationRecorder()
        let ledger = ledger(SerialQueueScheduler(label: "test.verbs.object"), recorder)
        ledger.save(3)
        guard ConfinementSystem.debugChecksCompiledIn else { return #expect(recorder.count == 0) }
        #expect(recorder.members == ["save(_:)"])
        #expect(recorder.violations.first?.detail == "saving 3 entries")
        #expect(recorder.violations.first?.description.contains("  detail:          saving 3 entries") == true)
    }

    @Test func theMessageIsEvaluatedOnlyForAReport() {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "test.verbs.lazy")
        let ledger = ledger(owner, recorder)
        owner.sync { for _ in 0..<100 { ledger.counted() } }
        #expect(ledger.evaluations == 0)
        ledger.counted()
        #expect(ledger.evaluations == expectedDebugTier(1))
        #expect(recorder.violations.map(\.detail) == (ConfinementSystem.debugChecksCompiledIn ? ["counted"] : []))
    }

    @Test func aBoxAWrapperAndSchedulersTakeTheSameMessage() {
        let recorder = ViolationRecorder()
        let queue = SerialQueueScheduler(label: "test.verbs.queue")
        let thread = ThreadScheduler(label: "test.verbs.thread")
        defer { thread.shutdown() }
        let box = SchedulerBound(0, owner: queue)
        let wrapper = withConfinementViolationHandler(recorder) { SchedulableObject([Int](), on: queue) }
        DispatchQueue(label: "test.verbs.elsewhere").sync {
            withConfinementViolationHandler(recorder) {
                box.assertIsolated("box")
                wrapper.assertIsolated("wrapper")
                queue.assertIsolated("queue")
                thread.assertIsolated("thread")
                MainThreadScheduler.shared.assertIsolated("main")
            }
        }
        guard ConfinementSystem.debugChecksCompiledIn else { return #expect(recorder.count == 0) }
        #expect(recorder.members == Array(repeating: "assertIsolated()", count: 5))
        #expect(recorder.violations.map(\.detail) == ["box", "wrapper", "queue", "thread", "main"])
    }

    /// The always-on verb carries the message into the report printed before the process stops, and
    /// names the guarded method.
    @Test(.exitTest) func preconditionIsolatedPrintsTheMessageAndTheMember() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let ledger = Ledger(owner: SerialQueueScheduler(label: "exit.verbs.object"))
            ledger.confinement.endConstruction()
            ledger.saveAlways()
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(stderr.contains("  member:          saveAlways()"))
            #expect(stderr.contains("  detail:          saving always"))
        }
    }

    @Test(.exitTest) func aSchedulersPreconditionIsolatedPrintsTheMessage() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            SerialQueueScheduler(label: "exit.verbs.queue").preconditionIsolated("queue message")
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(stderr.contains("  member:          preconditionIsolated()"))
            #expect(stderr.contains("  detail:          queue message"))
        }
    }
}

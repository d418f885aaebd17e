import Dispatch
import Schedulable
import Testing

/// A task's construction window ends once the task runs on another executor — an actor, or the main
/// actor entered from elsewhere: the object can then be in use elsewhere, as after a hand-off, and
/// every off-owner access is reported, every time (ThreadingModel, "Construct here, use there"). Each
/// scenario runs 200 times and must give the same answer each time.
@Suite("Construction windows end at an executor hop")
struct ExecutorHopWindowTests {
    static let repetitions = 200

    /// The case issue 54 found: a main-only settings object made by a test and passed into an actor's
    /// method is written there. Reported every time, although the test never touched it on the main actor.
    @Test func aMainOnlyObjectMadeByATestAndWrittenInAnActorIsReported() async {
        let recorder = ViolationRecorder()
        let store = SettingsStore()
        var answers: [Bool: Int] = [:]
        for _ in 0..<Self.repetitions {
            let settings = withConfinementViolationHandler(recorder) { AppSettings() }
            settings.theme = "dark"                         // the test configures it: its window
            answers[await store.adopt(settings), default: 0] += 1
        }
        #expect(answers == [false: Self.repetitions])
        #expect(recorder.count == expectedDebugTier(Self.repetitions))
        #expect(recorder.violations.allSatisfy { $0.member == "theme" })
    }

    /// Made in an actor for a queue owner, used on the main actor by the task that made it: reported; and
    /// back in the actor the window is over for good.
    @Test func madeInAnActorThenUsedOnTheMainActorIsReported() async {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "test.executorhop.actor-to-main")
        let workshop = Workshop()
        var answers: [String: Int] = [:]
        for _ in 0..<Self.repetitions {
            let seen = await workshop.buildThenVisitTheMainActor(owner: owner, recorder: recorder)
            answers["\(seen)", default: 0] += 1
        }
        #expect(answers == ["[true, false, false]": Self.repetitions])
        #expect(recorder.count == expectedDebugTier(2 * Self.repetitions))
    }

    /// Made on the main actor for a queue owner, used in an actor: reported every time.
    @Test @MainActor func madeOnTheMainActorThenUsedInAnActorIsReported() async {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "test.executorhop.main-to-actor")
        let workshop = Workshop()
        var answers: [String: Int] = [:]
        for _ in 0..<Self.repetitions {
            let counter = withConfinementViolationHandler(recorder) { Counter(owner: owner) }
            counter.ping()                                   // building it here: no report
            let before = counter.confinement.isIsolated
            let inActor = await workshop.use(counter)
            answers["\([before, inActor])", default: 0] += 1
        }
        #expect(answers == ["[true, false]": Self.repetitions])
        #expect(recorder.count == expectedDebugTier(Self.repetitions))
    }

    /// Made in a task on the pool, used by that task inside an actor: reported; the task's later use,
    /// back on the pool, too.
    @Test func madeOnThePoolThenUsedInAnActorIsReportedAndTheWindowStaysClosed() async {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "test.executorhop.pool-to-actor")
        let workshop = Workshop()
        var answers: [String: Int] = [:]
        for _ in 0..<Self.repetitions {
            let seen = await Task.detached { () -> [Bool] in
                let counter = withConfinementViolationHandler(recorder) { Counter(owner: owner) }
                counter.increment()
                let before = counter.confinement.isIsolated
                let inActor = await workshop.use(counter)
                counter.ping()
                return [before, inActor, counter.confinement.isIsolated]
            }.value
            answers["\(seen)", default: 0] += 1
        }
        #expect(answers == ["[true, false, false]": Self.repetitions])
        #expect(recorder.count == expectedDebugTier(2 * Self.repetitions))
    }

    /// The window is the executor's, not the thread's: an actor's own suspensions keep it open (the
    /// actor may resume on another pool thread), and nothing is reported.
    @Test func anActorKeepsItsWindowAcrossItsOwnSuspensions() async {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "test.executorhop.same-actor")
        let workshop = Workshop()
        var answers: [String: Int] = [:]
        for _ in 0..<Self.repetitions {
            let seen = await workshop.buildAcrossSuspensions(owner: owner, recorder: recorder)
            answers["\(seen)", default: 0] += 1
        }
        #expect(answers == ["[true, true]": Self.repetitions])
        #expect(recorder.count == 0)
    }
}

/// A settings object that belongs to the main thread, shared across isolation domains on purpose: what
/// a Swift 6 codebase writes when the compiler asks for `Sendable`.
final class AppSettings: ConfinedObject, @unchecked Sendable {
    let confinement = Confinement()
    @Confined var theme = "light"
}

/// An actor that takes the settings and writes them: the mistake issue 54 found.
actor SettingsStore {
    private var current: AppSettings?

    /// Keeps `settings` and writes it here, off the main thread; says whether it was isolated here.
    func adopt(_ settings: AppSettings) -> Bool {
        current = settings
        settings.theme = "store"
        return settings.confinement.isIsolated
    }
}

/// An actor that builds and uses counters owned by a queue elsewhere.
actor Workshop {
    /// Uses `counter` here; whether it was isolated here.
    func use(_ counter: Counter) -> Bool {
        counter.ping()
        return counter.confinement.isIsolated
    }

    /// Builds a counter here, uses it on the main actor, then here again: whether it was isolated
    /// before, on the main actor and after.
    func buildThenVisitTheMainActor(owner: SerialQueueScheduler, recorder: ViolationRecorder) async -> [Bool] {
        let counter = withConfinementViolationHandler(recorder) { Counter(owner: owner) }
        counter.increment()
        let before = counter.confinement.isIsolated
        let onMain = await MainActor.run { () -> Bool in
            counter.ping()
            return counter.confinement.isIsolated
        }
        counter.ping()
        return [before, onMain, counter.confinement.isIsolated]
    }

    /// Builds a counter here and uses it after suspending (the actor stays this one).
    func buildAcrossSuspensions(owner: SerialQueueScheduler, recorder: ViolationRecorder) async -> [Bool] {
        await buildAndUseAcrossSuspensions(owner: owner, recorder: recorder)
    }
}

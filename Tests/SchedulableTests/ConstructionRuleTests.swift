import Dispatch
import Schedulable
import Testing

/// The construction window ends at a point the program decides, never one that timing decides: when the
/// creating thread hands work to a library scheduler, when the owner first uses the object, or when the
/// code says so (`endConstruction()`).
@Suite("Construction rule", .expectsNotes)
struct ConstructionRuleTests {
    /// The README's example, as it was caught 0 to 199 times in 200: created here for `uploads`, a block
    /// scheduled there, then a call from here. The call is reported every time, whether or not the
    /// block has run yet.
    @Test func theReadmeExampleIsReported200TimesOutOf200() {
        let uploads = SerialQueueScheduler(label: "test.construction.readme")
        let recorder = ViolationRecorder()
        var answers: [Bool] = []
        for _ in 0..<200 {
            let queue = withConfinementViolationHandler(recorder) { Counter(owner: uploads) }
            uploads.schedule { queue.ping() }            // fine: runs on the owner
            answers.append(queue.isIsolated)             // never a "yes" here any more, in every build
            queue.ping()                                 // reported: wrong thread
        }
        uploads.sync {}
        #expect(answers == Array(repeating: false, count: 200))
        #expect(recorder.count == expectedDebugTier(200))
        #expect(recorder.violations.allSatisfy { $0.member == "ping()" && $0.actualContext.contains("thread") })
    }

    @Test func everyKindOfHandOffEndsTheWindow() {
        let owner = SerialQueueScheduler(label: "test.construction.handoff")
        let other = ThreadScheduler(label: "test.construction.other")
        defer { other.shutdown() }
        let handOffs: [(String, @Sendable () -> Void)] = [
            ("schedule on another scheduler", { other.schedule {} }),
            ("sync on another scheduler", { other.sync {} }),
            ("a future", { _ = other.future { 1 } }),
            ("delayed work", { other.schedule(after: .milliseconds(1)) {} }),
            ("the main thread scheduler", { MainThreadScheduler.shared.schedule {} }),
        ]
        for (name, handOff) in handOffs {
            for _ in 0..<50 {
                let counter = Counter(owner: owner)
                #expect(counter.isIsolated, "before \(name): the creating thread may still build it")
                handOff()
                #expect(!counter.isIsolated, "after \(name)")
            }
        }
    }

    @Test func theInitializerAndTheBuildingThreadStillPassUntilAHandOff() {
        let owner = SerialQueueScheduler(label: "test.construction.init")
        let recorder = ViolationRecorder()
        for _ in 0..<200 {
            let counter = withConfinementViolationHandler(recorder) { Counter(owner: owner) }
            counter.ping()                               // configuring it here: no report
            counter.items.append(1)
        }
        #expect(recorder.count == 0)
    }

    @Test func endConstructionEndsTheWindowExplicitly() {
        let owner = SerialQueueScheduler(label: "test.construction.explicit")
        for _ in 0..<200 {
            let counter = Counter(owner: owner)
            #expect(counter.isIsolated)
            counter.confinement.endConstruction()
            #expect(!counter.isIsolated)
            #expect(owner.sync { counter.isIsolated })
        }
    }
}

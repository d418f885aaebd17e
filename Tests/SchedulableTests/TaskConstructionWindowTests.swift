import CSchedulableContext
import Dispatch
import Foundation
import Schedulable
import Testing

/// An object built inside a task may be used by that task before its owner does — on whatever thread
/// the task resumes — and by nothing else; a pool thread outside any task gives no window at all.
/// Every scenario runs 200 times and must give the same answer each time.
@Suite("Construction windows of tasks")
struct TaskConstructionWindowTests {
    static let repetitions = 200

    /// Configure, suspend (the task may resume on another pool thread), configure again: never reported.
    @Test func theCreatingTaskKeepsItsWindowAcrossSuspensions() async {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "test.taskwindow.owner")
        var answers: [String: Int] = [:]
        for _ in 0..<Self.repetitions {
            let seen = await Task.detached { await buildAndUseAcrossSuspensions(owner: owner, recorder: recorder) }.value
            answers["\(seen)", default: 0] += 1
        }
        #expect(answers == ["[true, true]": Self.repetitions])
        #expect(recorder.count == 0)
    }

    /// Another task — even one that runs on the thread that built the object — is reported, every time.
    @Test func anotherTaskIsReportedDuringTheWindow() async {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "test.taskwindow.other")
        var answers: [Bool: Int] = [:]
        for _ in 0..<Self.repetitions {
            let counter = await Task.detached { withConfinementViolationHandler(recorder) { Counter(owner: owner) } }.value
            let elsewhere = await Task.detached { () -> Bool in
                counter.ping()
                return counter.confinement.isIsolated
            }.value
            answers[elsewhere, default: 0] += 1
            counter.ping()                  // this test's own task is not the one that built it either
        }
        #expect(answers == [false: Self.repetitions])
        #expect(recorder.count == expectedDebugTier(2 * Self.repetitions))
    }

    /// The README's example inside a task: once the task hands work to the owner, the task's own later
    /// use is reported, whether or not the scheduled work ran yet.
    @Test func aHandOffEndsTheTasksWindow() async {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "test.taskwindow.handoff")
        var answers: [String: Int] = [:]
        for _ in 0..<Self.repetitions {
            let seen = await Task.detached { () -> [Bool] in
                let counter = withConfinementViolationHandler(recorder) { Counter(owner: owner) }
                let during = counter.confinement.isIsolated
                owner.schedule { counter.increment() }
                await Task.yield()
                counter.ping()
                return [during, counter.confinement.isIsolated]
            }.value
            answers["\(seen)", default: 0] += 1
        }
        owner.sync {}
        #expect(answers == ["[true, false]": Self.repetitions])
        #expect(recorder.count == expectedDebugTier(Self.repetitions))
    }

    /// Global-queue work is no task and no serial context: an object built there for an owner elsewhere
    /// has no window, so its use there is reported — the next block on that worker is unrelated code.
    @Test func aPoolThreadOutsideAnyTaskGetsNoWindow() {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "test.taskwindow.pool")
        let answers = LockedList<Bool>()
        let group = DispatchGroup()
        for _ in 0..<Self.repetitions {
            DispatchQueue.global().async(group: group) {
                let counter = withConfinementViolationHandler(recorder) { Counter(owner: owner) }
                counter.ping()
                answers.append(counter.confinement.isIsolated)
            }
        }
        group.wait()
        #expect(answers.elements == Array(repeating: false, count: Self.repetitions))
        #expect(recorder.count == expectedDebugTier(Self.repetitions))
    }

    /// A window lives as long as records are in it, plus the one each pool thread caches: a thousand
    /// tasks that each build and free an object leave a handful of windows, not a thousand; a task's
    /// kept records keep its window until they leave it. In a process of its own, so no other test's
    /// windows are counted.
    @Test(.exitTest) func windowsDoNotOutliveTheirRecordsAndThreads() async {
        await #expect(processExitsWith: .success) {
            let owner = SerialQueueScheduler(label: "exit.taskwindow.table")
            func count() -> Int { TaskConstructionWindows.openCount }
            for _ in 0..<1_000 { await Task.detached { _ = Counter(owner: owner) }.value }
            guard count() <= 64 else { exit(2) }
            let kept = await Task.detached { (0..<100).map { _ in Counter(owner: owner) } }.value
            guard count() >= 1 else { exit(3) }
            // The records leave the window (the owner's first use, or endConstruction): the table is
            // back to the cached windows alone.
            for (index, counter) in kept.enumerated() {
                if index.isMultiple(of: 2) { owner.sync { counter.incrementAlways() } } else { counter.confinement.endConstruction() }
            }
            guard count() <= 64 else { exit(4) }
        }
    }
}

/// Builds a counter for `owner`, uses it, suspends (the task may resume on another pool thread) and
/// uses it again, on the caller's executor throughout (`isolation`): whether it was isolated before and
/// after. Called from a task on the pool and from inside an actor.
func buildAndUseAcrossSuspensions(
    owner: SerialQueueScheduler, recorder: ViolationRecorder, isolation: isolated (any Actor)? = #isolation
) async -> [Bool] {
    let counter = withConfinementViolationHandler(recorder) { Counter(owner: owner) }
    counter.increment()
    let before = counter.confinement.isIsolated
    await Task.yield()
    try? await Task.sleep(nanoseconds: 10_000)
    counter.increment()
    return [before, counter.confinement.isIsolated]
}

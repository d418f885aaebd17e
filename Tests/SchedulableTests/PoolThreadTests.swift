import Dispatch
import Foundation
import Schedulable
import Testing

/// Threads the library does not own — GCD workers moving between unrelated queues, the global queues,
/// Swift's cooperative pool — never carry a pass from one piece of work into another.
@Suite("Pool threads gain no identity")
struct PoolThreadTests {
    /// An object built inside a raw serial queue's block, on a GCD worker, gets no construction window:
    /// nothing shows where that block ends, so a window would pass whatever later block happened to
    /// run on that worker. Its use there is reported, and so are blocks of four unrelated queues (some
    /// land on that same worker) and later blocks of the same queue, every time. They used to pass
    /// whenever they landed on the worker that built it.
    @Test func rawDispatchWorkGivesNoWindow() {
        let owner = SerialQueueScheduler(label: "test.pool.owner")
        let recorder = ViolationRecorder()
        let builder = DispatchQueue(label: "test.pool.builder")
        // `async` + wait, not `sync`, so the object is built on a worker, not on this thread (or task).
        let made = LockedList<Counter>()
        let built = DispatchSemaphore(value: 0)
        builder.async {
            let counter = withConfinementViolationHandler(recorder) { Counter(owner: owner) }
            made.append(counter)
            counter.ping()                                 // raw work: no window, reported
            built.signal()
        }
        built.wait()
        let counter = made.elements[0]
        #expect(recorder.count == expectedDebugTier(1))
        let unrelated = (0..<4).map { DispatchQueue(label: "test.pool.unrelated.\($0)") }
        let group = DispatchGroup()
        for index in 0..<200 {
            (index.isMultiple(of: 5) ? builder : unrelated[index % 4]).async(group: group) { counter.ping() }
        }
        group.wait()
        #expect(recorder.count == expectedDebugTier(201))
    }

    /// In library work the window lasts while the work that built the object runs — a nested `sync`
    /// included — and the scheduler's next piece of work, on whatever thread, has none. 200 times.
    @Test func libraryWorkKeepsItsWindowUntilItEnds() {
        let owner = SerialQueueScheduler(label: "test.pool.window.owner")
        let builder = SerialQueueScheduler(label: "test.pool.window.builder")
        let helper = DispatchQueue(label: "test.pool.window.helper")
        let answers = LockedList<String>()
        for _ in 0..<200 {
            // Two events of one scheduler, usually drained by the same worker one after the other; the
            // hand-offs happen on this thread, so nothing on the worker ends the first one's window.
            let made = LockedList<Counter>()
            builder.schedule {
                let counter = Counter(owner: owner)
                made.append(counter)
                answers.append("during \(counter.isIsolated) \(helper.sync { counter.isIsolated })")
            }
            builder.schedule { answers.append("next \(made.elements[0].isIsolated)") }
        }
        builder.sync {}
        let counts = Dictionary(answers.elements.map { ($0, 1) }, uniquingKeysWith: +)
        #expect(counts == ["during true true": 200, "next false": 200])
    }

    /// A detached object first used on a global queue is not bound to that worker: the use is reported
    /// as a context that is not serial, every time, and `isIsolated` says no there. Its first use on a
    /// serial scheduler binds it.
    @Test func aDetachedObjectIsNotBoundToAGlobalQueueWorker() {
        let recorder = ViolationRecorder()
        let counter = withConfinementViolationHandler(recorder) { Counter(confinement: .detached()) }
        let answers = LockedList<Bool>()
        let group = DispatchGroup()
        for _ in 0..<200 {
            DispatchQueue.global().async(group: group) {
                answers.append(counter.isIsolated)
                counter.ping()
            }
        }
        group.wait()
        #expect(answers.elements == Array(repeating: false, count: 200))
        #expect(recorder.count == expectedDebugTier(200))
        #expect(recorder.violations.allSatisfy { $0.kind == .concurrentQueue })
        #expect(counter.confinement.owner == nil)
        let owner = SerialQueueScheduler(label: "test.pool.binds-later")
        owner.sync { counter.incrementAlways() }           // the always-on tier: it binds in every build
        #expect(counter.confinement.owner === owner.executionContext)
    }

    /// The same in a task on the cooperative pool.
    @Test func aDetachedObjectIsNotBoundToACooperativePoolThread() async {
        let recorder = ViolationRecorder()
        let counter = withConfinementViolationHandler(recorder) { Counter(confinement: .detached()) }
        for _ in 0..<200 {
            await Task.detached { counter.ping() }.value
        }
        #expect(recorder.count == expectedDebugTier(200))
        #expect(counter.confinement.owner == nil)
    }
}

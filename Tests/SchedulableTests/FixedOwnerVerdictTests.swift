import CSchedulableContext
import Dispatch
import Foundation
import Schedulable
import Testing

/// Fixed owners (`SchedulerBound`, `SchedulableObject`) get the verdict every record gets: a raw `sync`
/// nested in raw work on the owner's queue holds the owner, and only libdispatch's drain lock shows it.
/// Before the verdict was one function their slow path never read it, so on Linux the box said "no"
/// where its scheduler said "yes".
@Suite("Fixed owners: the same verdict as records")
struct FixedOwnerVerdictTests {
    static let repetitions = 200

    @Test(.enabled(if: csched_dispatch_reader_confirmed())) func rawNestingInRawOwnerWorkHoldsTheOwnerForEveryKindOfOwner() {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "test.fixed.owner")
        let inner = DispatchQueue(label: "test.fixed.inner")
        var answers: [String: Int] = [:]
        for _ in 0..<Self.repetitions {
            let box = SchedulerBound(0, owner: owner)
            let wrapper = SchedulableObject(NSObject(), on: owner)
            let seen = owner.queue.sync {
                inner.sync { () -> [Bool] in
                    withConfinementViolationHandler(recorder) {
                        box.assertIsolated()
                        owner.assertIsolated()
                    }
                    return [owner.isIsolated, box.isIsolated, wrapper.isIsolated]
                }
            }
            answers["\(seen)", default: 0] += 1
        }
        #expect(answers == ["[true, true, true]": Self.repetitions])
        #expect(recorder.count == 0)
    }

    /// The same read never says yes off the owner: another queue's raw nesting is reported, every time.
    @Test(.enabled(if: csched_dispatch_reader_confirmed())) func rawNestingElsewhereIsNotTheOwner() {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "test.fixed.strict.owner")
        let unrelated = DispatchQueue(label: "test.fixed.strict.unrelated")
        let inner = DispatchQueue(label: "test.fixed.strict.inner")
        var answers: [String: Int] = [:]
        for _ in 0..<Self.repetitions {
            let box = SchedulerBound(0, owner: owner)
            let seen = unrelated.sync {
                inner.sync { () -> [Bool] in
                    withConfinementViolationHandler(recorder) { box.assertIsolated() }
                    return [owner.isIsolated, box.isIsolated]
                }
            }
            answers["\(seen)", default: 0] += 1
        }
        #expect(answers == ["[false, false]": Self.repetitions])
        #expect(recorder.count == expectedDebugTier(Self.repetitions))
    }
}

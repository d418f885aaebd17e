import CSchedulableContext
import Dispatch
import Foundation
import Schedulable
import Testing

/// Raw `sync` nested in raw work on the owner's queue: the owner is held, and only libdispatch knows.
/// The library reads libdispatch's drain lock (`DispatchQueueState`) instead of asking
/// `dispatchPrecondition`, whose "no" is a trap — so the answer is exact under every handler.
@Suite("libdispatch's own answer, read without trapping")
struct DispatchReaderTests {
    static let repetitions = 200

    @Test func theReaderIsConfirmedWhereTheLayoutIsKnown() {
        #if os(Linux) && (arch(x86_64) || arch(arm64))
        #expect(csched_dispatch_reader_confirmed())
        #else
        #expect(!csched_dispatch_reader_confirmed())
        #endif
    }

    /// The self-check's width observations (serial queues read 1, a concurrent queue more, each queue
    /// its own label) hold at libdispatch's `dq_width` offset and at no other 2-byte offset of the
    /// queue's first 0x60 bytes: had the field moved, the check would fail and the reader turn off
    /// rather than call a concurrent queue serial (or the reverse).
    @Test(.enabled(if: csched_dispatch_reader_confirmed())) func theWidthSelfCheckPassesOnlyAtTheRealOffset() {
        let passing = stride(from: 0, to: 0x60, by: 2).filter { csched_dispatch_width_layout_holds_at($0) }
        #expect(passing == [0x50])
    }

    /// The three shapes only libdispatch sees, each 200 times under a recording (non-trapping) handler:
    /// the query says yes and nothing is reported.
    @Test(.enabled(if: csched_dispatch_reader_confirmed())) func rawNestingInRawOwnerWorkPassesUnderANonTrappingHandler() {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "test.reader.owner")
        let inner = DispatchQueue(label: "test.reader.inner")
        let innermost = DispatchQueue(label: "test.reader.innermost")
        var answers: [String: Int] = [:]
        for _ in 0..<Self.repetitions {
            let counter = withConfinementViolationHandler(recorder) { Counter(owner: owner) }
            counter.confinement.endConstruction()
            let held = owner.queue.sync {
                [
                    inner.sync { counter.ping(); return counter.confinement.isIsolated },
                    inner.sync { innermost.sync { counter.ping(); return counter.confinement.isIsolated } },
                    DispatchQueue.global().sync { counter.ping(); return counter.confinement.isIsolated },
                ]
            }
            answers["\(held)", default: 0] += 1
        }
        #expect(answers == ["[true, true, true]": Self.repetitions])
        #expect(recorder.count == 0)
    }

    /// The same read never says yes elsewhere: not on another queue's raw nesting, not on a thread
    /// blocked for the owner by someone else, not after the nested calls return.
    @Test(.enabled(if: csched_dispatch_reader_confirmed())) func theReadNeverPassesCodeOutsideTheOwner() {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "test.reader.strict.owner")
        let unrelated = DispatchQueue(label: "test.reader.strict.unrelated")
        let inner = DispatchQueue(label: "test.reader.strict.inner")
        var answers: [String: Int] = [:]
        for _ in 0..<Self.repetitions {
            let counter = withConfinementViolationHandler(recorder) { Counter(owner: owner) }
            counter.confinement.endConstruction()
            let seen = [
                unrelated.sync { inner.sync { counter.confinement.isIsolated } },
                owner.queue.sync { inner.sync { () -> Bool in
                    // A plain thread started here runs while the owner's queue is held — by another thread.
                    let other = LockedList<Bool>()
                    onPlainThread { other.append(counter.confinement.isIsolated) }
                    return other.elements == [true]
                } },
                counter.confinement.isIsolated,
            ]
            answers["\(seen)", default: 0] += 1
            unrelated.sync { inner.sync { counter.ping() } }
        }
        #expect(answers == ["[false, false, false]": Self.repetitions])
        #expect(recorder.count == expectedDebugTier(Self.repetitions))
    }

    /// A library `sync` onto the owner from raw nesting inside the owner's own work runs inline (the
    /// queue is held: waiting for it would never end), 200 times.
    @Test(.enabled(if: csched_dispatch_reader_confirmed())) func aLibrarySyncOntoTheHeldOwnerRunsInline() {
        let owner = SerialQueueScheduler(label: "test.reader.inline")
        let inner = DispatchQueue(label: "test.reader.inline.inner")
        var inline = 0
        for _ in 0..<Self.repetitions {
            let ranInline: Bool = owner.queue.sync {
                inner.sync { () -> Bool in
                    let caller = csched_os_thread_id()
                    return owner.sync { () -> Bool in csched_os_thread_id() == caller && owner.isIsolated }
                }
            }
            if ranInline { inline += 1 }
        }
        #expect(inline == Self.repetitions)
    }

    /// Raw nesting inside raw work on a tree, then a library `sync` onto one of its branches: the
    /// branch cannot start while the tree is held, so it is a deadlock report — never a hang.
    @Test(.exitTest, .enabled(if: csched_dispatch_reader_confirmed())) func aLibrarySyncOntoABranchOfTheHeldTreeIsADeadlockReport() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let tree = SerialQueueScheduler(label: "exit.reader.tree")
            let branch = tree.branch("leaf")
            tree.queue.sync {
                DispatchQueue(label: "exit.reader.unrelated").sync { branch.sync {} }
            }
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(stderr.contains("Schedulable: waiting here would deadlock"))
            #expect(stderr.contains("expected owner:  queue \"exit.reader.tree.leaf\""))
        }
    }

    /// With the reader off (as on Darwin, or a libdispatch whose layout differs), the fallback holds:
    /// where a report would trap, `dispatchPrecondition` arbitrates and the blocked owner's access
    /// passes; under a recording handler the same access is reported (the documented limit).
    @Test(.exitTest) func withTheReaderOffTheTrapFallbackStillArbitrates() async {
        await #expect(processExitsWith: .success) {
            setenv("SCHEDULABLE_DISABLE_DISPATCH_READER", "1", 1)
            guard !csched_dispatch_reader_confirmed() else { exit(3) }
            let owner = SerialQueueScheduler(label: "exit.reader.off.owner")
            let recorder = ViolationRecorder()
            let counter = withConfinementViolationHandler(recorder) { Counter(owner: owner) }
            let trapping = Counter(owner: owner)
            counter.confinement.endConstruction()
            trapping.confinement.endConstruction()
            owner.queue.sync {
                DispatchQueue(label: "exit.reader.off.inner").sync {
                    trapping.incrementAlways()     // ends in a trap: libdispatch is asked, and it passes
                    counter.ping()                 // debug tier, recording handler: cannot ask, reported
                }
            }
            guard recorder.count == expectedDebugTier(1) else { exit(4) }
        }
    }
}

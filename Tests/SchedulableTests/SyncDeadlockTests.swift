import Dispatch
import Schedulable
import Testing

/// A `sync` that could never return is a report before libdispatch is entered — never a silent crash
/// inside libdispatch (Linux prints nothing there) and never a hang.
@Suite("Self-deadlocks of sync")
struct SyncDeadlockTests {
    @Test(.exitTest) func aBranchSyncFromItsTreeIsReported() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let tree = SerialQueueScheduler(label: "exit.sync.tree")
            let branch = tree.branch("leaf")
            tree.sync { branch.sync {} }
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(stderr.contains("Schedulable: waiting here would deadlock"))
            #expect(stderr.contains("expected owner:  queue \"exit.sync.tree.leaf\""))
            #expect(stderr.contains("actual context:  queue \"exit.sync.tree\""))
        }
    }

    @Test(.exitTest) func aSyncIntoASiblingBranchIsReported() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let tree = SerialQueueScheduler(label: "exit.sync.siblings")
            let first = tree.branch("first")
            let second = tree.branch("second")
            first.sync { second.sync {} }
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(stderr.contains("Schedulable: waiting here would deadlock"))
            #expect(stderr.contains("expected owner:  queue \"exit.sync.siblings.second\""))
        }
    }

    @Test(.exitTest) func aSyncFromRawWorkOnTheTreeIsReported() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let tree = SerialQueueScheduler(label: "exit.sync.raw")
            let branch = tree.branch("leaf")
            tree.queue.sync { branch.sync {} }
        }.map { result in
            #expect(standardErrorText(result).contains("Schedulable: waiting here would deadlock"))
        }
    }

    @Test func syncsThatCanReturnStillDo() {
        let tree = SerialQueueScheduler(label: "test.sync.fine")
        let branch = tree.branch("leaf")
        let other = SerialQueueScheduler(label: "test.sync.other")
        for _ in 0..<200 {
            #expect(branch.sync { tree.sync { tree.isIsolated } })        // on the branch, the tree is held: inline
            #expect(tree.sync { other.sync { other.isIsolated && tree.isIsolated } })   // another tree: a real hop
            #expect(branch.sync { branch.sync { branch.isIsolated } })    // itself: inline
        }
    }
}

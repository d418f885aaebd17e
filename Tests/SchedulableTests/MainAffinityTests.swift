import Dispatch
import Foundation
import Schedulable
import Testing

/// Main-thread affinity is thread affinity: a blocked main caller proves exclusion, never turns the
/// thread that works on its behalf into the main thread. (The main queue is drained by `dispatchMain()`
/// in the test process, so these run in exit tests of their own, as the other main-queue tests do.)
@Suite("Main-thread affinity")
struct MainAffinityTests {
    @Test(.exitTest) func workOnMainsBehalfElsewhereIsNotMainButAQueueOwnersLentChainStillHolds() async {
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            DispatchQueue.main.async {
                let business = ThreadScheduler(label: "exit.affinity.business")
                let tree = SerialQueueScheduler(label: "exit.affinity.tree")
                var wrong = 0
                for _ in 0..<100 {
                    // On main's behalf, on the business thread: not the main thread.
                    if business.sync({ MainThreadScheduler.shared.isIsolated }) { wrong += 1 }
                    // On a queue owner's behalf: exclusion holds, the queue owner passes.
                    if !tree.sync({ business.sync { tree.isIsolated } }) { wrong += 1 }
                }
                business.shutdown()
                exit(wrong == 0 ? 0 : 5)
            }
            try? await Task.sleep(for: .seconds(30))
            exit(7)
        }
    }

    @Test(.exitTest) func aSyncBackOntoMainFromWorkOnMainsBehalfIsReportedAsADeadlock() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            DispatchQueue.main.async {
                let business = ThreadScheduler(label: "exit.affinity.deadlock")
                _ = business.sync { MainThreadScheduler.shared.sync { 1 } }
                exit(0)   // reached only if the call ran main's work on the business thread
            }
            try? await Task.sleep(for: .seconds(30))
            exit(7)
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(stderr.contains("Schedulable: waiting here would deadlock"))
            #expect(stderr.contains("expected owner:  main thread"))
            #expect(stderr.contains("actual context:  thread scheduler \"exit.affinity.deadlock\""))
            #expect(stderr.contains("runs on behalf of it while it is blocked waiting"))
        }
    }
}

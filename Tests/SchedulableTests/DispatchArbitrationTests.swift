import Dispatch
import Foundation
import Testing

@testable import Schedulable

/// When a failing check asks libdispatch (`dispatchPrecondition`) and when it reports on its own
/// evidence — printed before anything traps, so a debugger that stops at the trap shows it.
@Suite("Dispatch arbitration: asked only where the library cannot account for the queue")
struct DispatchArbitrationTests {
    @Test func libraryFramesPlainThreadsAndGlobalWorkersAreAccountedFor() {
        for _ in 0..<20 {
            let thread = ThreadScheduler(label: "test.arbitration.thread")
            let tree = SerialQueueScheduler(label: "test.arbitration.tree")
            let branch = tree.branch("leaf")
            #expect(thread.sync { CurrentExecution.mayHoldQueuesUnseen } == false)
            #expect(tree.sync { CurrentExecution.mayHoldQueuesUnseen } == false)
            #expect(branch.sync { CurrentExecution.mayHoldQueuesUnseen } == false)
            #expect(resultOnQueue(tree.queue, wrappedIn: tree) { CurrentExecution.mayHoldQueuesUnseen } == false)
            #expect(resultOnQueue(DispatchQueue.global()) { CurrentExecution.mayHoldQueuesUnseen } == false)
            thread.shutdown()
        }
        let unseenOnPlainThread = ManagedCounter()
        onPlainThread { if CurrentExecution.mayHoldQueuesUnseen { unseenOnPlainThread.add() } }
        #expect(unseenOnPlainThread.value == 0)
    }

    @Test func foreignQueuesAndRawWorkAreLeftToLibdispatch() {
        for _ in 0..<20 {
            let tree = SerialQueueScheduler(label: "test.arbitration.raw")
            let thread = ThreadScheduler(label: "test.arbitration.thread2")
            #expect(resultOnQueue(DispatchQueue(label: "test.arbitration.foreign")) { CurrentExecution.mayHoldQueuesUnseen })
            // Raw work on a library queue: it may be a raw `sync` from anywhere.
            #expect(resultOnQueue(tree.queue) { CurrentExecution.mayHoldQueuesUnseen })
            #expect(tree.sync { DispatchQueue(label: "test.arbitration.inner").sync { CurrentExecution.mayHoldQueuesUnseen } })
            #expect(thread.sync { DispatchQueue(label: "test.arbitration.inner2").sync { CurrentExecution.mayHoldQueuesUnseen } })
            thread.shutdown()
        }
    }

    /// A use from another library queue's work: the library knows where it runs, so the handler gets
    /// the violation directly (the library's "report above" trap message follows the report) instead
    /// of a trap inside libdispatch with the report armed for a signal handler.
    @Test(.exitTest) func violationOnAccountedWorkIsReportedByTheHandlerWithoutAskingLibdispatch() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let owner = SerialQueueScheduler(label: "exit.printfirst.owner")
            let other = SerialQueueScheduler(label: "exit.printfirst.other")
            let counter = Counter(owner: owner)
            owner.sync { counter.incrementAlways() }
            other.sync { counter.incrementAlways() }
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(stderr.contains("Counter.incrementAlways() used outside its owner"))
            #expect(stderr.contains("actual context:  queue \"exit.printfirst.other\""))
            // The library's own trap message (the trap handler's, or the precondition tier's after
            // the log handler): the report went through the handler, printed first — not through
            // libdispatch, whose trap would leave only the report armed for the signal handler.
            #expect(stderr.contains("Schedulable: Counter.incrementAlways()"))
            #expect(stderr.contains("(report above)"))
        }
    }

    /// Raw `sync` nested in main-queue work that `dispatchMain()` drains on a worker thread: only
    /// libdispatch knows the main queue is held there. Where the outcome would be a trap it is asked, and
    /// a main-owned object passes — the trap side of the matrix's main × nestedRawSyncInRawWork cell.
    @Test(.exitTest) func rawSyncInsideMainQueueWorkPassesMainOwnedChecksWhereChecksTrap() async {
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            DispatchQueue.main.async {
                let counter = Counter(owner: MainThreadScheduler.shared)
                counter.confinement.endConstruction()
                DispatchQueue(label: "exit.mainraw.inner").sync {
                    counter.ping()               // debug tier, default trap handler
                    counter.incrementAlways()    // precondition tier
                }
                exit(0)
            }
            try? await Task.sleep(for: .seconds(30))
            exit(7)
        }
    }

    /// The same nesting away from the main queue: libdispatch says no, and the report is printed.
    @Test(.exitTest) func rawSyncInsideOtherQueueWorkStillTrapsWithTheReportForAMainOwnedObject() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let counter = Counter(owner: MainThreadScheduler.shared)
            counter.confinement.endConstruction()
            DispatchQueue(label: "exit.mainraw.unrelated").sync {
                DispatchQueue(label: "exit.mainraw.inner2").sync { counter.incrementAlways() }
            }
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(stderr.contains("Counter.incrementAlways() used outside its owner"))
            #expect(stderr.contains("expected owner:  main thread"))
        }
    }
}

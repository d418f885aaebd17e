import Dispatch
import Testing

@testable import Schedulable

/// The process-wide switches, each tested in a process of its own (they would change the behaviour
/// of every other test running at the same time).
@Suite("Futures: process-wide switches")
struct FutureSystemTests {
    @Test(.exitTest) func theOffSwitchRunsFuturesInlineOnTheirSchedulerAndPresentNeverWaits() async {
        await #expect(processExitsWith: .success) {
            // Any report — a waiting note, a deadlock — fails the child.
            ConfinementSystem.bootstrap(CustomViolationHandler { @Sendable (_: ConfinementViolation) -> Void in exitProcess(10) })
            FutureSystem.defaultEntanglementLevel = .limited(0)
            let thread = ThreadScheduler(label: "exit.inline.thread")
            // From a plain thread: the body has run, on the scheduler, when future returns.
            let fromOutside = thread.future { thread.isIsolated }
            guard fromOutside.isPresent, (try? fromOutside.present()) == true else { exitProcess(11) }
            // On the scheduler itself: the body runs right there, before the next statement (an
            // asynchronous future would be queued behind this event, and present() here would
            // deadlock).
            let order = thread.sync { () -> [Int] in
                let log = OwnerConfined<[Int]>([])
                let future = thread.future { log.value.append(1) }
                log.value.append(2)
                _ = try? future.present()
                return log.value
            }
            guard order == [1, 2] else { exitProcess(12) }
            // Chains and the async value are inline too.
            let chained = thread.future { 2 }.map { $0 * 3 }
            guard chained.isPresent, (try? chained.present()) == 6 else { exitProcess(13) }
            // From a queue: the queue blocks and lends its context to the body.
            let queue = SerialQueueScheduler(label: "exit.inline.queue")
            let lent = queue.sync { (try? thread.future { queue.isIsolated && thread.isIsolated }.present()) ?? false }
            guard lent else { exitProcess(14) }
            // Errors still arrive as errors.
            thread.shutdown()
            guard (try? thread.future { 1 }.present()) == nil else { exitProcess(15) }
        }
    }

    @Test(.exitTest) func theWaitingNoteIsPrintedByTheDefaultHandlerWithoutStoppingTheProcess() async {
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let waiter = ThreadScheduler(label: "exit.note.waiter")
            let owner = ThreadScheduler(label: "exit.note.owner")
            let gate = DispatchSemaphore(value: 0)
            let done = DispatchSemaphore(value: 0)
            owner.schedule { gate.wait() }
            let future = owner.future { 1 }
            waiter.schedule {
                if (try? future.present()) != 1 { exitProcess(20) }
                done.signal()
            }
            // Runs only while the waiter pumps inside present(): the wait is certain.
            waiter.schedule { gate.signal() }
            done.wait()
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(stderr.contains("Schedulable: note: ScheduledFuture<Int>.present() had to wait"))
            #expect(stderr.contains("expected owner:  thread scheduler \"exit.note.owner\""))
        }
    }

    @Test(.exitTest) func turningTheWaitingNoteOffSilencesIt() async {
        await #expect(processExitsWith: .success) {
            ConfinementSystem.bootstrap(CustomViolationHandler { @Sendable (_: ConfinementViolation) -> Void in exitProcess(30) })
            FutureSystem.logsWhenWaitingIsRequired = false
            let waiter = ThreadScheduler(label: "exit.quiet.waiter")
            let owner = ThreadScheduler(label: "exit.quiet.owner")
            let gate = DispatchSemaphore(value: 0)
            let done = DispatchSemaphore(value: 0)
            owner.schedule { gate.wait() }
            let future = owner.future { 1 }
            waiter.schedule {
                if (try? future.present()) != 1 { exitProcess(31) }
                done.signal()
            }
            waiter.schedule { gate.signal() }
            done.wait()
        }
    }
}

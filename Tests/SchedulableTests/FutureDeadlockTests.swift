import CSchedulableContext
import Dispatch
import Testing

@testable import Schedulable

/// `present()` where the work must run reports a deadlock and returns; waiting from a thread
/// scheduler keeps its loop turning, so cross-waiting completes.
@Suite("Futures: deadlocks and waiting", .expectsNotes)
struct FutureDeadlockTests {
    /// Runs `present()` inside `caller`'s work on a future of `target` that is queued behind it, and
    /// checks that it is reported and throws within a bounded time.
    private func expectSelfWaitIsReported(
        target: any SerialScheduler, runOn caller: any SerialScheduler, expectedOwner: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let log = FutureReportLog()
        let future = Slot<ScheduledFuture<Int>>()
        let gate = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let thrown = Slot<FutureError.Reason>()
        let presentLine = Slot<Int>()
        let callerRuns = DispatchSemaphore(value: 0)
        caller.schedule {
            callerRuns.signal()
            gate.wait()
            presentLine.set(#line + 1)
            do { _ = try future.get!.present() } catch { thrown.set(error.futureReason!) }
            finished.signal()
        }
        // Made once the caller's event runs (and so holds the target), so the work cannot have run
        // when present() is called. Waiting for the event to start matters for two branches of one
        // tree: libdispatch keeps no submission order across different queues.
        #expect(wait(callerRuns, seconds: 10), sourceLocation: sourceLocation)
        future.set(withConfinementViolationHandler(log.handler) { target.future { 42 } })
        gate.signal()
        #expect(wait(finished, seconds: 10), "present() hung", sourceLocation: sourceLocation)
        #expect(thrown.get == .wouldDeadlock, sourceLocation: sourceLocation)
        let reports = log.all.filter { $0.kind == .deadlock }
        #expect(reports.count == 1, sourceLocation: sourceLocation)
        #expect(reports.first?.expectedOwner == expectedOwner, sourceLocation: sourceLocation)
        #expect(reports.first?.callSite?.line == presentLine.get, sourceLocation: sourceLocation)
        #expect(reports.first?.description.contains("waiting here would deadlock") == true, sourceLocation: sourceLocation)
        #expect(log.count(of: .waitingRequired) == 0, sourceLocation: sourceLocation)
        // The future itself is fine: it completes once its scheduler is free.
        #expect(try future.get!.present() == 42, sourceLocation: sourceLocation)
    }

    @Test func presentOnTheFuturesOwnThreadSchedulerBeforeTheWorkRanIsReportedAndThrows() throws {
        let scheduler = ThreadScheduler(label: "test.deadlock.thread")
        defer { scheduler.shutdown() }
        try expectSelfWaitIsReported(target: scheduler, runOn: scheduler, expectedOwner: "thread scheduler \"test.deadlock.thread\"")
    }

    @Test func presentOnTheFuturesOwnQueueBeforeTheWorkRanIsReportedAndThrows() throws {
        let scheduler = SerialQueueScheduler(label: "test.deadlock.queue")
        try expectSelfWaitIsReported(target: scheduler, runOn: scheduler, expectedOwner: "queue \"test.deadlock.queue\"")
    }

    @Test func presentFromTheTreeOrASiblingBranchOfTheFuturesBranchIsReported() throws {
        let tree = SerialQueueScheduler(label: "test.deadlock.tree")
        let images = tree.branch("images")
        let text = tree.branch("text")
        // The branch's work drains through the tree, which the caller occupies.
        try expectSelfWaitIsReported(target: images, runOn: tree, expectedOwner: "queue \"test.deadlock.tree.images\"")
        try expectSelfWaitIsReported(target: images, runOn: text, expectedOwner: "queue \"test.deadlock.tree.images\"")
        try expectSelfWaitIsReported(target: tree, runOn: images, expectedOwner: "queue \"test.deadlock.tree\"")
    }

    /// Raw work on the future's queue, then a raw `sync` onto an unrelated queue: only libdispatch
    /// knows the future's queue is held here (its drain lock names this thread). Waiting would never
    /// end — reported and thrown, 200 times, never a hang.
    @Test(.enabled(if: csched_dispatch_reader_confirmed()))
    func presentFromRawNestingInsideRawWorkOnTheFuturesQueueIsReported() throws {
        let scheduler = SerialQueueScheduler(label: "test.deadlock.rawnested")
        let unrelated = DispatchQueue(label: "test.deadlock.rawnested.unrelated")
        let log = FutureReportLog()
        var outcomes: [String: Int] = [:]
        for _ in 0..<200 {
            let outcome = withConfinementViolationHandler(log.handler) {
                scheduler.queue.sync { () -> FutureError.Reason? in
                    let future = scheduler.future { 42 }
                    return unrelated.sync { () -> FutureError.Reason? in
                        do {
                            _ = try future.present()
                            return nil
                        } catch {
                            return error.futureReason
                        }
                    }
                }
            }
            outcomes["\(String(describing: outcome))", default: 0] += 1
        }
        #expect(outcomes == ["Optional(Schedulable.FutureError.Reason.wouldDeadlock)": 200])
        #expect(log.count(of: .deadlock) == 200)
    }

    @Test func presentFromWorkThatABlockedOwnerIsWaitingForIsReported() throws {
        // The queue waits in sync() for the thread scheduler, which then waits for the queue's future.
        let queue = SerialQueueScheduler(label: "test.deadlock.lent.queue")
        let thread = ThreadScheduler(label: "test.deadlock.lent.thread")
        defer { thread.shutdown() }
        let log = FutureReportLog()
        let future = Slot<ScheduledFuture<Int>>()
        let outcome = withConfinementViolationHandler(log.handler) {
            queue.sync { () -> FutureError.Reason? in
                future.set(queue.future { 7 })
                return thread.sync { () -> FutureError.Reason? in
                    do {
                        _ = try future.get!.present()
                        return nil
                    } catch {
                        return error.futureReason
                    }
                }
            }
        }
        #expect(outcome == .wouldDeadlock)
        #expect(log.count(of: .deadlock) == 1)
        #expect(try future.get!.present() == 7)
    }

    @Test(.exitTest, .enabled(if: ConfinementSystem.defaultLevel == .trap))
    func underTheDefaultDebugHandlerAPresentThatWouldDeadlockStopsWithTheReport() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let scheduler = SerialQueueScheduler(label: "exit.deadlock.queue")
            scheduler.sync {
                _ = try? scheduler.future { 1 }.present()
            }
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(stderr.contains("Schedulable: waiting here would deadlock"))
            #expect(stderr.contains("expected owner:  queue \"exit.deadlock.queue\""))
            #expect(stderr.contains("FutureDeadlockTests.swift"))
        }
    }

    @Test(.exitTest, .enabled(if: ConfinementSystem.defaultLevel == .warnOnce))
    func underTheDefaultReleaseHandlerAPresentThatWouldDeadlockIsLoggedAndThrows() async {
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let scheduler = SerialQueueScheduler(label: "exit.deadlock.release")
            let reason = scheduler.sync { () -> FutureError.Reason? in
                do {
                    _ = try scheduler.future { 1 }.present()
                    return nil
                } catch {
                    return (error as? FutureError)?.reason
                }
            }
            if reason != .wouldDeadlock { exitProcess(3) }
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(stderr.contains("Schedulable: waiting here would deadlock"))
        }
    }

    @Test func aThreadSchedulerWaitingInPresentKeepsRunningItsEvents() throws {
        let waiter = ThreadScheduler(label: "test.pump.future.waiter")
        let worker = ThreadScheduler(label: "test.pump.future.worker")
        defer {
            waiter.shutdown()
            worker.shutdown()
        }
        let log = FutureReportLog()
        let order = OwnerConfined<[String]>([])
        let finished = DispatchSemaphore(value: 0)
        let result = Slot<Int>()
        withConfinementViolationHandler(log.handler) {
            waiter.schedule {
                // The work calls back into the waiter synchronously and queues more events on it:
                // both need the waiter's loop to keep turning while it waits.
                // Made inside the log's scope (the scope does not travel with the hop), so the note
                // of the wait it causes on purpose is the log's.
                let future = withConfinementViolationHandler(log.handler) {
                    worker.future { () -> Int in
                        waiter.schedule { order.value.append("queued during the wait") }
                        return waiter.sync { order.value.append("sync from the work"); return 5 }
                    }
                }
                result.set((try? future.present()) ?? -1)
                order.value.append("present returned")
                finished.signal()
            }
        }
        #expect(wait(finished, seconds: 10), "the waiting thread scheduler deadlocked")
        #expect(result.get == 5)
        waiter.sync {}
        // FIFO holds through the pump: the event queued first runs first.
        #expect(order.value == ["queued during the wait", "sync from the work", "present returned"])
        #expect(log.count(of: .deadlock) == 0)
    }

    @Test func assemblyCrossWaitingThroughFuturesCompletes() {
        // POS Assembly: A on blue needs B from red, whose making needs C from blue — each step a
        // future that the previous one waits for with present().
        let blue = ThreadScheduler(label: "test.future.blue")
        let red = ThreadScheduler(label: "test.future.red")
        defer {
            blue.shutdown()
            red.shutdown()
        }
        final class Assembly: ConfinedObject, @unchecked Sendable {
            // @unchecked: the lazy slots are checked (preconditionIsolated) on every use.
            let confinement: Confinement
            let red: ThreadScheduler
            private var a: String?
            private var c: String?
            let blue: ThreadScheduler
            init(blue: ThreadScheduler, red: ThreadScheduler) {
                confinement = Confinement(owner: blue)
                self.blue = blue
                self.red = red
            }
            func makeA() throws -> String {
                preconditionIsolated()
                if let a { return a }
                // The future of the assembly's own work reports to the assembly's handler.
                let handler = confinement.capturedHandler!
                let b = try withConfinementViolationHandler(handler) {
                    red.future {
                        let c = withConfinementViolationHandler(handler) { self.blue.future { try self.makeC() } }
                        return "B(" + (try c.present()) + ")"
                    }
                }.present()
                a = "A(" + b + ")"
                return a!
            }
            func makeC() throws -> String {
                preconditionIsolated()
                if let c { return c }
                c = "C"
                return c!
            }
        }
        let log = FutureReportLog()
        let assembly = withConfinementViolationHandler(log.handler) { Assembly(blue: blue, red: red) }
        let done = DispatchSemaphore(value: 0)
        let result = Slot<String>()
        TestThread {
            result.set((try? withConfinementViolationHandler(log.handler) {
                try blue.future { try assembly.makeA() }.present()
            }) ?? "failed")
            done.signal()
        }.detach()
        #expect(wait(done, seconds: 10), "the Assembly cycle deadlocked")
        #expect(result.get == "A(B(C))")
        #expect(log.count(of: .deadlock) == 0)
    }
}

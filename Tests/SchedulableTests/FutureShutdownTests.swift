import Dispatch
import Testing

@testable import Schedulable

/// A scheduler that breaks the contract: it accepts work and keeps it until `drop()` releases it
/// unrun (or, with `holds == false`, releases it at once).
private final class DroppingScheduler: SerialScheduler {
    let label = "test.dropping"
    let executionContext = ExecutionContext.Runner(label: "test.dropping").context
    private let held = LockedValue<[@Sendable () -> Void]>([])
    private let holds: Bool

    init(holds: Bool) {
        self.holds = holds
    }

    func trySchedule(_ work: @escaping @Sendable () -> Void) throws(ScheduleRejection) {
        if holds { held.withLock { $0.append(work) } }
    }

    func drop() {
        let released = held.withLock { held in
            defer { held = [] }
            return held
        }
        _ = released  // Released here, unrun.
    }
}

/// A confined tally that checks, always, that every future body runs on its owner. Not `Sendable`:
/// producers reach it through a `SchedulableObject`.
private final class Tally: ConfinedObject {
    let confinement: Confinement
    private var next: [Int]
    private(set) var outOfOrder = 0
    private(set) var runs = 0

    init(owner: some SerialScheduler, producers: Int) {
        confinement = Confinement(owner: owner)
        next = [Int](repeating: 0, count: producers)
    }

    func record(producer: Int, sequence: Int) -> Int {
        preconditionIsolated()
        if next[producer] != sequence { outOfOrder += 1 }
        next[producer] = sequence + 1
        runs += 1
        return sequence
    }

    func totals() -> (runs: Int, outOfOrder: Int) {
        preconditionIsolated()
        return (runs, outOfOrder)
    }
}

@Suite("Futures: shutdown and load", .expectsNotes)
struct FutureShutdownTests {
    @Test func aFutureMadeAfterShutdownCompletesAtOnceWithARejection() throws {
        let scheduler = ThreadScheduler(label: "test.future.closed")
        scheduler.shutdown()
        let future = scheduler.future { 1 }
        #expect(future.isPresent)
        let error = try #require(throws: FutureError.self) { try future.present() }
        #expect(error.reason == .rejected)
        #expect(error.schedulerLabel == "test.future.closed")
        #expect(error.description.contains("was shut down"))
        // Chained work on a closed scheduler fails the same way instead of waiting forever.
        #expect(throws: FutureError.self) { try future.map { $0 + 1 }.present() }
    }

    @Test func shutdownMidFlightRunsEveryAcceptedFutureOnceAndRejectsTheRest() {
        let producers = 4
        let scheduler = ThreadScheduler(label: "test.future.midflight")
        let ran = AtomicCell()
        let succeeded = AtomicCell()
        let rejected = AtomicCell()
        let wrong = AtomicCell()
        let inFlight = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let notes = FutureReportLog()
        for _ in 0..<producers {
            TestThread {
                var futures: [(Int, ScheduledFuture<Int>)] = []
                var rejectionsSeen = 0
                var sequence = 0
                // Make futures until the shutdown shows, then a few more, so every producer races it.
                while rejectionsSeen < 20 {
                    let index = sequence
                    // In the notes' scope: presenting futures still in flight waits on purpose.
                    let future = withConfinementViolationHandler(notes.handler) {
                        scheduler.future { () -> Int in
                            ran.add(1)
                            return index
                        }
                    }
                    futures.append((index, future))
                    if sequence == 200 { inFlight.signal() }
                    if future.isPresent, (try? future.present()) == nil { rejectionsSeen += 1 }
                    sequence += 1
                }
                if sequence <= 200 { inFlight.signal() }
                for (index, future) in futures {
                    do {
                        if try future.present() == index { succeeded.add(1) } else { wrong.add(1) }
                    } catch {
                        if error.futureReason == .rejected { rejected.add(1) } else { wrong.add(1) }
                    }
                }
                finished.signal()
            }.detach()
        }
        for _ in 0..<producers { _ = wait(inFlight, seconds: 10) }
        scheduler.shutdown()
        var allFinished = true
        for _ in 0..<producers { allFinished = wait(finished, seconds: 20) && allFinished }
        #expect(allFinished, "a present() hung after shutdown")
        #expect(Int(wrong.loadRelaxed()) == 0)
        #expect(Int(succeeded.loadRelaxed()) == Int(ran.loadRelaxed()))
        #expect(Int(rejected.loadRelaxed()) >= producers * 20)
        #expect(Int(succeeded.loadRelaxed()) >= producers * 200)
    }

    @Test func workDroppedByABrokenSchedulerFailsTheFutureInsteadOfHanging() throws {
        let dropsAtOnce = DroppingScheduler(holds: false)
        let error = try #require(throws: FutureError.self) { try dropsAtOnce.future { 1 }.present() }
        #expect(error.reason == .discarded)

        // Dropped while a caller waits: the caller wakes with the error.
        let dropsLater = DroppingScheduler(holds: true)
        let log = FutureReportLog { report in
            if report.kind == .waitingRequired { dropsLater.drop() }
        }
        let future = withConfinementViolationHandler(log.handler) { dropsLater.future { 1 } }
        let finished = DispatchSemaphore(value: 0)
        let reason = Slot<FutureError.Reason>()
        TestThread {
            do { _ = try future.present() } catch { reason.set(error.futureReason!) }
            finished.signal()
        }.detach()
        #expect(wait(finished, seconds: 10), "present() hung on dropped work")
        #expect(reason.get == .discarded)
    }

    @Test func manyProducersMakingFuturesOnOneOwnerAllCompleteExactlyOnceInPerProducerOrder() throws {
        let producers = 4
        let perProducer = 10_000
        let owner = ThreadScheduler(label: "test.future.stress")
        defer { owner.shutdown() }
        let log = FutureReportLog()
        // Made in the scope: the futures of the tally report to `log` from any thread.
        let tally = withConfinementViolationHandler(log.handler) {
            SchedulableObject(Tally(owner: owner, producers: producers), on: owner)
        }
        let callbacks = AtomicCell()
        let wrongValues = AtomicCell()
        let threads = (0..<producers).map { producer in
            TestThread {
                    let futures = (0..<perProducer).map { sequence in
                        tally.future { $0.record(producer: producer, sequence: sequence) }
                    }
                    for future in futures {
                        future.whenPresent(on: owner) { _ in callbacks.add(1) }
                    }
                    for (sequence, future) in futures.enumerated() where (try? future.present()) != sequence {
                        wrongValues.add(1)
                    }
            }
        }
        threads.forEach { $0.join() }
        // Every callback was queued on the owner before its future's present() returned.
        let totals = try tally.future { $0.totals() }.present()
        #expect(totals.runs == producers * perProducer)
        #expect(totals.outOfOrder == 0)
        #expect(Int(wrongValues.loadRelaxed()) == 0)
        #expect(Int(callbacks.loadRelaxed()) == producers * perProducer)
        #expect(log.count(of: .deadlock) == 0)
    }
}

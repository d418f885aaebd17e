import Dispatch
import Testing

@testable import Schedulable

/// A confined journal: its guarded method stops the process (precondition tier, every build) if a
/// future ever ran it off its owner. Not `Sendable`: the tests reach it through a `SchedulableObject`.
private final class Journal: ConfinedObject {
    let confinement: Confinement
    private var entries: [Int] = []

    init(owner: some SerialScheduler) {
        confinement = Confinement(owner: owner)
    }

    func record(_ entry: Int) -> Int {
        preconditionIsolated()
        entries.append(entry)
        return entries.count
    }

    func snapshot() -> [Int] {
        preconditionIsolated()
        return entries
    }
}

@Suite("Futures", .expectsNotes)
struct FutureTests {
    @Test(arguments: ["thread", "queue"])
    func futuresOfOneOwnerRunInTheOrderTheyWereMadeOnTheOwner(kind: String) throws {
        let owner: any SerialScheduler = kind == "thread" ? ThreadScheduler(label: "test.future.order") : SerialQueueScheduler(label: "test.future.order")
        defer { (owner as? ThreadScheduler)?.shutdown() }
        let log = FutureReportLog()
        let journal = SchedulableObject(Journal(owner: owner), on: owner)
        let futures = withConfinementViolationHandler(log.handler) {
            (0..<2_000).map { index in
                // Object futures and free futures of the same scheduler share one FIFO.
                index.isMultiple(of: 3)
                    ? owner.future { journal.assumeIsolated { $0.record(index) } }
                    : journal.future { journal in journal.record(index) }
            }
        }
        for (index, future) in futures.enumerated() {
            #expect(try future.present() == index + 1)
        }
        let entries = try journal.future { $0.snapshot() }.present()
        #expect(entries == Array(0..<2_000))
        #expect(log.count(of: .deadlock) == 0)
    }

    @Test func throwingBodiesArePassedToPresentValueMapAndWhenPresent() async throws {
        let owner = ThreadScheduler(label: "test.future.errors")
        defer { owner.shutdown() }
        let failing = owner.future { () throws -> Int in throw TestFailure(code: 7) }
        #expect(throws: TestFailure(code: 7)) { try failing.present() }
        await #expect(throws: TestFailure(code: 7)) { try await failing.value }
        let transformRan = Slot<Bool>()
        let mapped = failing.map { value -> Int in
            transformRan.set(true)
            return value + 1
        }
        #expect(throws: TestFailure(code: 7)) { try mapped.present() }
        #expect(transformRan.get == nil)
        let delivered = DispatchSemaphore(value: 0)
        let outcome = Slot<Bool>()
        failing.whenPresent(on: owner) { result in
            if case .failure(let error) = result { outcome.set(error as? TestFailure == TestFailure(code: 7)) }
            delivered.signal()
        }
        #expect(wait(delivered, seconds: 10))
        #expect(outcome.get == true)
        // A transform that throws fails the mapped future with its own error.
        let throwingTransform = owner.future { 1 }.map { _ -> Int in throw TestFailure(code: 8) }
        #expect(throws: TestFailure(code: 8)) { try throwingTransform.present() }
    }

    @Test func mapAndFlatMapRunOnTheSameOwnerAndChainAcrossSchedulers() async throws {
        let owner = ThreadScheduler(label: "test.future.map")
        let other = SerialQueueScheduler(label: "test.future.map.other")
        defer { owner.shutdown() }
        let journal = SchedulableObject(Journal(owner: owner), on: owner)
        let chained = journal.future { $0.record(10) }
            .map { count in (count, owner.isIsolated) }
            .flatMap { step in other.future { (step.0 * 2, step.1, other.isIsolated) } }
            .map { step in (step.0 + 1, step.1, step.2, owner.isIsolated) }
        let result = try await chained.value
        #expect(result == (3, true, true, true))
        #expect(chained.scheduler === owner)
    }

    @Test func awaitingTheValueSuspendsUntilTheWorkHasRun() async throws {
        let owner = ThreadScheduler(label: "test.future.await")
        defer { owner.shutdown() }
        let gate = DispatchSemaphore(value: 0)
        owner.schedule { gate.wait() }
        let future = owner.future { 42 }
        #expect(!future.isPresent)
        let releaser = TestThread { gate.signal() }
        #expect(try await future.value == 42)
        #expect(future.isPresent)
        releaser.join()
    }

    @Test func whenPresentRunsOnTheGivenSchedulerElseTheCallersElseTheFutures() async throws {
        let owner = ThreadScheduler(label: "test.future.when.owner")
        let caller = SerialQueueScheduler(label: "test.future.when.caller")
        let explicit = ThreadScheduler(label: "test.future.when.explicit")
        defer {
            owner.shutdown()
            explicit.shutdown()
        }
        let future = owner.future { 5 }
        let seen = LockedValue<[String: (Int, Bool)]>([:])
        let all = DispatchSemaphore(value: 0)
        future.whenPresent(on: explicit) { result in
            seen.withLock { $0["explicit"] = ((try? result.get()) ?? -1, explicit.isIsolated) }
            all.signal()
        }
        // From a library scheduler's work: the default is that scheduler.
        caller.sync {
            future.whenPresent { result in
                seen.withLock { $0["caller"] = ((try? result.get()) ?? -1, caller.isIsolated) }
                all.signal()
            }
        }
        // From a plain thread (no library scheduler runs it): the default is the future's scheduler.
        TestThread {
            future.whenPresent { result in
                seen.withLock { $0["owner"] = ((try? result.get()) ?? -1, owner.isIsolated) }
                all.signal()
            }
        }.join()
        for _ in 0..<3 { #expect(wait(all, seconds: 10)) }
        let results = seen.withLock { $0 }
        #expect(results["explicit"]! == (5, true))
        #expect(results["caller"]! == (5, true))
        #expect(results["owner"]! == (5, true))
    }

    @Test func whenPresentNeverRunsBeforeItReturnsEvenWhenTheValueIsThere() throws {
        let owner = ThreadScheduler(label: "test.future.when.later")
        defer { owner.shutdown() }
        let future = owner.future { 1 }
        _ = try future.present()
        let order = OwnerConfined<[String]>([])
        let done = DispatchSemaphore(value: 0)
        owner.schedule {
            future.whenPresent { _ in
                order.value.append("callback")
                done.signal()
            }
            order.value.append("after whenPresent")
        }
        #expect(wait(done, seconds: 10))
        owner.sync {}
        #expect(order.value == ["after whenPresent", "callback"])
    }

    @Test func presentThatWaitsSendsOneNoteWithItsCallSiteAndOneThatDoesNotWaitSendsNone() throws {
        let owner = ThreadScheduler(label: "test.future.note")
        defer { owner.shutdown() }
        let gate = DispatchSemaphore(value: 0)
        // The note is sent before present() blocks, so releasing the owner from the handler proves
        // the wait happened without any timing assumption.
        let log = FutureReportLog { report in
            if report.kind == .waitingRequired { gate.signal() }
        }
        owner.schedule { gate.wait() }
        let future = withConfinementViolationHandler(log.handler) { owner.future { 42 } }
        let presentLine = #line + 1
        #expect(try future.present() == 42)
        #expect(try future.present() == 42)  // The value is there: no wait, no note.
        let notes = log.all.filter { $0.kind == .waitingRequired }
        #expect(notes.count == 1)
        let note = try #require(notes.first)
        #expect(note.tier == .note)
        #expect(note.callSite == CodeLocation(fileID: #fileID, line: presentLine))
        #expect(note.expectedOwner == "thread scheduler \"test.future.note\"")
        #expect(note.description.contains("ScheduledFuture<Int>.present() had to wait"))
        #expect(log.all.count == 1)
    }

    @Test(.exitTest) func notesNeverTrapAndTheLogHandlerLogsEachCallSiteOnce() async throws {
        let lines = LockedValue<[String]>([])
        let logHandler = LogViolationHandler { line in lines.withLock { $0.append(line) } }
        func note(line: Int) -> ConfinementViolation {
            ConfinementViolation(
                kind: .waitingRequired, tier: .note, objectType: "ScheduledFuture<Int>", member: "present()",
                expectedOwner: "thread scheduler \"x\"", actualContext: "thread 1",
                callSite: CodeLocation(fileID: "App/A.swift", line: line)
            )
        }
        // The trap handler prints a note and returns (in a child process, whose output is read here).
        let result = try await #require(processExitsWith: .success, observing: [\.standardErrorContent]) {
            TrapViolationHandler().handle(ConfinementViolation(
                kind: .waitingRequired, tier: .note, objectType: "ScheduledFuture<Int>", member: "present()",
                expectedOwner: "thread scheduler \"x\"", actualContext: "thread 1",
                callSite: CodeLocation(fileID: "App/A.swift", line: 1)
            ))
        }
        #expect(standardErrorText(result).hasPrefix("Schedulable: note: ScheduledFuture<Int>.present() had to wait\n"))
        logHandler.handle(note(line: 1))
        logHandler.handle(note(line: 1))
        logHandler.handle(note(line: 2))
        let logged = lines.withLock { $0 }
        #expect(logged.count == 3)
        #expect(logged[0].contains("App/A.swift:1"))
        #expect(logged[1].contains("had to wait again at App/A.swift:1 (2 times so far)"))
        #expect(logged[2].contains("App/A.swift:2"))
    }

    @Test func aBlockedCallerLendsItsContextToWorkThatHadNotStartedAndAPumpingCallerDoesNot() throws {
        let owner = ThreadScheduler(label: "test.future.lend.owner")
        let blockedCaller = SerialQueueScheduler(label: "test.future.lend.queue")
        let pumpingCaller = ThreadScheduler(label: "test.future.lend.thread")
        defer {
            owner.shutdown()
            pumpingCaller.shutdown()
        }
        let gate = DispatchSemaphore(value: 0)
        let log = FutureReportLog { report in
            if report.kind == .waitingRequired { gate.signal() }
        }
        // The owner is held until present() has registered (the note comes after), so the work
        // starts only once the caller is blocked in present().
        owner.schedule { gate.wait() }
        let lent = try withConfinementViolationHandler(log.handler) {
            try blockedCaller.sync {
                try owner.future { (blockedCaller.isIsolated, owner.isIsolated) }.present()
            }
        }
        #expect(lent == (true, true))
        owner.schedule { gate.wait() }
        let future = withConfinementViolationHandler(log.handler) { owner.future { (pumpingCaller.isIsolated, owner.isIsolated) } }
        let notLent = try pumpingCaller.sync { try future.present() }
        #expect(notLent == (false, true))
        #expect(log.count(of: .deadlock) == 0)
    }

    @Test func aTypeChoosesTheSchedulerOfItsFuturesAndAnInstanceMayOverrideIt() throws {
        let custom = ThreadScheduler(label: "test.future.type.custom")
        defer { custom.shutdown() }
        let typeLevel = try Palette().future { _ in Palette.futureScheduler.isIsolated }.present()
        #expect(typeLevel)
        let overridden = try Palette(scheduler: custom).future { _ in (custom.isIsolated, Palette.futureScheduler.isIsolated) }.present()
        #expect(overridden == (true, false))
    }
}

/// A plain class whose futures run on one scheduler for the whole type unless an instance chooses.
private final class Palette: FutureScheduled {
    static let futureScheduler: any SerialScheduler = SerialQueueScheduler(label: "test.future.type.palette")
    let futureScheduler: any SerialScheduler

    init(scheduler: (any SerialScheduler)? = nil) {
        futureScheduler = scheduler ?? Self.futureScheduler
    }
}

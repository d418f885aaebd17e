import CSchedulableContext
import Dispatch
import Testing

@testable import Schedulable

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// State that only the scheduler under test touches: the scheduler's exclusion is what keeps it
/// consistent (and ThreadSanitizer would flag an overlap).
private final class LoopConfined<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

@Suite("ThreadScheduler")
struct ThreadSchedulerTests {
    @Test func eventsRunInSubmissionOrder() {
        let scheduler = ThreadScheduler(label: "test.fifo")
        let order = LoopConfined<[Int]>([])
        for index in 0..<10_000 {
            scheduler.schedule { order.value.append(index) }
        }
        scheduler.shutdown()
        #expect(order.value == Array(0..<10_000))
    }

    @Test func eventsRunOnTheSchedulersOwnThreadInsideItsContext() {
        let scheduler = ThreadScheduler(label: "test.context")
        let observations = LockedValue<[(isIsolated: Bool, tid: UInt64)]>([])
        for _ in 0..<3 {
            scheduler.schedule {
                observations.withLock { $0.append((scheduler.isIsolated, csched_os_thread_id())) }
            }
        }
        #expect(!scheduler.isIsolated)
        scheduler.shutdown()
        let seen = observations.withLock { $0 }
        #expect(seen.count == 3)
        #expect(seen.allSatisfy { $0.isIsolated && $0.tid == scheduler.osThreadID })
        #expect(scheduler.osThreadID != csched_os_thread_id())
    }

    @Test func aMillionEventsFromFourProducersRunExactlyOnceInPerProducerOrder() {
        let producers = 4
        let perProducer = 250_000
        let scheduler = ThreadScheduler(label: "test.producers")
        // next[p] is the sequence number the scheduler expects next from producer p.
        let next = LoopConfined([Int](repeating: 0, count: producers))
        let outOfOrder = LoopConfined(0)
        let threads = (0..<producers).map { producer in
            TestThread {
                for sequence in 0..<perProducer {
                    scheduler.schedule {
                        if next.value[producer] != sequence { outOfOrder.value += 1 }
                        next.value[producer] = sequence + 1
                    }
                }
            }
        }
        threads.forEach { $0.join() }
        scheduler.shutdown()
        #expect(outOfOrder.value == 0)
        #expect(next.value == [Int](repeating: perProducer, count: producers))
    }

    @Test func shutdownUnderLoadRunsEveryAcceptedEventAndRejectsTheRest() {
        let producers = 4
        let scheduler = ThreadScheduler(label: "test.shutdown")
        let executed = AtomicCell()
        let accepted = AtomicCell()
        let rejected = AtomicCell()
        let submitted = AtomicCell()
        let threads = (0..<producers).map { _ in
            TestThread {
                // Submit until the first rejection, then a few more, so every producer races the
                // shutdown and sees it.
                var rejectionsSeen = 0
                while rejectionsSeen < 100 {
                    submitted.add(1)
                    do throws(ScheduleRejection) {
                        try scheduler.trySchedule { executed.add(1) }
                        accepted.add(1)
                    } catch {
                        #expect(error.reason == .shutDown)
                        #expect(error.schedulerLabel == "test.shutdown")
                        rejected.add(1)
                        rejectionsSeen += 1
                    }
                }
            }
        }
        while Int(executed.loadRelaxed()) < 20_000 { sched_yield() }
        scheduler.shutdown()
        // shutdown() returned: every accepted event has run, nothing runs any more.
        let executedAtShutdown = Int(executed.loadRelaxed())
        threads.forEach { $0.join() }
        #expect(Int(executed.loadRelaxed()) == executedAtShutdown)
        #expect(Int(executed.loadRelaxed()) == Int(accepted.loadRelaxed()))
        #expect(Int(accepted.loadRelaxed()) + Int(rejected.loadRelaxed()) == Int(submitted.loadRelaxed()))
        #expect(Int(rejected.loadRelaxed()) == producers * 100)
        #expect(scheduler.isShutDown)
    }

    @Test func shutdownFromInsideAnEventDrainsTheRestAndEnds() {
        let scheduler = ThreadScheduler(label: "test.self-shutdown")
        let order = LoopConfined<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        let lateRejection = LockedValue<ScheduleRejection?>(nil)
        let queuedTheRest = DispatchSemaphore(value: 0)
        scheduler.schedule {
            queuedTheRest.wait()  // Shut down only once events 2 and "done" were accepted.
            order.value.append(1)
            scheduler.shutdown()  // Must not wait for itself.
            do throws(ScheduleRejection) {
                try scheduler.trySchedule { order.value.append(99) }
            } catch {
                lateRejection.withLock { $0 = error }
            }
        }
        scheduler.schedule { order.value.append(2) }
        scheduler.schedule { done.signal() }
        queuedTheRest.signal()
        #expect(wait(done, seconds: 10))
        scheduler.shutdown()  // A second call, from outside: waits for the end, then returns.
        #expect(order.value == [1, 2])
        #expect(lateRejection.withLock { $0?.reason } == .shutDown)
    }

    /// The default handler decides: a trap in debug builds, a warning (and the work dropped) in release.
    @Test(.exitTest) func scheduleAfterShutdownIsReportedNotDropped() async {
        let outcome: ExitTest.Condition = ConfinementSystem.defaultLevel == .trap ? .failure : .success
        let result = await #expect(processExitsWith: outcome, observing: [\.standardErrorContent]) {
            let scheduler = ThreadScheduler(label: "test.closed")
            scheduler.shutdown()
            scheduler.schedule {}
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("work rejected by thread scheduler \"test.closed\""))
        #expect(stderr.contains("was shut down"))
    }

    @Test func syncRunsInlineOnTheSchedulerAndBlocksAPlainCallerLendingItsContext() throws {
        let scheduler = ThreadScheduler(label: "test.sync")
        defer { scheduler.shutdown() }
        let caller = SerialQueueScheduler(label: "test.sync.caller")
        let result = caller.sync {
            scheduler.sync { () -> (Bool, Bool, Bool, Bool) in
                let inline = scheduler.sync { scheduler.isIsolated }
                return (scheduler.isIsolated, caller.isIsolated, inline, csched_os_thread_id() == scheduler.osThreadID)
            }
        }
        // On the scheduler's thread; the blocked queue's context is lent to the work.
        #expect(result == (true, true, true, true))
    }

    @Test func syncPassesErrorsAndValuesBack() {
        struct Failure: Error, Equatable {}
        let scheduler = ThreadScheduler(label: "test.sync.errors")
        defer { scheduler.shutdown() }
        #expect(scheduler.sync { 41 + 1 } == 42)
        #expect(throws: Failure()) {
            try scheduler.sync { () throws(Failure) -> Int in throw Failure() }
        }
    }

    @Test func syncFromAThreadSchedulerDoesNotLendTheCallersContext() {
        let caller = ThreadScheduler(label: "test.lend.caller")
        let callee = ThreadScheduler(label: "test.lend.callee")
        defer {
            caller.shutdown()
            callee.shutdown()
        }
        let seen = caller.sync {
            callee.sync { (callee.isIsolated, caller.isIsolated) }
        }
        // The caller keeps running its own events while it waits, so its objects must not pass here.
        #expect(seen == (true, false))
    }

    @Test func assemblyCycleAcrossTwoSchedulersCompletes() {
        // POS: A on blue needs B on red, whose initializer needs C on blue.
        let blue = ThreadScheduler(label: "test.blue")
        let red = ThreadScheduler(label: "test.red")
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
            init(blue: ThreadScheduler, red: ThreadScheduler) {
                confinement = Confinement(owner: blue)
                self.red = red
            }
            func makeA() -> String {
                preconditionIsolated()
                if let a { return a }
                let b = red.sync { "B(" + self.blueSync { $0.makeC() } + ")" }
                a = "A(" + b + ")"
                return a!
            }
            func makeC() -> String {
                preconditionIsolated()
                if let c { return c }
                c = "C"
                return c!
            }
            private func blueSync(_ body: (Assembly) -> String) -> String {
                (confinement.ownerScheduler as! ThreadScheduler).sync { body(self) }
            }
        }
        let assembly = Assembly(blue: blue, red: red)
        let done = DispatchSemaphore(value: 0)
        let result = LockedValue<String?>(nil)
        TestThread {
            let a = blue.sync { assembly.makeA() }
            result.withLock { $0 = a }
            done.signal()
        }.detach()
        #expect(wait(done, seconds: 10), "the Assembly cycle deadlocked")
        #expect(result.withLock { $0 } == "A(B(C))")
    }

    @Test func nestedSyncAcrossThreeSchedulersCompletesAndKeepsEachSchedulersEventsOnItsThread() {
        let a = ThreadScheduler(label: "test.nested.a")
        let b = ThreadScheduler(label: "test.nested.b")
        let c = ThreadScheduler(label: "test.nested.c")
        defer { [a, b, c].forEach { $0.shutdown() } }
        let done = DispatchSemaphore(value: 0)
        let trace = LockedValue<[String]>([])
        @Sendable func record(_ name: String, _ scheduler: ThreadScheduler) {
            let onOwnThread = csched_os_thread_id() == scheduler.osThreadID && scheduler.isIsolated
            trace.withLock { $0.append(name + (onOwnThread ? "" : "!")) }
        }
        TestThread {
            a.sync {
                record("a1", a)
                b.sync {
                    record("b1", b)
                    c.sync {
                        record("c1", c)
                        // Back into a, which is waiting on b, which is waiting on c: a pumps.
                        a.sync { record("a2", a) }
                        b.sync { record("b2", b) }
                        #expect(!a.isIsolated && !b.isIsolated && c.isIsolated)
                    }
                }
            }
            done.signal()
        }.detach()
        #expect(wait(done, seconds: 10), "nested sync deadlocked")
        #expect(trace.withLock { $0 } == ["a1", "b1", "c1", "a2", "b2"])
    }

    @Test func pumpingKeepsFIFOAndNeverOverlapsEvents() {
        let waiter = ThreadScheduler(label: "test.pump.waiter")
        let other = ThreadScheduler(label: "test.pump.other")
        defer {
            waiter.shutdown()
            other.shutdown()
        }
        let order = LoopConfined<[Int]>([])
        let depth = LoopConfined((current: 0, maximum: 0))
        let gate = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        func event(_ value: Int, _ body: @escaping @Sendable () -> Void = {}) -> @Sendable () -> Void {
            {
                depth.value.current += 1
                depth.value.maximum = max(depth.value.maximum, depth.value.current)
                order.value.append(value)
                body()
                depth.value.current -= 1
            }
        }
        waiter.schedule(event(0) {
            // While waiting for `other`, the waiter runs 1, 2, 3 (queued meanwhile), in order.
            other.sync { gate.wait() }
        })
        for value in 1...3 { waiter.schedule(event(value)) }
        gate.signal()
        waiter.schedule { finished.signal() }
        #expect(wait(finished, seconds: 10))
        #expect(order.value == [0, 1, 2, 3])
        // Pumped events nest inside the waiting one on the same thread (depth 2), never beside it.
        #expect(depth.value.maximum <= 2)
    }

    @Test(.enabled(if: threadsHaveProcEntries, "reads /proc/self/task (Linux)"))
    func idleSchedulerUsesNoCPUAndNeverWakesUp() async throws {
        let scheduler = ThreadScheduler(label: "test.idle")
        defer { scheduler.shutdown() }
        // 50 windows of 20 ms (1 s in all), each after an event has run and the loop has gone back
        // to sleep. A loop that polls (even every 100 ms, like the seed's) wakes up in some and shows
        // context switches; one that spins shows CPU time. A blocked loop shows neither.
        var cpu: UInt64 = 0
        for _ in 0..<50 {
            scheduler.sync {}
            try #require(waitUntilTheLoopSleeps(scheduler))
            let window = try await observeSleepingLoop(scheduler, milliseconds: 20)
            #expect(window.switches == 0 && window.waits == WaitCounts(), "\(window)")
            cpu += window.cpuNanoseconds
        }
        #expect(cpu < 100_000, "idle CPU: \(cpu) ns over 1 s")
    }

    @Test func deadSchedulersNeverPassChecksOnThreadsThatReuseTheirPthread() {
        // pthread_t values are recycled (glibc reuses the stacks of joined threads); context ids are
        // not. Each new scheduler checks the object of the one before it.
        var previousRecord: Confinement?
        var previousThread: pthread_t?
        let reuses = LockedValue(0)
        let falsePasses = LockedValue(0)
        for index in 0..<1_000 {
            let scheduler = ThreadScheduler(label: "test.aba.\(index)")
            let record = Confinement(owner: scheduler)
            let old = previousRecord
            let oldThread = previousThread
            let thread = scheduler.sync { () -> pthread_t in
                if let old, old.isIsolated { falsePasses.withLock { $0 += 1 } }
                if let oldThread, pthread_equal(oldThread, pthread_self()) != 0 { reuses.withLock { $0 += 1 } }
                #expect(record.isIsolated)
                return pthread_self()
            }
            scheduler.shutdown()
            previousRecord = record
            previousThread = thread
        }
        #expect(falsePasses.withLock { $0 } == 0)
        // The test only proves something if the operating system did reuse thread handles.
        #expect(reuses.withLock { $0 } > 0)
    }

    @Test(.enabled(if: threadsHaveProcEntries, "reads /proc/self/task (Linux)"))
    func aSchedulerReleasedWithoutShutdownStillRunsItsEventsAndEndsItsThread() async throws {
        let ran = AtomicCell()
        var tid: UInt64 = 0
        do {
            let scheduler = ThreadScheduler(label: "test.released")
            tid = scheduler.osThreadID
            for _ in 0..<100 {
                scheduler.schedule { ran.add(1) }
            }
        }
        // The thread drains and ends on its own; wait (bounded) for its /proc entry to go away.
        var waited = 0
        while readSmallFile("/proc/self/task/\(tid)/stat") != nil && waited < 1_000 {
            try await Task.sleep(for: .milliseconds(10))
            waited += 1
        }
        #expect(readSmallFile("/proc/self/task/\(tid)/stat") == nil, "the thread is still alive")
        #expect(Int(ran.loadRelaxed()) == 100)
    }

    @Test func qosKnobSetsTheThreadsNiceValueOnLinux() {
        #if os(Linux)
        // Lowering the priority needs no privileges, so this holds for any user.
        let scheduler = ThreadScheduler(label: "test.qos", qos: .utility)
        defer { scheduler.shutdown() }
        let tid = id_t(scheduler.osThreadID)
        #expect(scheduler.qos == .utility)
        #expect(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), tid) == 5)
        #expect(scheduler.setQoS(.background))
        #expect(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), tid) == 10)
        #expect(scheduler.qos == .background)
        #endif
    }

    /// Reports name the thread with the whole label, although the kernel keeps only 15 bytes of it on
    /// Linux (the library keeps the full name in a thread-local).
    @Test func threadIsNamedAfterTheWholeLabel() {
        let scheduler = ThreadScheduler(label: "com.example.business")
        defer { scheduler.shutdown() }
        let name = scheduler.sync { CurrentExecution.threadDescription }
        #expect(name.hasSuffix("\"com.example.business\""))
    }

    @Test func performRunsInlineOnTheSchedulerAndSchedulesOtherwise() {
        let scheduler = ThreadScheduler(label: "test.perform")
        let order = LoopConfined<[String]>([])
        scheduler.schedule {
            scheduler.perform { order.value.append("inline") }
            order.value.append("after inline")
        }
        scheduler.perform { order.value.append("scheduled") }
        scheduler.shutdown()
        #expect(order.value == ["inline", "after inline", "scheduled"])
    }
}

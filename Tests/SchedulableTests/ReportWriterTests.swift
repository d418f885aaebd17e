import Dispatch
import Foundation
@testable import Schedulable
import Testing

/// The reporting thread: printing handlers count on the violating thread and write elsewhere, in order,
/// dropping nothing, and everything is written before a trap and at exit.
@Suite("Reporting thread")
struct ReportWriterTests {
    private func violation(line: Int) -> ConfinementViolation {
        ConfinementViolation(
            kind: .wrongContext, tier: .assert, objectType: "UploadQueue", objectIdentity: "0x1", member: "enqueue(_:)",
            expectedOwner: "queue \"com.app.uploads\"", actualContext: "main thread",
            callSite: CodeLocation(fileID: "App/Upload.swift", line: line)
        )
    }

    /// More jobs than the queue holds, from several threads at once: each thread's jobs are written in
    /// its order and none is lost (a full queue makes the thread wait, not drop).
    @Test func jobsFromManyThreadsAreWrittenInOrderAndNoneIsDropped() {
        let threads = 4
        let perThread = ReportWriter.capacity * 2
        let written = LockedList<(thread: Int, index: Int)>()
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<perThread {
                ReportWriter.write { written.append((thread, index)) }
            }
        }
        ReportWriter.flush()
        let all = written.elements
        #expect(all.count == threads * perThread)
        for thread in 0..<threads {
            #expect(all.filter { $0.thread == thread }.map(\.index) == Array(0..<perThread))
        }
    }

    /// The violating thread does not wait for the output: `handle` returns while the output is still
    /// blocked, and the entry is written once it is let go.
    @Test func handleReturnsBeforeTheEntryIsWrittenOnAnotherThread() {
        for round in 0..<200 {
            let release = DispatchSemaphore(value: 0)
            let writers = LockedList<String?>()
            let lines = LockedList<String>()
            let handler = PolicyViolationHandler(
                ConfinementPolicy(default: .warn),
                output: { line in
                    release.wait()
                    writers.append(ThreadName.current)
                    lines.append(line)
                },
                raisesRuntimeIssues: false, writesOnReportingThread: true
            )
            handler.handle(violation(line: round))
            #expect(lines.elements.isEmpty)   // the output is blocked, yet `handle` returned
            release.signal()
            ReportWriter.flush()
            #expect(lines.elements.count == 1)
            #expect(lines.elements.first?.contains("call site:       App/Upload.swift:\(round)") == true)
            #expect(writers.elements == ["schedulable.reports"])
        }
    }

    /// A stack not seen before is symbolicated to find its site, and the violating thread leaves that,
    /// with the count, to the reporting thread; a stack seen before is counted where it happened.
    /// Whichever thread counts, the counts are exact and the same reports are printed. Each round's
    /// property is new, so its first stacks are not known.
    @Test func countsAreExactWhetherTheViolatingOrTheReportingThreadCounts() {
        for round in 0..<100 {
            let lines = LockedList<String>()
            let handler = PolicyViolationHandler(
                ConfinementPolicy(default: .warn), output: { lines.append($0) }, raisesRuntimeIssues: false,
                writesOnReportingThread: true
            )
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                for _ in 0..<100 { handler.handle(Self.capturedViolation(property: "state\(round)")) }
            }
            #expect(handler.summary.hasPrefix("Schedulable: violation summary: 400 violations at 1 site\n"))
            let output = lines.elements
            #expect(output.filter { $0.contains("\n  member:") }.count == PolicyViolationHandler.fullReportsPerSite)
            #expect(output.filter { $0.contains("only each doubling is printed now") }.count == 4)   // 32 … 256
        }
    }

    @inline(never)
    private static func capturedViolation(property: String) -> ConfinementViolation {
        ConfinementViolation(
            kind: .wrongContext, tier: .assert, objectType: "UploadQueue", objectIdentity: "0x1", member: property,
            expectedOwner: "queue \"com.app.uploads\"", actualContext: "main thread"
        ).capturingAccessSite()
    }

    /// A job that hands over another job, or flushes, runs it inline instead of waiting for itself.
    @Test func aJobThatWritesOrFlushesDoesNotWaitForItself() {
        let order = LockedList<String>()
        ReportWriter.write {
            order.append("outer")
            ReportWriter.write { order.append("inner") }
            ReportWriter.flush()
            order.append("after")
        }
        ReportWriter.flush()
        #expect(order.elements == ["outer", "inner", "after"])
    }

    /// In a process where a test framework is loaded, handlers write on the violating thread: a test
    /// reads the output at once, and what an exit test's child writes after its body is not captured.
    @Test func inATestProcessHandlersWriteOnTheViolatingThread() {
        #expect(!ReportWriter.isDefaultInThisProcess)
        let lines = LockedList<String>()
        let handler = PolicyViolationHandler(ConfinementPolicy(default: .warn)) { lines.append($0) }
        handler.handle(violation(line: 1))
        #expect(lines.elements.count == 1)
    }

    /// Entries handed over before a trap are written before the trap's own report.
    @Test(.exitTest, .enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func aTrapWritesEverythingHandedOverBeforeItsOwnReport() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            bootstrapWriterOnItsThread("warn,Counter.reset()=trap")
            useFromAnotherQueue(ownerLabel: "exit.writer.trap", times: 3) { $0.ping() }
            useFromAnotherQueue(ownerLabel: "exit.writer.trap.reset") { $0.reset() }
        }.map { result in
            let stderr = standardErrorText(result)
            let warned = stderr.ranges(of: "Schedulable: Counter.ping() used outside its owner\n")
            let trapped = stderr.range(of: "Schedulable: Counter.reset() used outside its owner\n")
            #expect(warned.count == 3)
            #expect(trapped != nil)
            if let last = warned.last, let trapped { #expect(last.upperBound <= trapped.lowerBound) }
        }
    }

    /// An output closure that itself violates, on the reporting thread, is told so once and does not
    /// make the writer report, and write, and report again forever.
    @Test(.exitTest, .enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func aViolationInsideAnOutputOnTheReportingThreadDoesNotRecurse() async {
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let owner = SerialQueueScheduler(label: "exit.writer.recursion")
            let victim = Counter(owner: owner)
            owner.sync { victim.ping() }
            ConfinementSystem.bootstrap(PolicyViolationHandler(
                ConfinementPolicy(default: .warn),
                output: { entry in
                    victim.ping()   // the reporting thread is not the counter's owner
                    StandardError.write(entry)
                },
                raisesRuntimeIssues: false, writesOnReportingThread: true
            ))
            useFromAnotherQueue(ownerLabel: "exit.writer.recursion.other") { $0.reset() }
            exit(0)
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(stderr.ranges(of: "Schedulable: violation raised inside a violation handler (not delivered again):\n"
                + "Schedulable: Counter.ping() used outside its owner\n").count == 2)   // reset() and count
            #expect(stderr.contains("Schedulable: Counter.reset() used outside its owner\n"))
        }
    }

    /// An output that never returns cannot turn a trap into a hang: the trap waits a bounded time for
    /// the reporting thread, says how many entries it could not write, and traps with its own report.
    @Test(.exitTest, .enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func aBlockedOutputCannotTurnATrapIntoAHang() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let never = DispatchSemaphore(value: 0)
            ConfinementSystem.bootstrap(PolicyViolationHandler(
                try! ConfinementPolicy(parsing: "warn,Counter.reset()=trap"),
                output: { entry in
                    if entry.contains("Counter.ping()") { never.wait() }
                    StandardError.write(entry)
                },
                raisesRuntimeIssues: false, writesOnReportingThread: true
            ))
            useFromAnotherQueue(ownerLabel: "exit.writer.blocked") { $0.ping() }
            useFromAnotherQueue(ownerLabel: "exit.writer.blocked.reset") { $0.reset() }
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(stderr.contains("Schedulable: 1 report(s) not yet written: the reporting thread made no progress"))
            #expect(stderr.contains("Schedulable: Counter.reset() used outside its owner\n"))
        }
    }

    /// Reports still waiting when the process exits normally are written first.
    @Test(.exitTest, .enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func aNormalExitWritesEveryReportFirst() async {
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            bootstrapWriterOnItsThread("warn")
            useFromAnotherQueue(ownerLabel: "exit.writer.exit", times: 5) { $0.ping() }
            exit(0)
        }.map { result in
            #expect(standardErrorText(result).ranges(of: "Schedulable: Counter.ping() used outside its owner\n").count == 5)
        }
    }
}

/// For exit-test bodies: a process-wide policy handler that writes to standard error on the reporting
/// thread, as it does outside test processes, and slowly (20 ms an entry), so that a report not waited
/// for would still be waiting when the process stops.
private func bootstrapWriterOnItsThread(_ policy: String) {
    ConfinementSystem.bootstrap(PolicyViolationHandler(
        try! ConfinementPolicy(parsing: policy),
        output: { entry in
            usleep(20_000)
            StandardError.write(entry)
        },
        raisesRuntimeIssues: false, writesOnReportingThread: true
    ))
}


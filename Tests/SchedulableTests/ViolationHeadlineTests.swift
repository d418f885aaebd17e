import Dispatch
@testable import Schedulable
import Testing

/// The headlines a printing handler's violating thread writes (``ViolationHeadlines``): one per entry
/// handed to the reporting thread, bounded by the handler's doubling rule, none for what is quiet, and
/// the full report names its headline instead of repeating it.
@Suite("Violation headlines")
struct ViolationHeadlineTests {
    /// A policy handler that writes on the reporting thread, its headlines and entries in one list (in
    /// the order they were written), as standard error has them.
    private final class Recorder: Sendable {
        let lines = LockedList<String>()
        let lastHeadline = LockedValue<UInt>(0)
        let handler: PolicyViolationHandler

        init(_ policy: ConfinementPolicy) {
            let lines = lines
            let lastHeadline = lastHeadline
            handler = PolicyViolationHandler(
                policy,
                output: { entry in
                    lines.append(entry)
                    lastHeadline.withLock { $0 = 0 }
                },
                raisesRuntimeIssues: false, writesOnReportingThread: true,
                headlines: HeadlineOutput(
                    write: { line, number in
                        lines.append(line)
                        lastHeadline.withLock { $0 = number }
                    },
                    lastWritten: { lastHeadline.withLock { $0 } }
                )
            )
        }

        var headlines: [String] { lines.elements.filter { $0.range(of: #"^Schedulable: \[\d+\] "#, options: .regularExpression) != nil } }
    }

    @inline(never)
    private static func violation(_ member: String = "state") -> ConfinementViolation {
        ConfinementViolation(
            kind: .wrongContext, tier: .assert, objectType: "UploadQueue", objectIdentity: "0x1", member: member,
            expectedOwner: "queue \"com.app.uploads\"", actualContext: "main thread"
        ).capturingAccessSite()
    }

    /// 1,000 violations from one loop under `warn-once`: a headline for the first and for each doubling
    /// (2 … 512), exactly where the handler prints its report and its "again" lines.
    @Test func warnOnceWritesAHeadlineAtTheFirstViolationAndEachDoubling() {
        let recorder = Recorder(ConfinementPolicy(default: .warnOnce))
        for _ in 0..<1_000 { recorder.handler.handle(Self.violation()) }
        ReportWriter.flush()
        let headlines = recorder.headlines
        #expect(headlines.count == 10)
        #expect(headlines.first?.contains(
            "] wrong context: UploadQueue.state used outside its owner; expected owner: queue \"com.app.uploads\"; "
                + "actual context: main thread; "
        ) == true)
        #expect(headlines.dropFirst().map { $0.range(of: #"again \(\d+ times from this call path\)"#, options: .regularExpression) != nil }
            == Array(repeating: true, count: 9))
        #expect(recorder.lines.elements.filter { $0.contains(" times so far)") }.count == 9)   // 2 … 512
    }

    /// `warn` prints its first ``PolicyViolationHandler/fullReportsPerSite`` reports whole: each has a
    /// headline, and then each doubling (32, 64).
    @Test func warnWritesAHeadlineForEachFullReportThenEachDoubling() {
        let recorder = Recorder(ConfinementPolicy(default: .warn))
        for _ in 0..<100 { recorder.handler.handle(Self.violation()) }
        ReportWriter.flush()
        #expect(recorder.headlines.count == PolicyViolationHandler.fullReportsPerSite + 2)
        let reports = recorder.lines.elements.filter { $0.contains("\n  member:") }
        #expect(reports.count == PolicyViolationHandler.fullReportsPerSite)
        #expect(reports.allSatisfy { $0.hasPrefix("Schedulable: report of [") })
    }

    /// What is quiet stays quiet: a use outside the owner at `observe` is recorded, not printed, and
    /// `off` prints nothing: neither writes a headline.
    @Test(arguments: [ConfinementLevel.observe, .off])
    func quietLevelsWriteNoHeadline(level: ConfinementLevel) {
        let recorder = Recorder(ConfinementPolicy(default: level))
        for _ in 0..<10 { recorder.handler.handle(Self.violation()) }
        ReportWriter.flush()
        #expect(recorder.lines.elements.isEmpty)
    }

    /// A handler whose entries are written where the violation was made (in a test process, by default)
    /// has nothing waiting, so it writes no headline.
    @Test func aHandlerWritingOnTheViolatingThreadWritesNoHeadline() {
        let lines = LockedList<String>()
        let handler = PolicyViolationHandler(
            ConfinementPolicy(default: .warn), output: { lines.append($0) }, raisesRuntimeIssues: false,
            headlines: HeadlineOutput(write: { line, _ in lines.append(line) }, lastWritten: { 0 })
        )
        handler.handle(Self.violation())
        #expect(lines.elements.count == 1)
        #expect(lines.elements.first?.hasPrefix("Schedulable: UploadQueue.state used outside its owner\n") == true)
    }

    /// The report's first line names its headline; when something else was written between them, it
    /// says what it is about too. A one-line entry is left as it is.
    @Test func theReportNamesItsHeadline() {
        let report = "Schedulable: UploadQueue.state used outside its owner\n  member:          state\n"
        #expect(ViolationHeadlines.entry(report, after: 7, adjacent: true)
            == "Schedulable: report of [7] above\n  member:          state\n")
        #expect(ViolationHeadlines.entry(report, after: 7, adjacent: false)
            == "Schedulable: report of [7] above: UploadQueue.state used outside its owner\n  member:          state\n")
        #expect(ViolationHeadlines.entry(report, after: nil, adjacent: true) == report)
        let line = "Schedulable: wrong context: UploadQueue.state used outside its owner again (2 times so far)\n"
        #expect(ViolationHeadlines.entry(line, after: 7, adjacent: true) == line)
    }

    /// A method guard's headline names its call site, known without symbols.
    @Test func aMethodGuardsHeadlineNamesItsCallSite() {
        let recorder = Recorder(ConfinementPolicy(default: .warn))
        var violation = Self.violation("enqueue(_:)")
        violation.callSite = CodeLocation(fileID: "App/Upload.swift", line: 12)
        recorder.handler.handle(violation)
        ReportWriter.flush()
        #expect(recorder.headlines.first?.hasSuffix("; actual context: main thread; at App/Upload.swift:12\n") == true)
    }
}

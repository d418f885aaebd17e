import Dispatch
import Schedulable
import Testing

/// Labels name schedulers in every report: one that says nothing is refused where it is made (a stop in
/// a debug build, a warning and a stand-in label in release), and one with line breaks stays on its
/// report line.
@Suite struct SchedulerLabelTests {
    private static let advice = "every report names the scheduler by its label, so give it one that says what "
        + "the scheduler is for, such as \"com.app.uploads\""

    /// The schedulers made with a label that says nothing, each at a call site of its own.
    enum Refused: String, Codable, Sendable {
        case emptyQueueLabel, whitespaceThreadLabel, whitespaceBranchName, emptyRunnerLabel

        /// Makes the scheduler and returns the label it got.
        func make() -> String {
            switch self {
            case .emptyQueueLabel:
                return SerialQueueScheduler(label: "", file: "App/Services.swift", line: 12).label
            case .whitespaceThreadLabel:
                let scheduler = ThreadScheduler(label: " \n\t", file: "App/Services.swift", line: 20)
                defer { scheduler.shutdown() }
                return scheduler.label
            case .whitespaceBranchName:
                return SerialQueueScheduler(label: "exit.label.tree").branch("  ", file: "App/Services.swift", line: 30).label
            case .emptyRunnerLabel:
                return ExecutionContext.Runner(label: "", file: "App/Render.swift", line: 4).context.label
            }
        }
    }

    /// A debug build of the library stops where the scheduler is made; a release build prints the same
    /// message with the stand-in label it chose, and goes on (a label may come from data).
    private func expectRefused(_ scenario: Refused, _ message: String, standIn: String, standInPart: String? = nil) async throws {
        let standInPart = standInPart ?? standIn
        #if SCHEDULABLE_DEBUG_BUILD
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) { [scenario] in
            _ = scenario.make()
        }
        #expect(fatalErrorMessage(result) == message)
        #else
        // The child exits 0 only if the scheduler got the stand-in label: the message and the label are
        // both checked.
        let result = try await #require(processExitsWith: .success, observing: [\.standardErrorContent]) { [scenario, standIn] in
            let label = scenario.make()
            if label != standIn { fatalError("label \(String(reflecting: label)), not the stand-in") }
        }
        #expect(standardErrorText(result) == message + " (using \"\(standInPart)\" instead)\n")
        #endif
    }

    @Test(.exitTest) func anEmptyQueueLabelIsRefusedAtTheCallSite() async throws {
        try await expectRefused(
            .emptyQueueLabel,
            "Schedulable: SerialQueueScheduler(label:qos:) at App/Services.swift:12: the label is empty; " + Self.advice,
            standIn: "unlabelled (App/Services.swift:12)"
        )
    }

    @Test(.exitTest) func aWhitespaceThreadSchedulerLabelIsRefused() async throws {
        try await expectRefused(
            .whitespaceThreadLabel,
            "Schedulable: ThreadScheduler(label:qos:stackSize:) at App/Services.swift:20: the label is only whitespace (\" \\n\\t\"); " + Self.advice,
            standIn: "unlabelled (App/Services.swift:20)"
        )
    }

    @Test(.exitTest) func aWhitespaceBranchNameIsRefused() async throws {
        try await expectRefused(
            .whitespaceBranchName,
            "Schedulable: SerialQueueScheduler.branch(_:qos:) at App/Services.swift:30: the label is only whitespace (\"  \"); " + Self.advice,
            standIn: "exit.label.tree.unlabelled (App/Services.swift:30)", standInPart: "unlabelled (App/Services.swift:30)"
        )
    }

    @Test(.exitTest) func anEmptyRunnerLabelIsRefused() async throws {
        try await expectRefused(
            .emptyRunnerLabel,
            "Schedulable: ExecutionContext.Runner(label:) at App/Render.swift:4: the label is empty; " + Self.advice,
            standIn: "unlabelled (App/Render.swift:4)"
        )
    }

    @Test func labelsWithTextAroundWhitespaceAreAccepted() {
        #expect(SerialQueueScheduler(label: " uploads ").label == " uploads ")
        let thread = ThreadScheduler(label: "x")
        thread.shutdown()
        #expect(thread.label == "x")
    }

    /// A label with line breaks and control characters keeps every report line one line: the report
    /// escapes it wherever it appears.
    @Test(.enabled(if: ConfinementSystem.debugChecksCompiledIn)) func aLabelWithLineBreaksStaysOnOneReportLine() throws {
        let owner = SerialQueueScheduler(label: "uploads\nretry\r\u{1B}[31m")
        let recorder = ViolationRecorder()
        let counter = settledCounter(owner: owner, recorder: recorder)
        DispatchQueue(label: "test.label.intruder\nsecond line").sync { counter.ping() }
        let violation = try #require(recorder.violations.first)
        #expect(violation.expectedOwner == "queue \"uploads\nretry\r\u{1B}[31m\"")   // the value is the label itself
        let lines = violation.description.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.contains("  expected owner:  queue \"uploads\\nretry\\r\\u{1B}[31m\""))
        #expect(lines.allSatisfy { !$0.contains("\r") && !$0.contains("\u{1B}") })
        #expect(violation.trapMessage.contains("\n") == false)
        #expect(lines.first { $0.hasPrefix("  actual context:") }?.contains("test.label.intruder\\nsecond line") == true)
    }
}

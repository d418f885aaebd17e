import Dispatch
import Schedulable
import Testing

/// Labels name schedulers in every report: one that says nothing is refused where it is made, and one
/// with line breaks stays on its report line.
@Suite struct SchedulerLabelTests {
    private static let advice = "every report names the scheduler by its label, so give it one that says what "
        + "the scheduler is for, such as \"com.app.uploads\""

    @Test func anEmptyQueueLabelStopsAtTheCallSite() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = SerialQueueScheduler(label: "", file: "App/Services.swift", line: 12)
        }
        #expect(fatalErrorMessage(result) == "Schedulable: SerialQueueScheduler(label:qos:) at App/Services.swift:12: the label is empty; " + Self.advice)
    }

    @Test func aWhitespaceThreadSchedulerLabelStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = ThreadScheduler(label: " \n\t", file: "App/Services.swift", line: 20)
        }
        #expect(fatalErrorMessage(result) == "Schedulable: ThreadScheduler(label:qos:stackSize:) at App/Services.swift:20: the label is only whitespace (\" \\n\\t\"); " + Self.advice)
    }

    @Test func aWhitespaceBranchNameStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = SerialQueueScheduler(label: "exit.label.tree").branch("  ", file: "App/Services.swift", line: 30)
        }
        #expect(fatalErrorMessage(result) == "Schedulable: SerialQueueScheduler.branch(_:qos:) at App/Services.swift:30: the label is only whitespace (\"  \"); " + Self.advice)
    }

    @Test func anEmptyRunnerLabelStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = ExecutionContext.Runner(label: "", file: "App/Render.swift", line: 4)
        }
        #expect(fatalErrorMessage(result) == "Schedulable: ExecutionContext.Runner(label:) at App/Render.swift:4: the label is empty; " + Self.advice)
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

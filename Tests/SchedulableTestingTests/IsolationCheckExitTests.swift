import Dispatch
import Foundation
import Schedulable
@testable import SchedulableTesting
import Testing

/// A test that expects the runtime's trap still gets it: in an exit test's child the level is `trap`
/// (the report first, then the runtime's own trap), and `off` leaves the runtime untouched.
@Suite(.enabled(if: SwiftIsolationHook.isReporting, "Swift's isolation checks stay traps in this build"))
struct IsolationCheckExitTests {
    @Test(.exitTest) func inAnExitTestTheCheckIsReportedThenTheRuntimeTraps() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            assumeMainActorOnAGlobalQueue()
        }.map { result in
            let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(stderr.contains("Schedulable: Swift isolation check failed: assumeIsolated outside MainActor"), "\(stderr)")
            #expect(stderr.contains("IsolationCheckExitTests.swift:\(assumeLine)"), "\(stderr)")
        }
    }

    @Test(.exitTest) func offLeavesTheRuntimesTrapUntouched() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            ConfinementSystem.reportSwiftIsolationChecks(.off)
            assumeMainActorOnAGlobalQueue()
        }.map { result in
            let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(!stderr.contains("Swift isolation check failed"), "\(stderr)")
        }
    }

    /// A test that says otherwise in its child gets the report (an issue, captured here) and goes on:
    /// the child exits normally.
    @Test(.exitTest) func anExitTestCanAskForReports() async {
        await #expect(processExitsWith: .success) {
            ConfinementSystem.reportSwiftIsolationChecks(.report)
            let issues = await TestIssueCapture.capturingIssuesOfNoTest { _ in assumeMainActorOnAGlobalQueue() }
            if issues.count != 1 { exit(2) }
        }
    }
}

private let assumeLine = #line + 5
/// `MainActor.assumeIsolated` in work on a global queue, waited for.
private func assumeMainActorOnAGlobalQueue() {
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
        MainActor.assumeIsolated { _ = 1 }
        done.signal()
    }
    done.wait()
}

import Dispatch
import IsolationShapesLegacy
import Schedulable
@testable import SchedulableTesting
import Testing

/// Swift 6's isolation checks in Swift Testing: a check made on the test's own task is one failure of
/// that test at its line; one made on a GCD worker, which carries none of the test's task-locals, is
/// one issue of the run naming its line. Captured with `TestIssueCapture`, which proves which test an
/// issue would have failed. Serialized: the run-level capture takes every issue of no test.
@Suite(.serialized, .enabled(if: SwiftIsolationHook.isReporting, "Swift's isolation checks stay traps in this build"))
struct IsolationCheckTests {
    /// The one issue `issues` holds, checked: a failure at `shape`'s line naming `check` and `owner`.
    private func expectOneFailure(
        _ issues: [TestIssueCapture.Recorded], at shape: String, check: ConfinementViolation.IsolationCheck,
        outside owner: String = "MainActor", sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(issues.count == 1, "\(issues.map(\.comment))", sourceLocation: sourceLocation)
        for issue in issues {
            #expect(issue.severity == .error, sourceLocation: sourceLocation)
            #expect(issue.sourceLocation.fileID == "SchedulableTestingTests/IsolationShapes.swift", sourceLocation: sourceLocation)
            #expect(issue.sourceLocation.line == isolationShapeLine(shape), "\(issue.comment)", sourceLocation: sourceLocation)
            #expect(issue.comment.contains("\(check.rawValue) outside \(owner)"), "\(issue.comment)", sourceLocation: sourceLocation)
            #expect(issue.comment.contains("the Swift runtime stops the process here"), sourceLocation: sourceLocation)
        }
    }

    @Test func assumeIsolatedOnTheTestsTaskFailsThatTest() async {
        let issues = TestIssueCapture.capturing { _ in
            ProfileViewModel.assumeOnTheCallersThread()
        }
        expectOneFailure(issues, at: "assume-here", check: .assumeIsolated)
    }

    @Test func anActorsPreconditionOnTheTestsTaskFailsThatTest() async {
        let store = CredentialStore()
        let issues = TestIssueCapture.capturing { _ in
            store.checkHere()
        }
        expectOneFailure(issues, at: "actor-precondition", check: .preconditionIsolated,
                         outside: "actor SchedulableTestingTests.CredentialStore")
    }

    @Test func aMainActorClosureCalledBackOnAGlobalQueueIsAnIssueOfTheRun() async {
        let model = ProfileViewModel()
        let issues = await TestIssueCapture.capturingIssuesOfNoTest { _ in
            await model.reload()
        }
        expectOneFailure(issues, at: "reload", check: .entry)
        #expect(issues.allSatisfy { $0.comment.contains("an issue of the run") })
        // Without the trait the test is not known to run: the issue says so, and how to have it named.
        let name = Test.current?.name ?? "?"
        for issue in issues {
            let running = issue.comment.split(separator: "\n").first { $0.hasPrefix("  while running:   ") }
            #expect(running != nil, "\(issue.comment)")
            #expect(running?.contains(name) == false, "\(issue.comment)")
        }
    }

    /// A test with `.confinementChecked` is known to run from its start to its end: an issue of the run
    /// made meanwhile names it (and any other such test then running).
    @Test(.confinementChecked) func anIssueOfTheRunNamesTheTestsRunningWithTheTrait() async {
        let model = ProfileViewModel()
        let issues = await TestIssueCapture.capturingIssuesOfNoTest { _ in
            await model.reloadInATestWithTheTrait()
        }
        expectOneFailure(issues, at: "reload-in-trait", check: .entry)
        let test = Test.current
        #expect(test != nil)
        let name = "test \(test?.name ?? "?") at SchedulableTestingTests/IsolationCheckTests.swift:\(test?.sourceLocation.line ?? 0)"
        for issue in issues {
            let running = issue.comment.split(separator: "\n").first { $0.hasPrefix("  while running:   ") }
            #expect(running?.contains(name) == true, "\(issue.comment)")
        }
    }

    /// Eight checks at once on several threads, 200 times: one issue, every time.
    @Test func aClosureRunInParallelIsOneIssue() async {
        let model = ProfileViewModel()
        let issues = await TestIssueCapture.capturingIssuesOfNoTest { _ in
            for _ in 0..<200 { await model.renderTiles() }
        }
        expectOneFailure(issues, at: "parallel", check: .entry)
    }

    /// The notifier calls its delegate inside `queue.sync`, on the test's own thread: the test's task
    /// is known there, so the failure is the test's.
    @Test func aPreconcurrencyWitnessCalledOnAnotherQueueFailsTheTest() {
        let screen = SettingsScreen()
        let issues = TestIssueCapture.capturing { _ in
            let notifier = LegacyNotifier()
            notifier.delegate = screen
            notifier.finish()
        }
        expectOneFailure(issues, at: "witness", check: .witness)
    }

    /// After `dispatchMain()` (how `swift test` parks the main thread on Linux) the main queue's work
    /// runs on a worker thread: main-actor code there is isolated. The hook is asked, and hands it back.
    @Test func mainQueueWorkOnAWorkerThreadIsSilent() async {
        let before = PlatformInternals.isolationHookCalls
        let issues = await TestIssueCapture.capturingIssuesOfNoTest { _ in
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                DispatchQueue.main.async {
                    MainActor.assumeIsolated { _ = 1 }
                    done.resume()
                }
            }
        }
        #expect(issues.map(\.comment) == [])
        #expect(PlatformInternals.isolationHookCalls > before, "the check reached the hook, which handed it back")
    }

    /// An actor on a custom executor backed by a queue: its executor answers, the hook is never asked.
    @Test func anActorOnItsOwnQueueBackedExecutorIsSilentAndNeverReachesTheHook() async {
        let scheduler = SerialQueueScheduler(label: "isolation.custom-executor")
        let store = QueueBackedStore(scheduler: scheduler)
        let before = PlatformInternals.isolationHookCalls
        let issues = await TestIssueCapture.capturingIssuesOfNoTest { _ in
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                scheduler.schedule {
                    store.writeFromItsQueue()
                    done.resume()
                }
            }
        }
        #expect(issues.map(\.comment) == [])
        #expect(PlatformInternals.isolationHookCalls == before)
    }

    @Test func anExplicitHopIsSilent() async {
        let model = ProfileViewModel()
        let issues = await TestIssueCapture.capturingIssuesOfNoTest { _ in
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                model.reloadHopping { done.resume() }
            }
        }
        #expect(issues.map(\.comment) == [])
    }
}

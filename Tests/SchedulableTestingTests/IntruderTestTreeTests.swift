import Dispatch
import Schedulable
import SchedulableTesting
import Testing

/// The failure of a wrong-context violation says whether the intruding code ran in the test's task
/// tree (Swift Testing's `Test.current` on the violating thread was the test) or not. The failures are
/// captured with `TestIssueCapture`, never recorded: what a test would get is asserted on here.
@Suite struct IntruderTestTreeTests {
    static let repetitions = 50
    static let inTheTree = "  intruder's test: this test: it ran in the test's task tree"
    static let detachedTask = "  intruder's test: none: a task outside the test's task tree (Task.detached"
    static let noTask = "  intruder's test: none: no task (a thread or a dispatch queue)"

    /// One wrong access per way of running code: `async let`, a task group's child, `Task.detached`,
    /// a dispatch queue. A counter each, so each is a failure of its own.
    private static func violateFromEachPlace(owner: SerialQueueScheduler) async {
        let inAsyncLet = Counter(owner: owner)
        async let child: Void = inAsyncLet.increment()
        await child
        let inGroup = Counter(owner: owner)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { inGroup.increment() }
        }
        let inDetached = Counter(owner: owner)
        await Task.detached { inDetached.increment() }.value
        let onQueue = Counter(owner: owner)
        await onBackgroundThread { onQueue.increment() }
    }

    private static func expectEachPlaceIsNamed(_ issues: [TestIssueCapture.Recorded]) {
        let lines = issues.map { issue in
            issue.comment.split(separator: "\n").first { $0.hasPrefix("  intruder's test:") }.map(String.init)
        }
        #expect(issues.allSatisfy { $0.severity == .error })
        #expect(lines.count == 4)
        guard lines.count == 4 else { return }
        #expect(lines[0]?.hasPrefix(inTheTree) == true, "async let: \(lines[0] ?? "no line")")
        #expect(lines[1]?.hasPrefix(inTheTree) == true, "task group: \(lines[1] ?? "no line")")
        #expect(lines[2]?.hasPrefix(detachedTask) == true, "Task.detached: \(lines[2] ?? "no line")")
        #expect(lines[3]?.hasPrefix(noTask) == true, "dispatch queue: \(lines[3] ?? "no line")")
    }

    /// The automatic handler (no trait): each failure is recorded as the violation is detected.
    @Test(.requiresDebugChecks) func theAutomaticFailureSaysWhetherTheIntruderRanInTheTestsTaskTree() async {
        let owner = SerialQueueScheduler(label: "intruder-tree.automatic")
        for _ in 0..<Self.repetitions {
            let issues = await TestIssueCapture.capturing { _ in
                await Self.violateFromEachPlace(owner: owner)
            }
            Self.expectEachPlaceIsNamed(issues)
        }
    }

    /// The trait: the failures are recorded when the test case ends, from what was read when each
    /// violation was detected.
    @Test(.requiresDebugChecks) func theTraitsFailureSaysWhetherTheIntruderRanInTheTestsTaskTree() async throws {
        let owner = SerialQueueScheduler(label: "intruder-tree.trait")
        for _ in 0..<Self.repetitions {
            let issues = try await TestIssueCapture.capturing { _ in
                try await ConfinementCheckedTrait().provideScope(for: Test.current!, testCase: Test.Case.current) {
                    await Self.violateFromEachPlace(owner: owner)
                }
            }
            Self.expectEachPlaceIsNamed(issues)
        }
    }

    /// On the test's own task: in the tree too (the line cannot tell the test's task from a child).
    @Test(.requiresDebugChecks) func aFailureOfTheTestsOwnTaskSaysItRanInTheTree() {
        let counter = Counter(owner: SerialQueueScheduler(label: "intruder-tree.own-task"))
        let issues = TestIssueCapture.capturing { _ in counter.increment() }
        #expect(issues.count == 1)
        #expect(issues.first?.comment.contains(Self.inTheTree) == true)
    }
}

import Dispatch
import Schedulable
import SchedulableTesting
import Testing

@Suite struct ExpectConfinementViolationTests {
    let owner = SerialQueueScheduler(label: "helper-tests.owner")

    @Test(.requiresDebugChecks) func collectReturnsTheViolationsOfABackgroundThreadInsteadOfReportingThem() {
        let owner = self.owner
        // No handler is installed around this test: a violation that escaped the helper would reach
        // the default (trap) handler and stop the process.
        let violations = collectConfinementViolations {
            let counter = Counter(owner: owner)
            onBackgroundThread { counter.increment() }
            onBackgroundThread { counter.value = 3 }
        }
        #expect(violations.map(\.qualifiedMember) == ["Counter.increment()", "Counter.value"])
        #expect(violations.allSatisfy { $0.expectedOwner == "queue \"helper-tests.owner\"" })
        #expect(violations.allSatisfy { $0.tier == .assert })
    }

    @Test func collectReturnsNothingForCleanCode() {
        let owner = self.owner
        let violations = collectConfinementViolations {
            let counter = Counter(owner: owner)
            owner.sync { counter.increment() }
        }
        #expect(violations.isEmpty)
    }

    @Test(.requiresDebugChecks) func collectAsyncWaitsForTheBody() async {
        let owner = self.owner
        let violations = await collectConfinementViolations {
            let counter = Counter(owner: owner)
            await onBackgroundThread { counter.increment() }
        }
        #expect(violations.count == 1)
    }

    @Test(.requiresDebugChecks) func expectConfinementViolationPassesAndReturnsTheViolations() {
        let owner = self.owner
        let violations = expectConfinementViolation {
            let counter = Counter(owner: owner)
            onBackgroundThread { counter.increment() }
        }
        #expect(violations.count == 1)
        #expect(violations.first?.callSite?.line == Counter.incrementGuardLine)
    }

    @Test func expectConfinementViolationRecordsAnIssueAtTheCallSiteWhenThereIsNone() {
        let line = #line + 2
        let issues = TestIssueCapture.capturing { _ in
            expectConfinementViolation("the guard is missing") {}
        }
        #expect(issues.count == 1)
        #expect(issues.first?.comment == "Expected a schedule violation, but the body caused none: the guard is missing")
        #expect(issues.first?.severity == .error)
        #expect(issues.first?.sourceLocation.line == line)
        #expect(issues.first?.sourceLocation.fileID == #fileID)
    }

    @Test func expectConfinementViolationAsyncRecordsAnIssueWhenThereIsNone() async {
        let issues = await TestIssueCapture.capturing { _ in
            await expectConfinementViolation { await Task.yield() }
        }
        #expect(issues.map(\.comment) == ["Expected a schedule violation, but the body caused none"])
    }

    /// Inside a test that uses the trait, the helper claims violations of the test's objects created
    /// *before* the call — even when detected on a GCD thread, where no task-local says which scope is
    /// running — because its body is what runs. Otherwise the test would fail for the very violation it
    /// asserts.
    @Test(.requiresDebugChecks, .confinementChecked) func insideTheTraitTheHelperClaimsTheTestsEarlierObjects() async {
        let counter = Counter(owner: owner)
        let onTask = expectConfinementViolation { counter.increment() }
        let offTask = expectConfinementViolation { onBackgroundThread { counter.increment() } }
        let offTaskAsync = await expectConfinementViolation { await onBackgroundThread { counter.increment() } }
        #expect([onTask.count, offTask.count, offTaskAsync.count] == [1, 1, 1])
    }

    /// Linking is enough: without the trait the helper claims the test's earlier objects as well, on
    /// the test's task and on a GCD thread, and nothing is recorded on the test.
    @Test(.requiresDebugChecks) func withoutTheTraitTheHelperClaimsTheTestsEarlierObjects() async {
        for run in 0..<100 {
            let counter = Counter(owner: owner)
            var counts: [Int] = []
            let issues = await TestIssueCapture.capturing { _ in
                let onTask = expectConfinementViolation { counter.increment() }
                let offTask = expectConfinementViolation { onBackgroundThread { counter.increment() } }
                let offTaskAsync = await expectConfinementViolation { await onBackgroundThread { counter.increment() } }
                counts = [onTask.count, offTask.count, offTaskAsync.count]
            }
            #expect(counts == [1, 1, 1], "run \(run)")
            #expect(issues.isEmpty, "run \(run): \(issues.map(\.comment))")
        }
    }

    /// A violation of an object created inside the helper that arrives after the helper returned is
    /// not lost: it goes to the enclosing scope, here the test's, and fails the test.
    @Test(.requiresDebugChecks) func aLateViolationOfAHelpersObjectGoesToTheEnclosingScope() async throws {
        let owner = self.owner
        let issues = try await TestIssueCapture.capturing { _ in
            try await ConfinementCheckedTrait().provideScope(for: Test.current!, testCase: Test.Case.current) {
                nonisolated(unsafe) var escaped: Counter?
                let violations = collectConfinementViolations { escaped = Counter(owner: owner) }
                #expect(violations.isEmpty)
                let counter = try #require(escaped)
                await onBackgroundThread { counter.increment() }
            }
        }
        #expect(issues.count == 1)
        #expect(issues.first?.comment.contains("Counter.increment() used outside its owner") == true)
    }

    /// When the body throws, what it caused is not returned — so it goes to the enclosing scope.
    @Test(.requiresDebugChecks) func violationsOfAThrowingBodyGoToTheEnclosingScope() async throws {
        struct Failure: Error {}
        let owner = self.owner
        let issues = try await TestIssueCapture.capturing { _ in
            try await ConfinementCheckedTrait().provideScope(for: Test.current!, testCase: Test.Case.current) {
                #expect(throws: Failure.self) {
                    try collectConfinementViolations {
                        let counter = Counter(owner: owner)
                        onBackgroundThread { counter.increment() }
                        throw Failure()
                    }
                }
            }
        }
        #expect(issues.count == 1)
    }
}

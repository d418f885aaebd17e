import Dispatch
import Schedulable
import SchedulableTesting
import Testing

/// The trait's own behaviour. Where a test must observe the issues the trait records, it runs the
/// trait's scope itself inside `TestIssueCapture.capturing`, which takes the issues this test case
/// would get (and only those) instead of recording them, so they are asserted on and never printed.
@Suite struct ConfinementCheckedTraitTests {
    let owner = SerialQueueScheduler(label: "trait-tests.owner")

    @Test(.requiresDebugChecks) func violationOnABackgroundThreadBecomesAnIssueOfTheTestWithTheReport() async throws {
        let owner = self.owner
        let issues = try await TestIssueCapture.capturing { _ in
            try await ConfinementCheckedTrait().provideScope(for: Test.current!, testCase: Test.Case.current) {
                let counter = Counter(owner: owner)
                await onBackgroundThread { counter.increment() }
            }
        }
        let recorded = issues
        try #require(recorded.count == 1)
        let comment = recorded[0].comment
        #expect(comment.hasPrefix("Schedulable: Counter.increment() used outside its owner"))
        #expect(comment.contains("expected owner:  queue \"trait-tests.owner\""))
        #expect(comment.contains("detected:        off the test's task; recorded when the test case ended"))
        // A method guard knows its call site: the `assertIsolated()` line in Fixtures.swift.
        #expect(recorded[0].sourceLocation.fileID == "SchedulableTestingTests/Fixtures.swift")
        #expect(recorded[0].sourceLocation.line == Counter.incrementGuardLine)
    }

    @Test(.requiresDebugChecks) func propertyViolationPointsAtItsAccessSite() async throws {
        let owner = self.owner
        let accessLine = #line + 6
        let issues = try await TestIssueCapture.capturing { _ in
            try await ConfinementCheckedTrait().provideScope(for: Test.current!, testCase: Test.Case.current) {
                // A property check has no call site (the wrapper cannot take one): the access site is found
                // from the stack, with the file's full path from the debug information.
                let counter = Counter(owner: owner)
                await onBackgroundThread { counter.value = 7 }
            }
        }
        let recorded = issues
        try #require(recorded.count == 1)
        #expect(recorded[0].comment.contains("Counter.value used outside its owner") == true)
        // Debug builds: exactly the line. Optimized builds inline the closure into the helper that runs it,
        // so the first frame with a line may be that helper's (see ReportContentTests for what -O keeps).
        #if SCHEDULABLE_DEBUG_BUILD
        #expect(recorded[0].sourceLocation.fileID == "SchedulableTestingTests/ConfinementCheckedTraitTests.swift")
        #expect(recorded[0].sourceLocation.line == accessLine)
        #expect(recorded[0].sourceLocation.filePath == #filePath)
        #else
        _ = accessLine
        #expect(recorded[0].sourceLocation.filePath.hasPrefix("/"))
        #endif
    }

    @Test(.requiresDebugChecks) func everyViolationIsRecordedAndTheProcessKeepsRunning() async throws {
        let owner = self.owner
        let issues = try await TestIssueCapture.capturing { _ in
            try await ConfinementCheckedTrait().provideScope(for: Test.current!, testCase: Test.Case.current) {
                let counter = Counter(owner: owner)
                for _ in 0..<5 { await onBackgroundThread { counter.increment() } }
            }
        }
        #expect(issues.count == 5)
    }

    @Test func aCleanScopeRecordsNothing() async throws {
        let owner = self.owner
        // No capture: any issue recorded here fails this test.
        try await ConfinementCheckedTrait().provideScope(for: Test.current!, testCase: Test.Case.current) {
            let counter = Counter(owner: owner)
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                owner.schedule {
                    counter.increment()
                    done.resume()
                }
            }
        }
    }

    @Test(.requiresDebugChecks) func violationsHeldForTheTestAreRecordedEvenWhenTheBodyThrows() async throws {
        struct Failure: Error {}
        let owner = self.owner
        let issues = try await TestIssueCapture.capturing { _ in
            do {
                try await ConfinementCheckedTrait().provideScope(for: Test.current!, testCase: Test.Case.current) {
                    let counter = Counter(owner: owner)
                    await onBackgroundThread { counter.increment() }
                    throw Failure()
                }
                Issue.record("the body's error was swallowed")
            } catch is Failure {}
        }
        #expect(issues.count == 1)
        #expect(issues.first?.comment.contains("Counter.increment()") == true)
    }

    /// The real trait: a violation on the test's own task is recorded at once — before the offending
    /// line returns, so a `withKnownIssue` around that line would see it. (Without the trait, the
    /// default handler would stop the process here.)
    @Test(.requiresDebugChecks, .confinementChecked) func violationOnTheTestsOwnTaskIsRecordedImmediately() {
        let counter = Counter(owner: owner)
        let issues = TestIssueCapture.capturing { capture in
            counter.increment()
            #expect(capture.all.count == 1, "recorded before the offending line returned")
        }
        #expect(issues.count == 1)
        #expect(issues.first?.comment.contains("Counter.increment() used outside its owner") == true)
    }

    @Test(.confinementChecked) func theTraitInstallsItsCollectorForEachTestCase() {
        #expect(ConfinementViolationCollector.current != nil)
        #expect(ConfinementSystem.scopedHandler is ConfinementViolationCollector)
    }

    /// Without the trait the scope is the test's automatic handler (this binary links
    /// SchedulableTesting), never a collector.
    @Test func withoutTheTraitNoCollectorIsInstalled() {
        #expect(ConfinementViolationCollector.current == nil)
        #expect(ConfinementSystem.scopedHandler is any AutomaticTestHandler)
    }

    @Test(.confinementChecked, arguments: 0..<3)
    func eachTestCaseOfAParameterizedTestHasItsOwnCollector(_ index: Int) async {
        let collector = ConfinementViolationCollector.current
        #expect(collector != nil)
        #expect(collector?.parent == nil)
        _ = index
    }
}

/// On a suite, the trait reaches every test, including those of nested suites.
@Suite(.confinementChecked) struct ConfinementCheckedSuiteTraitTests {
    let owner = SerialQueueScheduler(label: "suite-trait-tests.owner")

    @Test(.requiresDebugChecks) func testsOfTheSuiteGetTheTrait() {
        #expect(ConfinementSystem.scopedHandler is ConfinementViolationCollector)
        let counter = Counter(owner: owner)
        let issues = TestIssueCapture.capturing { _ in counter.increment() }
        #expect(issues.count == 1)
        #expect(issues.first?.comment.contains("Counter.increment()") == true)
    }

    @Suite struct Nested {
        @Test func testsOfNestedSuitesGetTheTraitToo() {
            #expect(ConfinementSystem.scopedHandler is ConfinementViolationCollector)
        }
    }
}

import Dispatch
import Schedulable
import SchedulableTesting
import Testing

/// The trait's own behaviour. Where a test must observe the issues the trait records, it runs the
/// trait's scope itself inside `withKnownIssue`, so the expected issues are matched (and their absence
/// is a failure), not merely tolerated.
@Suite struct ConfinementCheckedTraitTests {
    let owner = SerialQueueScheduler(label: "trait-tests.owner")

    @Test(.requiresDebugChecks) func violationOnABackgroundThreadBecomesAnIssueOfTheTestWithTheReport() async throws {
        let owner = self.owner
        let log = IssueLog()
        try await withKnownIssue {
            try await ConfinementCheckedTrait().provideScope(for: Test.current!, testCase: Test.Case.current) {
                let counter = Counter(owner: owner)
                await onBackgroundThread { counter.increment() }
            }
        } matching: { log.match($0) }
        let recorded = log.all
        try #require(recorded.count == 1)
        let comment = try #require(recorded[0].comments.first?.rawValue)
        #expect(comment.hasPrefix("Schedulable: Counter.increment() used outside its owner"))
        #expect(comment.contains("expected owner:  queue \"trait-tests.owner\""))
        #expect(comment.contains("detected:        off the test's task; recorded when the test case ended"))
        // A method guard knows its call site: the `assertIsolated()` line in Fixtures.swift.
        #expect(recorded[0].sourceLocation?.fileID == "SchedulableTestingTests/Fixtures.swift")
        #expect(recorded[0].sourceLocation?.line == Counter.incrementGuardLine)
    }

    @Test(.requiresDebugChecks) func propertyViolationPointsAtItsAccessSite() async throws {
        let owner = self.owner
        let log = IssueLog()
        let accessLine = #line + 6
        try await withKnownIssue {
            try await ConfinementCheckedTrait().provideScope(for: Test.current!, testCase: Test.Case.current) {
                // A property check has no call site (the wrapper cannot take one): the access site is found
                // from the stack, with the file's full path from the debug information.
                let counter = Counter(owner: owner)
                await onBackgroundThread { counter.value = 7 }
            }
        } matching: { log.match($0) }
        let recorded = log.all
        try #require(recorded.count == 1)
        #expect(recorded[0].comments.first?.rawValue.contains("Counter.value used outside its owner") == true)
        // Debug builds: exactly the line. Optimized builds inline the closure into the helper that runs it,
        // so the first frame with a line may be that helper's (see ReportContentTests for what -O keeps).
        #if SCHEDULABLE_DEBUG_BUILD
        #expect(recorded[0].sourceLocation?.fileID == "SchedulableTestingTests/ConfinementCheckedTraitTests.swift")
        #expect(recorded[0].sourceLocation?.line == accessLine)
        #expect(recorded[0].sourceLocation?.filePath == #filePath)
        #else
        _ = accessLine
        #expect(recorded[0].sourceLocation?.filePath.hasPrefix("/") == true)
        #endif
    }

    @Test(.requiresDebugChecks) func everyViolationIsRecordedAndTheProcessKeepsRunning() async throws {
        let owner = self.owner
        let log = IssueLog()
        try await withKnownIssue {
            try await ConfinementCheckedTrait().provideScope(for: Test.current!, testCase: Test.Case.current) {
                let counter = Counter(owner: owner)
                for _ in 0..<5 { await onBackgroundThread { counter.increment() } }
            }
        } matching: { log.match($0) }
        #expect(log.all.count == 5)
    }

    @Test func aCleanScopeRecordsNothing() async throws {
        let owner = self.owner
        // No withKnownIssue: any issue recorded here fails this test.
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
        let log = IssueLog()
        try await withKnownIssue {
            do {
                try await ConfinementCheckedTrait().provideScope(for: Test.current!, testCase: Test.Case.current) {
                    let counter = Counter(owner: owner)
                    await onBackgroundThread { counter.increment() }
                    throw Failure()
                }
                Issue.record("the body's error was swallowed")
            } catch is Failure {}
        } matching: { log.match($0) }
        #expect(log.comments.count == 1)
        #expect(log.comments.first?.contains("Counter.increment()") == true)
    }

    /// The real trait: a violation on the test's own task is recorded at once, so `withKnownIssue`
    /// around the offending line sees it. (Without the trait, the default handler would stop the
    /// process here.)
    @Test(.requiresDebugChecks, .confinementChecked) func violationOnTheTestsOwnTaskIsRecordedImmediately() {
        let counter = Counter(owner: owner)
        withKnownIssue {
            counter.increment()
        } matching: { issue in
            issue.comments.first?.rawValue.contains("Counter.increment() used outside its owner") == true
        }
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
        withKnownIssue {
            counter.increment()
        } matching: { issue in
            issue.comments.first?.rawValue.contains("Counter.increment()") == true
        }
    }

    @Suite struct Nested {
        @Test func testsOfNestedSuitesGetTheTraitToo() {
            #expect(ConfinementSystem.scopedHandler is ConfinementViolationCollector)
        }
    }
}

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
        let callLine = #line + 4
        let issues = try await TestIssueCapture.capturing { _ in
            try await ConfinementCheckedTrait().provideScope(for: Test.current!, testCase: Test.Case.current) {
                let counter = Counter(owner: owner)
                runOnGlobalQueue { counter.increment() }
            }
        }
        let recorded = issues
        try #require(recorded.count == 1)
        let comment = recorded[0].comment
        #expect(comment.hasPrefix("Schedulable: Counter.increment() used outside its owner"))
        #expect(comment.contains("expected owner:  queue \"trait-tests.owner\""))
        #expect(comment.contains("detected:        off the test's task; recorded when the test case ended"))
        // A method guard's issue is at the line that called the method; its report keeps the guard's line.
        // An optimized build keeps no line for a call in a callback libdispatch calls: the guard's line.
        #if SCHEDULABLE_DEBUG_BUILD
        #expect(recorded[0].sourceLocation.filePath == #filePath)
        #expect(recorded[0].sourceLocation.line == callLine)
        #else
        _ = callLine
        #expect(recorded[0].sourceLocation.line == Counter.incrementGuardLine)
        #endif
        #expect(comment.contains("call site:       SchedulableTestingTests/Fixtures.swift:\(Counter.incrementGuardLine)"))
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

    /// Every object misused is an issue, and the process keeps running; the uses of one object from
    /// one context are one issue that lists them all.
    @Test(.requiresDebugChecks) func everyViolationIsRecordedAndTheProcessKeepsRunning() async throws {
        let owner = self.owner
        let issues = try await TestIssueCapture.capturing { _ in
            try await ConfinementCheckedTrait().provideScope(for: Test.current!, testCase: Test.Case.current) {
                for _ in 0..<5 {
                    let counter = Counter(owner: owner)
                    await onBackgroundThread { counter.increment() }
                }
                let counter = Counter(owner: owner)
                runOnGlobalQueue {
                    counter.increment()
                    counter.increment()
                }
            }
        }
        try #require(issues.count == 6)
        #expect(issues[5].comment.contains("accesses:        2, all of this object from this context, in order:"))
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

    /// A violation on the test's own task is held like the others and recorded when the test case
    /// ends, so that one issue lists every use of the object (a `withKnownIssue` around the offending
    /// line does not see it: `expectConfinementViolation` is the way to expect one).
    @Test(.requiresDebugChecks) func violationOnTheTestsOwnTaskIsRecordedWhenTheTestCaseEnds() async throws {
        let owner = self.owner
        let issues = try await TestIssueCapture.capturing { capture in
            try await ConfinementCheckedTrait().provideScope(for: Test.current!, testCase: Test.Case.current) {
                let counter = Counter(owner: owner)
                counter.increment()
                counter.value = 1
                #expect(capture.all.isEmpty, "held until the test case ends")
            }
        }
        try #require(issues.count == 1)
        #expect(issues[0].comment.hasPrefix("Schedulable: Counter.increment() used outside its owner"))
        #expect(issues[0].comment.contains("accesses:        2, all of this object from this context, in order:"))
        #expect(!issues[0].comment.contains("detected:"))
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

    /// The suite's trait installs its collector: the test's violations go to it (what it records at
    /// the end is checked by ConfinementCheckedTraitTests, which run the scope inside a capture).
    @Test func testsOfTheSuiteGetTheTrait() {
        #expect(ConfinementSystem.scopedHandler is ConfinementViolationCollector)
        #expect(ConfinementViolationCollector.current?.parent == nil)
        _ = owner
    }

    @Suite struct Nested {
        @Test func testsOfNestedSuitesGetTheTraitToo() {
            #expect(ConfinementSystem.scopedHandler is ConfinementViolationCollector)
        }
    }
}

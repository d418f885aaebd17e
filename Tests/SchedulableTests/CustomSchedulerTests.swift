import Dispatch
import Schedulable
import Testing

@Suite("Custom schedulers run work through a runner only they hold")
struct CustomSchedulerTests {
    @Test func workRunThroughTheRunnerPassesTheSchedulersChecks() {
        let render = RunnerScheduler(label: "test.render")
        let recorder = ViolationRecorder()
        let counter = withConfinementViolationHandler(recorder) { Counter(confinement: .detached()) }
        for _ in 0..<200 {
            // An always-on check: it binds the detached counter on first use in every build.
            let passes = render.runAndWait { () -> Bool in
                counter.incrementAlways()
                return render.isIsolated && counter.isIsolated
            }
            #expect(passes)
        }
        #expect(counter.confinement.owner === render.executionContext)
        #expect(!render.isIsolated)
        #expect(recorder.count == 0)
    }

    @Test func accessOutsideTheRunnersWorkIsReportedEveryTime() {
        let render = RunnerScheduler(label: "test.render.outside")
        let recorder = ViolationRecorder()
        let counter = withConfinementViolationHandler(recorder) { Counter(confinement: .detached()) }
        render.runAndWait { counter.incrementAlways() }   // binds it to the custom scheduler, in every build
        for _ in 0..<200 {
            onPlainThread { counter.ping() }
        }
        #expect(counter.confinement.owner === render.executionContext)
        #expect(recorder.count == expectedDebugTier(200))
        #expect(recorder.violations.allSatisfy { $0.expectedOwner == "scheduler \"test.render.outside\"" })
    }

    @Test func aBranchRunnerHoldsItsParentButNotTheReverse() {
        let parent = RunnerScheduler(label: "test.render.tree")
        let branch = RunnerScheduler(label: "test.render.tree.leaf", branchOf: parent)
        #expect(branch.executionContext.parent === parent.executionContext)
        let recorder = ViolationRecorder()
        let (parentOwned, branchOwned) = withConfinementViolationHandler(recorder) {
            (Counter(confinement: .detached()), Counter(confinement: .detached()))
        }
        parent.runAndWait { parentOwned.incrementAlways() }   // always-on checks bind, in every build
        branch.runAndWait { branchOwned.incrementAlways() }
        for _ in 0..<200 {
            // The branch drains through its parent: the parent's object passes there.
            #expect(branch.runAndWait { parentOwned.ping(); return parentOwned.isIsolated })
            // The parent does not hold its branch: the branch's object is reported there.
            #expect(!parent.runAndWait { branchOwned.ping(); return branchOwned.isIsolated })
        }
        #expect(recorder.count == expectedDebugTier(200))
        #expect(recorder.violations.allSatisfy { $0.expectedOwner == "scheduler \"test.render.tree.leaf\"" })
    }

    /// `isIsolated` is not a requirement: a scheduler that declares its own cannot make the library's
    /// checks disagree with the verdict on its context (which its objects get).
    @Test func aSchedulersOwnIsIsolatedIsNotAskedByTheLibrary() {
        let claims = ClaimsIsolation(label: "test.render.claims")
        let recorder = ViolationRecorder()
        for _ in 0..<200 {
            #expect(claims.isIsolated)   // its own member, called on the concrete type
            #expect(!(claims as any SerialScheduler).isIsolated)
            #expect(!Self.generic(claims))
            withConfinementViolationHandler(recorder) { claims.assertIsolated() }
            #expect(claims.runAndWait { (claims as any SerialScheduler).isIsolated })
        }
        #expect(recorder.count == expectedDebugTier(200))
        #expect(recorder.violations.allSatisfy { $0.expectedOwner == "scheduler \"test.render.claims\"" })
    }

    private static func generic(_ scheduler: some SerialScheduler) -> Bool { scheduler.isIsolated }
}

/// A custom scheduler that answers "yes" to its own `isIsolated` everywhere.
private final class ClaimsIsolation: SerialScheduler {
    private let runner: ExecutionContext.Runner
    private let queue: DispatchQueue
    var label: String { runner.context.label }
    var executionContext: ExecutionContext { runner.context }
    var isIsolated: Bool { true }

    init(label: String) {
        runner = ExecutionContext.Runner(label: label)
        queue = DispatchQueue(label: label)
    }

    func trySchedule(_ work: @escaping @Sendable () -> Void) throws(ScheduleRejection) {
        let runner = self.runner
        queue.async { runner.run(work) }
    }

    func runAndWait<T: Sendable>(_ body: @Sendable () -> T) -> T {
        queue.sync { runner.run(body) }
    }
}

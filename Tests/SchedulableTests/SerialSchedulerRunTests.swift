import Dispatch
import Schedulable
import Testing

/// `await scheduler.run { … }`: the body runs inside the scheduler's context, its value comes back and
/// its typed error is rethrown.
@Suite("SerialScheduler.run")
struct SerialSchedulerRunTests {
    @Test(arguments: LibrarySchedulerKind.allCases)
    func runReturnsTheValueComputedInsideTheScheduler(_ kind: LibrarySchedulerKind) async {
        let scheduler = kind.make("test.run.value.\(kind)")
        defer { finish(scheduler) }
        let recorder = ViolationRecorder()
        let counter = withConfinementViolationHandler(recorder) { Counter(owner: scheduler) }
        for index in 0..<100 {
            let (isolated, value) = await scheduler.run { () -> (Bool, Int) in
                counter.incrementAlways()            // always on: would stop the process elsewhere
                return (scheduler.isIsolated, counter.count * 1_000 + index)
            }
            #expect(isolated)
            #expect(value == (index + 1) * 1_000 + index)
        }
        #expect(recorder.count == 0)
    }

    @Test(arguments: LibrarySchedulerKind.allCases)
    func runRethrowsTheBodysTypedError(_ kind: LibrarySchedulerKind) async {
        let scheduler = kind.make("test.run.error.\(kind)")
        defer { finish(scheduler) }
        for index in 0..<100 {
            do throws(TestFailure) {
                _ = try await scheduler.run { () throws(TestFailure) -> Int in
                    throw TestFailure(code: scheduler.isIsolated ? index : -1)
                }
                Issue.record("run returned instead of throwing")
            } catch {
                // `error` is a `TestFailure`: the type survives the hop.
                #expect(error.code == index)
            }
        }
    }
}

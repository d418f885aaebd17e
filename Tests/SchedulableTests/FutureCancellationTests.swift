import Dispatch
import Testing

@testable import Schedulable

/// Cancelling a future: before its work begins it fails with `.cancelled` and the work never runs;
/// afterwards nothing changes. Derived futures follow.
@Suite("Future cancellation")
struct FutureCancellationTests {
    private static let cancelled = FutureError.Reason.cancelled

    @Test(arguments: LibrarySchedulerKind.allCases)
    func cancellingBeforeTheWorkBeginsFailsTheFutureAndItsWorkNeverRuns(_ kind: LibrarySchedulerKind) async {
        let scheduler = kind.make("test.future.cancel.\(kind)")
        defer { finish(scheduler) }
        for _ in 0..<100 {
            let ran = LockedList<String>()
            let release = occupy(scheduler)
            let future = scheduler.future { ran.append("work"); return 1 }
            let mapped = future.map { ran.append("map"); return $0 + 1 }
            let flattened = future.flatMap { value in ran.append("flatMap"); return scheduler.future { value } }
            let didCancel = future.cancel()
            release.signal()
            #expect(didCancel)
            #expect(drain(scheduler))
            #expect(ran.elements.isEmpty)
            #expect(future.isPresent)
            #expect(throws: FutureError.self) { _ = try future.present() }
            let errors = [await failure(of: future), await failure(of: mapped), await failure(of: flattened)]
            #expect(errors.map { $0?.reason } == [Self.cancelled, Self.cancelled, Self.cancelled])
            // Derived futures fail with the very same error, not one of their own.
            #expect(errors[1] == errors[0] && errors[2] == errors[0])
            #expect(!future.cancel())
        }
    }

    @Test func cancellingAFutureWhoseWorkIsRunningChangesNothing() throws {
        let scheduler = ThreadScheduler(label: "test.future.cancel.running")
        defer { scheduler.shutdown() }
        for index in 0..<100 {
            let started = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let future = scheduler.future {
                started.signal()
                release.wait()
                return index
            }
            started.wait()
            let didCancel = future.cancel()
            release.signal()
            #expect(!didCancel)
            #expect(drain(scheduler))
            #expect(try future.present() == index)
        }
    }

    @Test func cancellingACompletedFutureChangesNothing() throws {
        let scheduler = SerialQueueScheduler(label: "test.future.cancel.done")
        for index in 0..<100 {
            let future = scheduler.future { index }
            #expect(drain(scheduler))
            #expect(!future.cancel())
            #expect(try future.present() == index)
        }
    }

    @Test func cancellingADerivedFutureBeforeItsTransformBeginsSkipsTheTransformOnly() async throws {
        let scheduler = ThreadScheduler(label: "test.future.cancel.derived")
        defer { scheduler.shutdown() }
        for index in 0..<100 {
            let ran = LockedList<String>()
            let release = occupy(scheduler)
            let future = scheduler.future { index }
            let mapped = future.map { ran.append("map"); return $0 }
            let flattened = future.flatMap { value in ran.append("flatMap"); return scheduler.future { value } }
            let didCancel = [mapped.cancel(), flattened.cancel()]
            release.signal()
            #expect(didCancel == [true, true])
            #expect(try await future.value == index)     // the source is not affected
            #expect(drain(scheduler))
            #expect(ran.elements.isEmpty)
            #expect(await failure(of: mapped)?.reason == Self.cancelled)
            #expect(await failure(of: flattened)?.reason == Self.cancelled)
        }
    }

    @Test func cancellingAFlatMapWhoseTransformRanChangesNothing() async throws {
        let scheduler = ThreadScheduler(label: "test.future.cancel.flatmap.ran")
        defer { scheduler.shutdown() }
        for index in 0..<100 {
            let release = DispatchSemaphore(value: 0)
            let transformRan = DispatchSemaphore(value: 0)
            let flattened = scheduler.future { index }.flatMap { value in
                // The next step is still running elsewhere: the flattened future has no value yet.
                let next = SerialQueueScheduler(label: "test.future.cancel.flatmap.next").future {
                    release.wait()
                    return value
                }
                transformRan.signal()
                return next
            }
            #expect(wait(transformRan, seconds: 5))
            let didCancel = flattened.cancel()
            release.signal()
            #expect(!didCancel)
            #expect(try await flattened.value == index)
        }
    }

    @Test func aCallerWaitingInPresentWakesUpWithTheCancellation() {
        let scheduler = ThreadScheduler(label: "test.future.cancel.waiter")
        defer { scheduler.shutdown() }
        for _ in 0..<100 {
            let release = occupy(scheduler)
            // The "waiting required" note (sent when the waiter gets there first) goes to the log.
            let log = FutureReportLog()
            let future = withConfinementViolationHandler(log.handler) { scheduler.future { 1 } }
            let outcome = Slot<FutureError.Reason>()
            let waiter = TestThread {
                do {
                    _ = try future.present()
                } catch {
                    outcome.set(error.futureReason!)
                }
            }
            #expect(future.cancel())
            waiter.join()
            release.signal()
            #expect(outcome.get == Self.cancelled)
        }
    }

    private func failure<Value>(of future: ScheduledFuture<Value>) async -> FutureError? {
        do {
            _ = try await future.value
            return nil
        } catch {
            return error as? FutureError
        }
    }
}

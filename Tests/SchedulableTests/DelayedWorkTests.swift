import Dispatch
import Schedulable
import Testing

/// Delayed work, deadlines and repeating timers on every library scheduler: they run inside the
/// scheduler's context, in deadline order, and a cancelled one never starts.
@Suite("Delayed work and timers")
struct DelayedWorkTests {
    @Test(arguments: LibrarySchedulerKind.allCases)
    func delayedWorkRunsInsideTheSchedulersContextAndNeverBeforeItsDeadline(_ kind: LibrarySchedulerKind) {
        let scheduler = kind.make("test.delayed.context.\(kind)")
        defer { finish(scheduler) }
        let recorder = ViolationRecorder()
        let counter = withConfinementViolationHandler(recorder) { Counter(owner: scheduler) }
        let outcomes = LockedList<Bool>()
        let group = DispatchGroup()
        for index in 0..<200 {
            let delay = DispatchTimeInterval.microseconds(index % 20 * 100)
            let earliest = DispatchTime.now() + delay
            group.enter()
            let work = { @Sendable in
                counter.increment()            // debug tier
                counter.incrementAlways()      // always on: would stop the process elsewhere
                outcomes.append(scheduler.isIsolated && counter.isIsolated && DispatchTime.now() >= earliest)
                group.leave()
            }
            if index.isMultiple(of: 2) {
                scheduler.schedule(after: delay, work)
            } else {
                scheduler.schedule(at: earliest, work)
            }
        }
        #expect(waitForAll(group))
        #expect(outcomes.elements == Array(repeating: true, count: 200))
        #expect(recorder.count == 0)
    }

    @Test(arguments: LibrarySchedulerKind.allCases)
    func distinctDeadlinesRunInDeadlineOrder(_ kind: LibrarySchedulerKind) {
        let scheduler = kind.make("test.delayed.order.\(kind)")
        defer { finish(scheduler) }
        // Occupied while the work is armed, so that it all waits at once however slow arming is; the
        // earliest deadlines are due before the scheduler is free again, the latest may not be.
        let release = occupy(scheduler)
        let base = DispatchTime.now() + .microseconds(200)
        let orders = (0..<100).map { _ in LockedList<Int>() }
        let group = DispatchGroup()
        for order in orders {
            // Submitted latest first, 50 µs apart.
            for step in (0..<5).reversed() {
                group.enter()
                scheduler.schedule(at: base + .microseconds(step * 50)) {
                    order.append(step)
                    group.leave()
                }
            }
        }
        release.signal()
        #expect(waitForAll(group))
        #expect(orders.map(\.elements) == Array(repeating: [0, 1, 2, 3, 4], count: 100))
    }

    @Test(arguments: LibrarySchedulerKind.allCases)
    func dueWorkRunsAfterTheEventsQueuedBeforeIt(_ kind: LibrarySchedulerKind) {
        let scheduler = kind.make("test.delayed.behind.\(kind)")
        defer { finish(scheduler) }
        for _ in 0..<100 {
            let order = LockedList<String>()
            let release = occupy(scheduler)
            scheduler.schedule { order.append("event") }
            scheduler.schedule(at: .now()) { order.append("delayed") }   // due at once, while the event waits
            release.signal()
            #expect(drainUntil(order, count: 2))
            #expect(order.elements == ["event", "delayed"])
        }
    }

    @Test(arguments: LibrarySchedulerKind.allCases)
    func cancelledWorkNeverRuns(_ kind: LibrarySchedulerKind) {
        let scheduler = kind.make("test.delayed.cancel.\(kind)")
        defer { finish(scheduler) }
        let ran = LockedList<Int>()
        // Occupied, the scheduler can start none of them before they are cancelled: half are due at
        // once (and wait behind the event), half are not due yet.
        let release = occupy(scheduler)
        let handles = (0..<200).map { index in
            scheduler.schedule(after: index.isMultiple(of: 2) ? .nanoseconds(0) : .milliseconds(1)) { ran.append(index) }
        }
        let cancelled = handles.map { $0.cancel() }
        // A later deadline runs after every earlier one would have: the fence of deadline order.
        let fence = DispatchSemaphore(value: 0)
        scheduler.schedule(after: .milliseconds(2)) { fence.signal() }
        release.signal()
        #expect(fence.wait(timeout: .now() + 5) == .success)
        #expect(cancelled == Array(repeating: true, count: 200))
        #expect(handles.map(\.isCancelled) == Array(repeating: true, count: 200))
        #expect(handles.map { $0.cancel() } == Array(repeating: false, count: 200))   // a second cancel does nothing
        #expect(ran.elements.isEmpty)
    }

    @Test(arguments: LibrarySchedulerKind.allCases)
    func cancellingOnTheSchedulerStopsDueWorkThatHasNotStarted(_ kind: LibrarySchedulerKind) {
        let scheduler = kind.make("test.delayed.cancel.due.\(kind)")
        defer { finish(scheduler) }
        for _ in 0..<100 {
            let handle = Slot<ScheduledWork>()
            let outcome = LockedList<String>()
            let release = occupy(scheduler)
            // Queued before the delayed work's deadline, so it runs first and finds it due but not started.
            scheduler.schedule { outcome.append(handle.get!.cancel() ? "cancelled" : "too late") }
            handle.set(scheduler.schedule(at: .now()) { outcome.append("ran") })
            release.signal()
            #expect(drainUntil(outcome, count: 1))
            #expect(drain(scheduler))
            #expect(outcome.elements == ["cancelled"])
        }
    }

    @Test(arguments: LibrarySchedulerKind.allCases)
    func cancellingWorkThatRanDoesNothing(_ kind: LibrarySchedulerKind) {
        let scheduler = kind.make("test.delayed.ran.\(kind)")
        defer { finish(scheduler) }
        let group = DispatchGroup()
        let handles = (0..<200).map { _ in
            group.enter()
            return scheduler.schedule(after: .nanoseconds(0)) { group.leave() }
        }
        #expect(waitForAll(group))
        #expect(handles.map { $0.cancel() } == Array(repeating: false, count: 200))
        #expect(handles.map(\.isCancelled) == Array(repeating: false, count: 200))
    }

    @Test(arguments: LibrarySchedulerKind.allCases)
    func aRepeatingTimerFiresUntilItCancelsItself(_ kind: LibrarySchedulerKind) {
        let scheduler = kind.make("test.timer.self.\(kind)")
        defer { finish(scheduler) }
        let recorder = ViolationRecorder()
        let counters = withConfinementViolationHandler(recorder) { (0..<100).map { _ in Counter(owner: scheduler) } }
        let cancels = LockedList<Bool>()
        let group = DispatchGroup()
        for counter in counters {
            group.enter()
            scheduler.scheduleRepeating(every: .milliseconds(1)) { timer in
                counter.incrementAlways()      // on the owner: passes, in every build
                if counter.count == 3 {
                    cancels.append(timer.cancel())
                    group.leave()
                }
            }
        }
        #expect(waitForAll(group))
        #expect(cancels.elements == Array(repeating: true, count: 100))
        pause(milliseconds: 5)                 // three more periods: a firing after cancel() would show
        let counts = OwnerSnapshot.read(on: scheduler) { counters.map(\.count) }
        #expect(counts == Array(repeating: 3, count: 100))
        #expect(recorder.count == 0)
    }

    @Test(arguments: LibrarySchedulerKind.allCases)
    func aTimerCancelledFromAnotherThreadStartsNoFiringAfterCancelReturns(_ kind: LibrarySchedulerKind) {
        let scheduler = kind.make("test.timer.outside.\(kind)")
        defer { finish(scheduler) }
        let firings = (0..<50).map { _ in LockedList<Int>() }
        let group = DispatchGroup()
        let timers = firings.map { list in
            group.enter()
            return scheduler.scheduleRepeating(every: .milliseconds(1)) { _ in
                list.append(0)
                if list.elements.count == 2 { group.leave() }
            }
        }
        #expect(waitForAll(group))
        #expect(timers.map { $0.cancel() } == Array(repeating: true, count: 50))
        // A firing that had started before cancel() returned has finished once this event runs.
        #expect(drain(scheduler))
        let counts = firings.map(\.elements.count)
        pause(milliseconds: 5)
        #expect(drain(scheduler))
        #expect(firings.map(\.elements.count) == counts)
        #expect(timers.map(\.isCancelled) == Array(repeating: true, count: 50))
    }

    @Test func aCustomSchedulerRunsDelayedWorkAndTimersThroughItsRunner() {
        let scheduler = RunnerScheduler(label: "test.delayed.custom")
        let outcomes = LockedList<Bool>()
        let group = DispatchGroup()
        for index in 0..<100 {
            group.enter()
            let earliest = DispatchTime.now() + .microseconds(index * 10)
            scheduler.schedule(at: earliest) {
                outcomes.append(scheduler.isIsolated && DispatchTime.now() >= earliest)
                group.leave()
            }
        }
        let firings = LockedList<Bool>()
        group.enter()
        scheduler.scheduleRepeating(every: .milliseconds(1)) { timer in
            firings.append(scheduler.isIsolated)
            if firings.elements.count == 3 {
                timer.cancel()
                group.leave()
            }
        }
        let cancelled = scheduler.schedule(after: .milliseconds(1)) { outcomes.append(false) }
        #expect(cancelled.cancel())
        #expect(waitForAll(group))
        pause(milliseconds: 4)
        #expect(outcomes.elements == Array(repeating: true, count: 100))
        #expect(firings.elements == [true, true, true])
    }
}

/// Waits (up to 5 s) until `list` holds `count` elements.
func drainUntil<Element>(_ list: LockedList<Element>, count: Int) -> Bool {
    let deadline = DispatchTime.now() + 5
    while list.elements.count < count {
        if DispatchTime.now() > deadline { return false }
        pause(milliseconds: 1)
    }
    return true
}

/// Reads state that only the scheduler may touch, on the scheduler.
enum OwnerSnapshot {
    static func read<T: Sendable>(on scheduler: any SerialScheduler, _ body: @escaping @Sendable () -> T) -> T? {
        let slot = Slot<T>()
        let done = DispatchSemaphore(value: 0)
        scheduler.schedule {
            slot.set(body())
            done.signal()
        }
        guard done.wait(timeout: .now() + 5) == .success else { return nil }
        return slot.get
    }
}

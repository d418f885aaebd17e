import Dispatch
@testable import Schedulable
import Testing


private struct Failure: Error, Equatable {}

/// Entanglement limits (STMQ): a derived future gets its parent's level minus one; at 0 its work runs
/// in the present. The tests that change the process-wide default run in exit tests (a process of their
/// own): `.serialized` orders this suite only, and the other future suites, running meanwhile in this
/// process, would make their futures at the changed level and wait where they expect to queue (they
/// hung the whole run).
@Suite("Futures: entanglement limits", .serialized, .expectsNotes)
struct FutureEntanglementTests {
    /// A root future and a chain of `maps` maps, at a root level; returns the value and how many of the
    /// chain's futures queued their work as events (the others ran it in the present, complete on return).
    private static func chain(maps: Int, rootLevel: EntanglementLevel?) throws -> (value: Int, queued: Int) {
        let scheduler = RunnerScheduler(label: "test.entanglement")
        var futures = [scheduler.future { 0 }]
        if let rootLevel { #expect(futures[0].setEntanglementLevel(rootLevel)) }
        for _ in 0..<maps {
            let next = futures.last!.map { $0 + 1 }
            if next.entanglementLevel.runsInThePresent { #expect(next.isPresent) }
            futures.append(next)
        }
        let value = try futures.last!.present()
        return (value, futures.filter(\.wasQueued).count)
    }

    @Test func anUnlimitedChainQueuesEveryFuture() throws {
        #expect(FutureSystem.defaultEntanglementLevel == .unlimited)
        for _ in 0..<100 {
            let result = try Self.chain(maps: 5, rootLevel: nil)
            #expect(result == (5, 6))
        }
    }

    @Test(arguments: [1, 2, 3, 5])
    func aChainFromLevelNQueuesExactlyNEventsThenRunsInThePresent(level: Int) throws {
        for _ in 0..<100 {
            let result = try Self.chain(maps: 5, rootLevel: .limited(level))
            #expect(result == (5, level))
        }
    }

    @Test(.exitTest) func aChainOfFiveMapsQueuesSixTwoOrNoEventsAtLevelsUnlimitedTwoAndZero() async {
        await #expect(processExitsWith: .success) {
            do {
                for _ in 0..<100 {
                    #expect(try Self.chain(maps: 5, rootLevel: nil) == (5, 6))
                    #expect(try Self.chain(maps: 5, rootLevel: .limited(2)) == (5, 2))
                    FutureSystem.defaultEntanglementLevel = .limited(0)
                    defer { FutureSystem.defaultEntanglementLevel = .unlimited }
                    #expect(try Self.chain(maps: 5, rootLevel: nil) == (5, 0))
                }
            } catch { Issue.record(error) }
        }
    }

    @Test(.exitTest) func atLevel0NothingIsQueuedAndEveryFutureIsCompleteOnReturn() async {
        await #expect(processExitsWith: .success) {
            do {
                FutureSystem.defaultEntanglementLevel = .limited(0)
                for _ in 0..<100 {
                    let scheduler = RunnerScheduler(label: "test.entanglement.zero")
                    let root = scheduler.future { scheduler.isIsolated }   // the work still runs on its scheduler
                    #expect(root.isPresent)
                    let mapped = root.map { $0 ? 1 : 0 }
                    #expect(mapped.isPresent)
                    #expect(try mapped.present() == 1)
                    // Each future's work was a synchronous call onto the scheduler, never a queued event.
                    #expect(!root.wasQueued && !mapped.wasQueued)
                    #expect(scheduler.events == 2)
                }
            } catch { Issue.record(error) }
        }
    }

    @Test(.exitTest) func changingTheDefaultAffectsOnlyFuturesMadeAfterwards() async {
        await #expect(processExitsWith: .success) {
            do {
                let scheduler = RunnerScheduler(label: "test.entanglement.change")
                let gate = DispatchSemaphore(value: 0)
                scheduler.schedule { gate.wait() }
                let before = scheduler.future { 1 }
                FutureSystem.defaultEntanglementLevel = .limited(1)
                let after = scheduler.future { 2 }           // queued (level 1), behind the gate
                gate.signal()
                #expect(before.entanglementLevel == .unlimited)
                #expect(after.entanglementLevel == .limited(1))
                #expect(before.map { $0 }.entanglementLevel == .unlimited)
                let derived = after.map { $0 * 10 }        // level 0: in the present, waits for `after`
                #expect(derived.isPresent)
                #expect(try derived.present() == 20)
            } catch { Issue.record(error) }
        }
    }

    @Test func anErrorPassesThroughAStepInThePresentWithoutRunningItsTransform() {
        for _ in 0..<100 {
            let scheduler = RunnerScheduler(label: "test.entanglement.error")
            let root = scheduler.future { () throws -> Int in throw Failure() }
            root.setEntanglementLevel(.limited(1))
            let ran = LockedValue(false)
            let mapped = root.map { value -> Int in
                ran.withLock { $0 = true }
                return value
            }
            #expect(mapped.isPresent)
            #expect(throws: Failure()) { try mapped.present() }
            #expect(!ran.withLock { $0 })
        }
    }

    @Test func flatMapInThePresentCollectsTheFutureItsTransformReturns() throws {
        for _ in 0..<100 {
            let scheduler = RunnerScheduler(label: "test.entanglement.flat")
            let other = RunnerScheduler(label: "test.entanglement.flat.other")
            let root = scheduler.future { 3 }
            root.setEntanglementLevel(.limited(1))
            let flattened = root.flatMap { value in other.future { value * 2 } }
            #expect(flattened.isPresent)
            #expect(flattened.entanglementLevel == .limited(0))
            #expect(try flattened.present() == 6)
            #expect(root.wasQueued && !flattened.wasQueued)
        }
    }

    @Test func theLevelIsFixedOnceAFutureWasDerived() {
        let scheduler = RunnerScheduler(label: "test.entanglement.fixed")
        let root = scheduler.future { 1 }
        #expect(root.setEntanglementLevel(.limited(4)))
        _ = root.map { $0 }
        #expect(!root.setEntanglementLevel(.limited(0)))
        #expect(root.entanglementLevel == .limited(4))
        #expect(EntanglementLevel.limited(0).derived == .limited(0))
        #expect(EntanglementLevel.unlimited.derived == .unlimited)
    }
}

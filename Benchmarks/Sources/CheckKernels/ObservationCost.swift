import Dispatch
import Schedulable

/// An object whose owner is not declared: observed.
final class ObservedTarget: ConfinedObject, @unchecked Sendable {
    let confinement = Confinement.observed()

    func touch() {
        preconditionIsolated()
    }
}

/// An object with a declared owner, used off it at the `observe` level.
final class DeclaredTarget: ConfinedObject, @unchecked Sendable {
    let confinement: Confinement

    init(owner: SerialQueueScheduler) {
        confinement = Confinement(owner: owner)
    }

    /// The debug tier: a level decides what its violation does (run from the ChecksOn build).
    func touch() {
        assertIsolated()
    }
}

/// What observation costs per check, in nanoseconds (medians of 5 timed loops).
public struct ObservationCost: Sendable {
    /// An observed object on its current user: the fast path (nothing recorded).
    public let observedOnUser: Double
    /// An observed object used inside a raw `DispatchQueue.sync { }` called from the main thread: the
    /// resolver places the use in the queue (the innermost serial context the thread holds), so the
    /// object binds there; every later check misses the thread's fast path and finds its user again.
    public let observedInRawQueueFromMain: Double
    /// An observed object on a pool thread, which it cannot be bound to: every check misses and finds
    /// the step already recorded (the steady cost of a miss).
    public let observedMissKnown: Double
    /// A change of user: the object alternates between two queues, each check a miss that moves it
    /// (recorded as a step while its instance has room, then counted); `hopOnly` is the same loop
    /// without the check.
    public let observedChange: Double
    /// The same alternation with an object that checks nothing: what the hops alone cost.
    public let hopOnly: Double
    /// A declared owner missed at the `observe` level, the step already recorded: what would have been a
    /// report (its violation, with the stack, is built before the level is known).
    public let declaredMissKnown: Double
}

/// Measures ``ObservationCost`` with `iterations` checks per loop. The store keeps its first instances
/// and steps; the loops run after one warm-up, so they measure the steady state. Call it on the main
/// thread (the raw-queue row is a `sync` from there).
public func measureObservationCost(iterations: Int = 200_000) -> ObservationCost {
    precondition(MainThreadScheduler.shared.isIsolated, "measureObservationCost runs on the main thread")
    ConfinementObservations.writesFileAtExit = false
    // Library schedulers: a raw `DispatchQueue.sync` from here would run every block on this thread.
    let first = SerialQueueScheduler(label: "benchmark.observe.first")
    let second = SerialQueueScheduler(label: "benchmark.observe.second")
    let onUser = ObservedTarget()
    let onPool = ObservedTarget()
    let alternating = ObservedTarget()
    let rawQueue = DispatchQueue(label: "benchmark.observe.raw")
    let inRawQueue = ObservedTarget()
    let owner = SerialQueueScheduler(label: "benchmark.observe.owner")
    let policy: BuiltInViolationHandler = .policy(ConfinementPolicy(default: .observe), output: { _ in })
    let declared = withConfinementViolationHandler(policy) { DeclaredTarget(owner: owner) }
    declared.confinement.endConstruction()
    return ObservationCost(
        observedOnUser: median { first.sync { for _ in 0..<iterations { onUser.touch() } } } / Double(iterations),
        observedInRawQueueFromMain: median {
            rawQueue.sync { for _ in 0..<iterations { inRawQueue.touch() } }
        } / Double(iterations),
        observedMissKnown: median {
            // Work of a global queue: a pool thread (`concurrentPerform` of one would run here).
            let done = DispatchGroup()
            DispatchQueue.global().async(group: done) { for _ in 0..<iterations { onPool.touch() } }
            done.wait()
        } / Double(iterations),
        observedChange: median {
            for _ in 0..<(iterations / 100) {
                first.sync { alternating.touch() }
                second.sync { alternating.touch() }
            }
        } / Double(iterations / 100 * 2),
        hopOnly: median {
            for _ in 0..<(iterations / 100) {
                first.sync { consume(1) }
                second.sync { consume(2) }
            }
        } / Double(iterations / 100 * 2),
        declaredMissKnown: median { second.sync { for _ in 0..<iterations { declared.touch() } } } / Double(iterations)
    )
}

/// The median of 5 timings of `body` after one warm-up, in nanoseconds.
private func median(_ body: () -> Void) -> Double {
    body()
    var samples: [Double] = []
    for _ in 0..<5 {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        samples.append(Double(DispatchTime.now().uptimeNanoseconds - start))
    }
    return samples.sorted()[2]
}

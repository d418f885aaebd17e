import BenchmarkSink
import Dispatch
import Schedulable

/// A library hop whose whole cost per event is counted, on the thread that submits and on the one that
/// runs: `schedule(_:)`, the scheduler's queueing, the work item's entry and exit (the owner's side
/// included: its slot published and restored) and freeing what the hop allocated.
///
/// The events are submitted while the scheduler runs a gate item that waits, and run after the gate
/// opens, all in one drain: neither thread waits or wakes the other during the counted events, so the
/// count does not depend on how the two threads interleave (callgrind runs one thread at a time).
public enum CountedHop: String, CaseIterable, Sendable {
    case queueScheduler = "SerialQueueScheduler.schedule"
    case threadScheduler = "ThreadScheduler.schedule"
}

/// Runs `rounds` gated rounds of `iterations` events through `hop`; only the last is counted under
/// callgrind (`schedulable_benchmark_count_begin`/`_end`), the others warm the threads and the heap.
/// - Returns: nanoseconds per event of each round, submitting and draining (wall clock).
public func runCountedHops(_ hop: CountedHop, iterations: Int, rounds: Int) -> [Double] {
    switch hop {
    case .queueScheduler:
        return countedHopRounds(SerialQueueScheduler(label: "benchmark.counted-queue"), iterations, rounds)
    case .threadScheduler:
        let scheduler = ThreadScheduler(label: "benchmark.counted-thread")
        defer { scheduler.shutdown() }
        return countedHopRounds(scheduler, iterations, rounds)
    }
}

func countedHopRounds(_ scheduler: some SerialScheduler, _ iterations: Int, _ rounds: Int) -> [Double] {
    (0..<rounds).map { round in gatedHops(scheduler, iterations, counted: round == rounds - 1) }
}

@inline(never)
func gatedHops(_ scheduler: some SerialScheduler, _ iterations: Int, counted: Bool) -> Double {
    let counter = HopCounter()
    let gateOpen = DispatchSemaphore(value: 0)
    let gateRunning = DispatchSemaphore(value: 0)
    let drained = DispatchSemaphore(value: 0)
    scheduler.schedule {
        gateRunning.signal()
        gateOpen.wait()
    }
    gateRunning.wait()
    if counted { schedulable_benchmark_count_begin() }
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<iterations {
        scheduler.schedule { counter.count &+= 1 }
    }
    scheduler.schedule { drained.signal() }
    gateOpen.signal()
    drained.wait()
    // One more event, submitted after the drain: it runs only once the scheduler is done with the
    // drained ones (a thread scheduler empties its batch after the last event), so that work is
    // always inside the count, never left to race with its end.
    let settled = DispatchSemaphore(value: 0)
    scheduler.schedule { settled.signal() }
    settled.wait()
    let elapsed = DispatchTime.now().uptimeNanoseconds - start
    if counted { schedulable_benchmark_count_end() }
    precondition(counter.count == iterations, "lost events")
    return Double(elapsed) / Double(iterations)
}

import Dispatch
#if NIOComparison
import NIOCore
import NIOPosix
#endif
import Schedulable

/// One way of moving a tiny event onto a serial execution context.
///
/// Each kernel submits `iterations` events (each increments a counter owned by the target) and then waits
/// until the last one has run, so the figure is throughput: time per event, including the wait for the
/// queue to drain. The raw value is the row label in the comparison table.
public enum HopKernel: String, CaseIterable, Sendable {
    case dispatchAsync = "DispatchQueue.async"
    case queueScheduler = "SerialQueueScheduler.schedule"
    case threadScheduler = "ThreadScheduler.schedule"
#if NIOComparison
    case nioExecute = "NIO EventLoop.execute"
#endif
    case actorAwait = "actor: awaited call from a task"
    case actorChildTasks = "actor: a child task per call"

    /// The name used for the benchmark.
    public var benchmarkName: String { "\(self)" }
}

/// One synchronous round trip from the benchmark thread through one or two execution contexts and back.
public enum RoundTripKernel: String, CaseIterable, Sendable {
    case dispatchSync = "DispatchQueue.sync"
    case queueSchedulerSync = "SerialQueueScheduler.sync"
    case threadSchedulerSync = "ThreadScheduler.sync"
#if NIOComparison
    case nioSubmitWait = "NIO EventLoop.submit { }.wait()"
#endif
    case queueSchedulerFuturePresent = "SerialQueueScheduler.future + present"
    case threadSchedulerFuturePresent = "ThreadScheduler.future + present"
    case dispatchPingPong = "DispatchQueue A.async → B.async → signal"
    case queueSchedulerPingPong = "SerialQueueScheduler A.schedule → B.schedule → signal"
    case threadSchedulerPingPong = "ThreadScheduler A.schedule → B.schedule → signal"
#if NIOComparison
    case nioPingPong = "NIO loop A.execute → loop B.execute → signal"
#endif

    /// The name used for the benchmark.
    public var benchmarkName: String { "\(self)" }
}

/// A counter owned by one serial context.
final class HopCounter {
    var count = 0
}

// Every increment runs on the one serial queue or event loop that owns the counter, and the reader
// waits for that context to drain (`sync`, `submit().wait()`), which orders the final read after them.
extension HopCounter: @unchecked Sendable {}

/// Owns the queues, event loops and actor the hop kernels use; all created outside any measurement.
public final class HopFixture {
    let queueA = DispatchQueue(label: "benchmark.hop-a")
    let queueB = DispatchQueue(label: "benchmark.hop-b")
#if NIOComparison
    let loopGroup = MultiThreadedEventLoopGroup(numberOfThreads: 2)
    let loopA: any EventLoop
    let loopB: any EventLoop
#endif
    let isolated = IsolatedModel()
    let schedulerA = SerialQueueScheduler(label: "benchmark.scheduler-a")
    let schedulerB = SerialQueueScheduler(label: "benchmark.scheduler-b")
    let threadA = ThreadScheduler(label: "benchmark.thread-a")
    let threadB = ThreadScheduler(label: "benchmark.thread-b")

    /// Creates the contexts.
    public init() {
#if NIOComparison
        loopA = loopGroup.next()
        loopB = loopGroup.next()
        precondition(loopA !== loopB, "the ping-pong needs two distinct event loops")
#endif
    }

    /// Sends `iterations` events through `kernel` and waits for the last one.
    public func run(_ kernel: HopKernel, iterations: Int) async throws {
        switch kernel {
        case .dispatchAsync:
            dispatchAsyncHops(queueA, iterations)
        case .queueScheduler:
            queueSchedulerHops(schedulerA, iterations)
        case .threadScheduler:
            threadSchedulerHops(threadA, iterations)
#if NIOComparison
        case .nioExecute:
            try nioExecuteHops(loopA, iterations)
#endif
        case .actorAwait:
            for _ in 0..<iterations {
                await isolated.bump()
            }
        case .actorChildTasks:
            let model = isolated
            await withDiscardingTaskGroup { group in
                for _ in 0..<iterations {
                    group.addTask { await model.bump() }
                }
            }
        }
    }

    /// Performs `iterations` round trips through `kernel`, each waited for before the next starts.
    public func run(_ kernel: RoundTripKernel, iterations: Int) throws {
        switch kernel {
        case .dispatchSync:
            let counter = HopCounter()
            for _ in 0..<iterations {
                queueA.sync { counter.count &+= 1 }
            }
        case .queueSchedulerSync:
            let counter = HopCounter()
            for _ in 0..<iterations {
                schedulerA.sync { counter.count &+= 1 }
            }
        case .threadSchedulerSync:
            let counter = HopCounter()
            for _ in 0..<iterations {
                threadA.sync { counter.count &+= 1 }
            }
#if NIOComparison
        case .nioSubmitWait:
            let counter = HopCounter()
            for _ in 0..<iterations {
                try loopA.submit { counter.count &+= 1 }.wait()
            }
#endif
        case .queueSchedulerFuturePresent:
            futurePresentRoundTrips(schedulerA, iterations)
        case .threadSchedulerFuturePresent:
            futurePresentRoundTrips(threadA, iterations)
        case .threadSchedulerPingPong:
            let done = DispatchSemaphore(value: 0)
            let threadB = threadB
            for _ in 0..<iterations {
                threadA.schedule { threadB.schedule { done.signal() } }
                done.wait()
            }
        case .queueSchedulerPingPong:
            let done = DispatchSemaphore(value: 0)
            let schedulerB = schedulerB
            for _ in 0..<iterations {
                schedulerA.schedule { schedulerB.schedule { done.signal() } }
                done.wait()
            }
        case .dispatchPingPong:
            let done = DispatchSemaphore(value: 0)
            let queueB = queueB
            for _ in 0..<iterations {
                queueA.async { queueB.async { done.signal() } }
                done.wait()
            }
#if NIOComparison
        case .nioPingPong:
            let done = DispatchSemaphore(value: 0)
            let loopB = loopB
            for _ in 0..<iterations {
                loopA.execute { loopB.execute { done.signal() } }
                done.wait()
            }
#endif
        }
    }
}

/// Makes a future on `scheduler` and presents it at once: the worst case for a future (the caller always
/// waits), to compare with the `sync` rows. The waiting note is turned off: its report is a diagnostic,
/// not part of the round trip.
@inline(never)
func futurePresentRoundTrips(_ scheduler: some SerialScheduler, _ iterations: Int) {
    FutureSystem.logsWhenWaitingIsRequired = false
    let counter = HopCounter()
    for _ in 0..<iterations {
        let future = scheduler.future { () -> Int in
            counter.count &+= 1
            return counter.count
        }
        consume(try! future.present())
    }
}

@inline(never)
func dispatchAsyncHops(_ queue: DispatchQueue, _ iterations: Int) {
    let counter = HopCounter()
    for _ in 0..<iterations {
        queue.async { counter.count &+= 1 }
    }
    let total = queue.sync { counter.count }
    precondition(total == iterations, "lost events")
}

@inline(never)
func queueSchedulerHops(_ scheduler: SerialQueueScheduler, _ iterations: Int) {
    let counter = HopCounter()
    for _ in 0..<iterations {
        scheduler.schedule { counter.count &+= 1 }
    }
    let total = scheduler.sync { counter.count }
    precondition(total == iterations, "lost events")
}

@inline(never)
func threadSchedulerHops(_ scheduler: ThreadScheduler, _ iterations: Int) {
    let counter = HopCounter()
    for _ in 0..<iterations {
        scheduler.schedule { counter.count &+= 1 }
    }
    let total = scheduler.sync { counter.count }
    precondition(total == iterations, "lost events")
}

#if NIOComparison
@inline(never)
func nioExecuteHops(_ loop: any EventLoop, _ iterations: Int) throws {
    let counter = HopCounter()
    for _ in 0..<iterations {
        loop.execute { counter.count &+= 1 }
    }
    let total = try loop.submit { counter.count }.wait()
    precondition(total == iterations, "lost events")
}
#endif

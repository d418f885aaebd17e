import BenchmarkSink
import Dispatch
import Schedulable

/// A custom executor's isolation path, with Swift's executor-check hook (the library's
/// `isolation_hooks.c`) installed and without it: `assumeIsolated` on an actor from code on its
/// executor's queue that is not one of the actor's jobs, so the runtime cannot prove isolation by the
/// running executor and asks the executor. The hook sits on that path only where the executor has no
/// answer of its own before `checkIsolated()`; it decides nothing for a custom executor and hands the
/// check back, so what it may add is its own few instructions, never a different outcome.
///
/// The hook is installed only in a debug build of the library (release builds never change the
/// runtime), so these rows are counted on the debug KernelRunner; `SCHEDULABLE_DISABLE_ISOLATION_HOOK`
/// (the kill switch) is the "off" column, with the same binary.
public enum ExecutorCheck: String, CaseIterable, Sendable {
    /// A user's executor on a queue, with `checkIsolated()` only: the runtime reaches
    /// `swift_task_checkIsolated`, where the hook is.
    case customExecutor = "actor on a custom executor (checkIsolated() only), assumeIsolated on its queue"
    /// The library's `SerialQueueScheduler` as the actor's executor: its `isIsolatingCurrentContext()`
    /// answers first, so the hook is never reached.
    case libraryScheduler = "actor on SerialQueueScheduler, assumeIsolated on its queue"
}

/// A serial executor on a queue that proves isolation only through `checkIsolated()`.
final class CheckingQueueExecutor: SerialExecutor, @unchecked Sendable {
    // @unchecked: the queue is immutable and made to be shared.
    let queue = DispatchQueue(label: "benchmark.isolation.custom-executor")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }

    func checkIsolated() { dispatchPrecondition(condition: .onQueue(queue)) }
}

actor CustomExecutorModel {
    let executor: CheckingQueueExecutor
    var value = 1
    init(executor: CheckingQueueExecutor) { self.executor = executor }
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
}

actor LibraryExecutorModel {
    let scheduler: SerialQueueScheduler
    var value = 1
    init(scheduler: SerialQueueScheduler) { self.scheduler = scheduler }
    nonisolated var unownedExecutor: UnownedSerialExecutor { scheduler.asUnownedSerialExecutor() }
}

@inline(never)
func customExecutorChecks(_ model: CustomExecutorModel, _ iterations: Int) {
    for _ in 0..<iterations { consume(model.assumeIsolated { $0.value }) }
}

@inline(never)
func libraryExecutorChecks(_ model: LibraryExecutorModel, _ iterations: Int) {
    for _ in 0..<iterations { consume(model.assumeIsolated { $0.value }) }
}

/// Runs `rounds` rounds of `iterations` checks of `check` on its executor's queue, after opting in to
/// the hook as an app's debug run does; only the last round is counted under callgrind.
/// - Returns: nanoseconds per check of each round (wall clock).
public func runExecutorChecks(_ check: ExecutorCheck, iterations: Int, rounds: Int) -> [Double] {
    ConfinementSystem.reportSwiftIsolationChecks()
    func timed(_ round: Int, _ body: () -> Void) -> Double {
        if round == rounds - 1 { schedulable_benchmark_count_begin() }
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        let elapsed = DispatchTime.now().uptimeNanoseconds - start
        if round == rounds - 1 { schedulable_benchmark_count_end() }
        return Double(elapsed) / Double(iterations)
    }
    switch check {
    case .customExecutor:
        let model = CustomExecutorModel(executor: CheckingQueueExecutor())
        return model.executor.queue.sync {
            (0..<rounds).map { round in timed(round) { customExecutorChecks(model, iterations) } }
        }
    case .libraryScheduler:
        let scheduler = SerialQueueScheduler(label: "benchmark.isolation.library-executor")
        let model = LibraryExecutorModel(scheduler: scheduler)
        return scheduler.sync {
            (0..<rounds).map { round in timed(round) { libraryExecutorChecks(model, iterations) } }
        }
    }
}

/// What a failed isolation check costs the violating thread once the hook reports it (an app's debug
/// run that opted in: the printing handler counts there, its reporting thread writes): the process's
/// first report (the check's kind is read from the symbolicated stack, so the image's debug
/// information is read), later ones from the same site (median), and a site not seen before (median
/// of ``isolationSites``). Each is one failed check, `MainActor.preconditionIsolated()` on a queue's
/// worker thread (`MainActor.assumeIsolated { }` is two: the runtime checks its closure again).
public func measureIsolationReportCost(reports: Int = 500) -> ReportCost {
    ConfinementSystem.reportSwiftIsolationChecks()
    let queue = DispatchQueue(label: "benchmark.isolation.worker")
    var first = 0.0, warm: [Double] = [], newSites: [Double] = []
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var unsafeResults = (first, warm, newSites)
    queue.async {
        var (first, warm, newSites) = unsafeResults
        first = nanoseconds(preconditionOnMainAtSite)
        for _ in 0..<reports { warm.append(nanoseconds(preconditionOnMainAtSite)) }
        for site in isolationSites { newSites.append(nanoseconds(site)) }
        unsafeResults = (first, warm, newSites)
        done.signal()
    }
    done.wait()
    (first, warm, newSites) = unsafeResults
    ConfinementSystem.flushReports()
    warm.sort()
    newSites.sort()
    var cost = ReportCost(
        stackDepth: ConfinementSystem.reportStackDepth, firstNanoseconds: first,
        warmNanoseconds: warm.isEmpty ? 0 : warm[warm.count / 2], reports: warm.count
    )
    cost.newSiteNanoseconds = newSites.isEmpty ? 0 : newSites[newSites.count / 2]
    return cost
}

private func nanoseconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start)
}

@inline(never) func preconditionOnMainAtSite() { MainActor.preconditionIsolated(); consume(0) }
@inline(never) func preconditionOnMainAtSite0() { MainActor.preconditionIsolated(); consume(1) }
@inline(never) func preconditionOnMainAtSite1() { MainActor.preconditionIsolated(); consume(2) }
@inline(never) func preconditionOnMainAtSite2() { MainActor.preconditionIsolated(); consume(3) }
@inline(never) func preconditionOnMainAtSite3() { MainActor.preconditionIsolated(); consume(4) }
@inline(never) func preconditionOnMainAtSite4() { MainActor.preconditionIsolated(); consume(5) }
@inline(never) func preconditionOnMainAtSite5() { MainActor.preconditionIsolated(); consume(6) }
@inline(never) func preconditionOnMainAtSite6() { MainActor.preconditionIsolated(); consume(7) }
@inline(never) func preconditionOnMainAtSite7() { MainActor.preconditionIsolated(); consume(8) }
/// Sites of failed checks not seen before, each a function of its own.
let isolationSites: [@Sendable () -> Void] = [
    preconditionOnMainAtSite0, preconditionOnMainAtSite1, preconditionOnMainAtSite2, preconditionOnMainAtSite3, preconditionOnMainAtSite4,
    preconditionOnMainAtSite5, preconditionOnMainAtSite6, preconditionOnMainAtSite7,
]

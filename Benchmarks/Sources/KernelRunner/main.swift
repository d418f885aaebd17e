// Runs one kernel once, for counting instructions under valgrind's callgrind (this VM has no hardware
// counters, so the benchmark runner's `instructions` metric is unavailable).
//
//     KernelRunner check plain 200000
//
// `scripts/instructions.sh` runs it with `--toggle-collect` on the kernel's loop function, so only the
// loop is counted (setup, context entry and process start-up are not), and divides by n.

import CheckKernels
import Dispatch
import Foundation

let usage = """
    usage: KernelRunner check <kernel> <iterations>
           KernelRunner list
           KernelRunner time <kernel> <iterations>   (ns per access: median of 5 runs)
           KernelRunner bytes
           KernelRunner storm [threads] [violations per thread]
           KernelRunner report <stack depth> [reports]   (ns per delivered report; ChecksOn build)
           KernelRunner report-warn <stack depth> [reports]   (ns on the violating thread; ChecksOn build)
           KernelRunner observe [iterations]   (ns per check while observing; ChecksOn build)
           KernelRunner hop <hop> <events> [rounds]   (ns per event, median of the rounds; the last
                                                    counted under callgrind: scripts/hop-cost.sh)
    kernels: \(CheckKernel.allCases.map { "\($0)" }.joined(separator: ", "))
           KernelRunner executor-check <check> <iterations> [rounds]   (ns per check, median of the rounds;
                                                    the last counted under callgrind: isolation-hook-cost.sh)
           KernelRunner isolation-report [reports]   (ns on the violating thread per failed isolation check)
    hops: \(CountedHop.allCases.map { "\($0)" }.joined(separator: ", "))
    executor checks: \(ExecutorCheck.allCases.map { "\($0)" }.joined(separator: ", "))
    """

/// `dispatchMain()` ends the main thread with `pthread_exit`, whose last thread-specific destructor
/// (libdispatch's) parks it in `sigsuspend`, which valgrind 3.19 does not survive. A destructor
/// registered now (after libdispatch's own, which unbind the main queue and run first) parks it in
/// `sleep` instead, so the main queue is drained by a worker thread as under a plain `dispatchMain()`.
func parkMainThreadOutsideSigsuspend() {
    var key = pthread_key_t()
    pthread_key_create(&key) { _ in
        while true { sleep(3600) }
    }
    pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1))
}

/// Runs `kernel`; the main thread blocks on a semaphore instead of using an async `main`, because an
/// async `main` parks the main thread in libdispatch's `sigsuspend`, which valgrind 3.19 does not survive.
func runKernel(_ kernel: CheckKernel, iterations: Int) {
    let fixture = CheckFixture()
    do {
        try fixture.prepare(kernel)
    } catch {
        fatalError("cannot prepare '\(kernel)': \(error)")
    }
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) let unsafeFixture = fixture  // used by the one task below while main waits
    if kernel.needsDispatchMain {
        // Main-queue work on a worker thread: the main thread must be parked in dispatchMain(); the
        // task ends the process when the kernel is done.
        Task {
            do {
                try await unsafeFixture.run(kernel, iterations: iterations)
            } catch {
                fatalError("'\(kernel)' failed: \(error)")
            }
            exit(0)
        }
        parkMainThreadOutsideSigsuspend()
        dispatchMain()
    }
    Task {
        do {
            try await unsafeFixture.run(kernel, iterations: iterations)
        } catch {
            fatalError("'\(kernel)' failed: \(error)")
        }
        done.signal()
    }
    done.wait()
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "list":
    for kernel in CheckKernel.allCases {
        print("\(kernel)\t\(kernel.loopFunctionName)\t\(kernel.rawValue)")
    }
case "check" where arguments.count == 3:
    guard let kernel = CheckKernel.allCases.first(where: { "\($0)" == arguments[1] }) else {
        fatalError("no kernel named '\(arguments[1])'\n\(usage)")
    }
    guard let iterations = Int(arguments[2]), iterations >= 0 else {
        fatalError("'\(arguments[2])' is not an iteration count\n\(usage)")
    }
    runKernel(kernel, iterations: iterations)
case "time" where arguments.count == 3:
    // For builds the benchmark runner does not cover (the debug build): median of 5 timed runs.
    guard let kernel = CheckKernel.allCases.first(where: { "\($0)" == arguments[1] }),
        let iterations = Int(arguments[2]), iterations > 0
    else { fatalError(usage) }
    guard !kernel.needsDispatchMain else { fatalError("'\(kernel)' ends the process after one run: use check") }
    runKernel(kernel, iterations: iterations)  // warm-up
    var samples: [Double] = []
    for _ in 0..<5 {
        let start = DispatchTime.now().uptimeNanoseconds
        runKernel(kernel, iterations: iterations)
        samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(iterations))
    }
    print("\(kernel)\t\(samples.sorted()[2])")
case "bytes":
    // Heap bytes per object for the creation rows, as the allocator sized each allocation.
    for (kernel, bytes) in objectFootprints() {
        print("\(kernel)\t\(bytes)")
    }
case "report":
    // The cost of a delivered report (violation made, text built) with a stack of the given depth (8 is
    // the default, 0 none), in a process of its own: the process's first report (symbolication reads the
    // debug information), then the median of later ones from the same site.
    guard arguments.count > 1, let depth = Int(arguments[1]), depth >= 0 else { fatalError(usage) }
    let reports = arguments.count > 2 ? Int(arguments[2]) ?? 2_000 : 2_000
    let cost = measureReportCost(stackDepth: depth, reports: reports)
    print("report\tstack \(cost.stackDepth)\tfirst \(Int(cost.firstNanoseconds)) ns\tthen \(Int(cost.warmNanoseconds)) ns (median of \(cost.reports))\tnew site \(Int(cost.newSiteNanoseconds)) ns (median of \(cost.newSiteCount))")
case "report-warn":
    // What a report costs the violating thread under a `warn` policy, whose reporting thread
    // symbolicates and writes it: the process's first report, then the median of later ones.
    guard arguments.count > 1, let depth = Int(arguments[1]), depth >= 0 else { fatalError(usage) }
    let cost = measureWarnReportCost(stackDepth: depth, reports: arguments.count > 2 ? Int(arguments[2]) ?? 500 : 500)
    print("report-warn\tstack \(cost.stackDepth)\tfirst \(Int(cost.firstNanoseconds)) ns\tthen \(Int(cost.warmNanoseconds)) ns (median of \(cost.reports))\tnew site \(Int(cost.newSiteNanoseconds)) ns (median of \(cost.newSiteCount))\trepeat \(Int(cost.repeatNanoseconds)) ns (median of \(cost.repeats))")
case "observe":
    // What observation costs per check: on the fast path, per miss once the step is known, per change
    // of user, and a declared owner's miss at the observe level (tab-separated: row, ns).
    let cost = measureObservationCost(iterations: arguments.count > 1 ? Int(arguments[1]) ?? 200_000 : 200_000)
    print("observed on its user\t\(cost.observedOnUser)")
    print("observed, used in `rawQueue.sync { }` from the main thread\t\(cost.observedInRawQueueFromMain)")
    print("observed, miss on a pool thread\t\(cost.observedMissKnown)")
    print("observed, change of user (hop included)\t\(cost.observedChange)")
    print("hop alone\t\(cost.hopOnly)")
    print("declared owner missed, observe level\t\(cost.declaredMissKnown)")
case "hop" where arguments.count >= 3:
    // One library hop per event, submitting and running thread together (CountedHop).
    guard let hop = CountedHop.allCases.first(where: { "\($0)" == arguments[1] }),
        let events = Int(arguments[2]), events > 0
    else { fatalError(usage) }
    let rounds = arguments.count > 3 ? Int(arguments[3]) ?? 5 : 5
    let samples = runCountedHops(hop, iterations: events, rounds: max(rounds, 1)).sorted()
    print("\(hop)\t\(samples[samples.count / 2])")
case "executor-check" where arguments.count >= 3:
    // A custom executor's isolation path, Swift's executor-check hook installed (debug build) or not
    // (SCHEDULABLE_DISABLE_ISOLATION_HOOK): ExecutorCheck.
    guard let check = ExecutorCheck.allCases.first(where: { "\($0)" == arguments[1] }),
        let iterations = Int(arguments[2]), iterations > 0
    else { fatalError(usage) }
    let rounds = arguments.count > 3 ? Int(arguments[3]) ?? 5 : 5
    let samples = runExecutorChecks(check, iterations: iterations, rounds: max(rounds, 1)).sorted()
    print("\(check)\t\(samples[samples.count / 2])")
case "isolation-report":
    // What a failed Swift isolation check costs the violating thread once the hook reports it.
    let cost = measureIsolationReportCost(reports: arguments.count > 1 ? Int(arguments[1]) ?? 500 : 500)
    print("isolation-report\tstack \(cost.stackDepth)\tfirst \(Int(cost.firstNanoseconds)) ns\tthen \(Int(cost.warmNanoseconds)) ns (median of \(cost.reports))\tnew site \(Int(cost.newSiteNanoseconds)) ns (median of \(cost.newSiteCount))")
case "storm":
    // A violation storm under a warn-every-time policy: throughput, bounded output, exact counts.
    let threads = arguments.count > 1 ? Int(arguments[1]) ?? 4 : 4
    let perThread = arguments.count > 2 ? Int(arguments[2]) ?? 250_000 : 250_000
    let result = runViolationStorm(threads: threads, perThread: perThread)
    let total = result.threads * result.perThread
    print("storm\t\(result.threads) threads × \(result.perThread) violations")
    print("seconds\t\(result.seconds)")
    print("violations per second\t\(Int(Double(total) / result.seconds))")
    print("ns per violation\t\(result.seconds * 1e9 / Double(total))")
    print("output\t\(result.outputLines) lines, \(result.outputBytes) bytes")
    print("counted\t\(result.counted) of \(total)")
    print(result.summary, terminator: "")
    if result.counted != total {
        print("storm: LOST \(total - result.counted) violations")
        exit(1)
    }
default:
    print(usage)
}

import Benchmark
import CheckKernels

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `SCHEDULABLE_BENCHMARK_QUICK=1` (CI's malloc-threshold check): a check's malloc count is the same in
/// every iteration, so a few iterations give it; the timings of such a run are not worth reading.
let quick = getenv("SCHEDULABLE_BENCHMARK_QUICK") != nil

/// Cost of one checked access, per access, for every way of checking confinement.
///
/// Each benchmark iteration runs one million accesses (`scalingFactor: .mega`), so the reported times
/// are per access. Compare them within one run only: `scripts/benchmarks.sh` prints the ratios.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: quick ? 1 : 3,
        scalingFactor: .mega,
        maxDuration: quick ? .milliseconds(100) : .seconds(1),
        maxIterations: quick ? 20 : 1_000,
        // A check must not allocate: one allocation per access would add 1,000,000 per iteration.
        // The allowance covers the runner's own async machinery (0–3 allocations per iteration).
        thresholds: [.mallocCountTotal: .init(absolute: [.p90: 5])]
    )
    let fixture = CheckFixture()
    // A kernel that needs the main thread parked in dispatchMain() is counted by KernelRunner only.
    for kernel in CheckKernel.allCases where !kernel.needsDispatchMain {
        Benchmark(kernel.benchmarkName) { benchmark in
            try await fixture.run(kernel, iterations: benchmark.scaledIterations.count)
        } setup: {
            try fixture.prepare(kernel)
        }
    }
}

import Benchmark
import CheckKernels

/// Cost of one checked access, per access, for every way of checking confinement.
///
/// Each benchmark iteration runs one million accesses (`scalingFactor: .mega`), so the reported times
/// are per access. Compare them within one run only: `scripts/benchmarks.sh` prints the ratios. The
/// malloc counts it reports are for the published tables; CI holds the allocations per access to
/// `Thresholds/mallocs.tsv` with `scripts/check-mallocs.sh`, which needs no benchmark runner.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 3,
        scalingFactor: .mega,
        maxDuration: .seconds(1),
        maxIterations: 1_000
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

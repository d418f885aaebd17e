import Benchmark
import CheckKernels

/// Throughput of moving tiny events onto a serial context, and latency of synchronous round trips.
///
/// Hop benchmarks send one million events per iteration (`scalingFactor: .mega`), so times are per event.
/// Round-trip benchmarks measure one trip per iteration, so their percentiles are per-trip latencies.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 1,
        scalingFactor: .mega,
        maxDuration: .seconds(2),
        maxIterations: 20
    )
    let fixture = HopFixture()
    for kernel in HopKernel.allCases {
        Benchmark(kernel.benchmarkName) { benchmark in
            try await fixture.run(kernel, iterations: benchmark.scaledIterations.count)
        }
    }
    let roundTrips = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 100,
        scalingFactor: .one,
        maxDuration: .seconds(1),
        maxIterations: 20_000
    )
    for kernel in RoundTripKernel.allCases {
        Benchmark(kernel.benchmarkName, configuration: roundTrips) { benchmark in
            try fixture.run(kernel, iterations: 1)
        }
    }
}

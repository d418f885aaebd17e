import BenchmarkSink

/// Hands one value per iteration to the opaque C sink (see `BenchmarkSink.h` for why not `blackHole`).
@inline(__always)
func consume(_ value: Int) {
    schedulable_benchmark_sink(value)
}

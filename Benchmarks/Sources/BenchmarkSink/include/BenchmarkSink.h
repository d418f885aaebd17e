#ifndef SCHEDULABLE_BENCHMARK_SINK_H
#define SCHEDULABLE_BENCHMARK_SINK_H

#include <stddef.h>
#include <stdint.h>

/// Consumes one value per loop iteration so the optimizer can neither delete the access under
/// measurement nor hoist it out of the loop.
///
/// It lives in C, in its own translation unit, because a Swift function in another module can still be
/// inlined by cross-module optimization, and `Benchmark.blackHole(_: some Any)` is an unspecialized
/// generic call whose own cost (several ns) would swamp the 1 ns differences these benchmarks measure.
/// Every kernel pays for exactly one call per iteration, so the call cancels out of every comparison.
void schedulable_benchmark_sink(intptr_t value);

/// The bytes the allocator reserved for the allocation at `pointer` (`malloc_usable_size` on Linux,
/// `malloc_size` on Darwin): what one object really costs the heap.
size_t schedulable_benchmark_allocated_bytes(const void *pointer);

/// Starts counting instructions under callgrind, in every thread (`CALLGRIND_ZERO_STATS`): for work
/// that runs on threads of its own, which a `--toggle-collect` on one function cannot follow. Does
/// nothing outside valgrind.
void schedulable_benchmark_count_begin(void);

/// Ends the count `schedulable_benchmark_count_begin` started: callgrind writes it, every thread's
/// instructions since then, to its output file with the suffix `.1` (`CALLGRIND_DUMP_STATS`).
void schedulable_benchmark_count_end(void);

#endif

#include "BenchmarkSink.h"

// Deliberately empty: the call itself is the barrier (see the header). A volatile store would add a
// memory write per iteration that the measured accesses do not have.
void schedulable_benchmark_sink(intptr_t value) {
    (void)value;
}

#if defined(__APPLE__)
#include <malloc/malloc.h>
size_t schedulable_benchmark_allocated_bytes(const void *pointer) { return malloc_size(pointer); }
#else
#include <malloc.h>
size_t schedulable_benchmark_allocated_bytes(const void *pointer) { return malloc_usable_size((void *)pointer); }
#endif

// Client requests: a few no-op instructions outside valgrind. Without valgrind's headers the count
// functions do nothing and scripts/hop-cost.sh finds no dump, and says so.
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
void schedulable_benchmark_count_begin(void) { CALLGRIND_ZERO_STATS; }
void schedulable_benchmark_count_end(void) { CALLGRIND_DUMP_STATS; }
#else
void schedulable_benchmark_count_begin(void) {}
void schedulable_benchmark_count_end(void) {}
#endif

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

#include "BenchmarkSink.h"

// Deliberately empty: the call itself is the barrier (see the header). A volatile store would add a
// memory write per iteration that the measured accesses do not have.
void schedulable_benchmark_sink(intptr_t value) {
    (void)value;
}

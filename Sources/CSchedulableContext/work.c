// Each context's current work item, for reports (csched_work.h).

#include "csched_private.h"

#include <time.h>

_Thread_local uint64_t csched_tls_submitted_site = 0;
_Thread_local const char *csched_tls_submitted_function = NULL;

uint64_t csched_monotonic_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    uint64_t ns = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
    return ns == 0 ? 1 : ns;
}

// The writer of a seqlock (one thread at a time per slot): the odd sequence is stored, then a release
// fence keeps the data stores after it; the even sequence is a release store, after the data.
static void csched_work_publish(csched_work_slot *slot, uint64_t site, const char *function, uint64_t started) {
    uint64_t sequence = __atomic_load_n(&slot->sequence, __ATOMIC_RELAXED);
    __atomic_store_n(&slot->sequence, sequence + 1, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_RELEASE);
    __atomic_store_n(&slot->site, site, __ATOMIC_RELAXED);
    __atomic_store_n(&slot->function, function, __ATOMIC_RELAXED);
    __atomic_store_n(&slot->started, started, __ATOMIC_RELAXED);
    __atomic_store_n(&slot->sequence, sequence + 2, __ATOMIC_RELEASE);
}

void csched_work_begin(csched_work_slot *slot, uint64_t site, const char *function, csched_work_saved *saved) {
    // Only this thread writes the slot now, so its own relaxed loads see the current item.
    saved->site = __atomic_load_n(&slot->site, __ATOMIC_RELAXED);
    saved->function = __atomic_load_n(&slot->function, __ATOMIC_RELAXED);
    saved->started = __atomic_load_n(&slot->started, __ATOMIC_RELAXED);
    csched_work_publish(slot, site, function, csched_monotonic_ns());
}

void csched_work_end(csched_work_slot *slot, const csched_work_saved *saved) {
    csched_work_publish(slot, saved->site, saved->function, saved->started);
}

// The reader: an even sequence before the data and the same one after it (an acquire fence keeps the
// data loads before the second load). Bounded: a report never spins on a busy owner.
bool csched_work_read(const csched_work_slot *slot, csched_work_snapshot *snapshot) {
    for (int attempt = 0; attempt < 64; attempt++) {
        uint64_t before = __atomic_load_n(&slot->sequence, __ATOMIC_ACQUIRE);
        if (before & 1) continue;
        snapshot->site = __atomic_load_n(&slot->site, __ATOMIC_RELAXED);
        snapshot->function = __atomic_load_n(&slot->function, __ATOMIC_RELAXED);
        snapshot->started = __atomic_load_n(&slot->started, __ATOMIC_RELAXED);
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        if (__atomic_load_n(&slot->sequence, __ATOMIC_RELAXED) == before) return true;
    }
    return false;
}

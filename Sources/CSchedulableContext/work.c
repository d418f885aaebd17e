// Each context's current work item, for reports (csched_work.h).

#include "csched_private.h"

#include <time.h>

_Thread_local uint64_t csched_tls_submitted_site __attribute__((tls_model("initial-exec"))) = 0;
_Thread_local const char *csched_tls_submitted_function __attribute__((tls_model("initial-exec"))) = NULL;

static uint64_t csched_clock_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

// A work item's start is stamped on every entry, so the stamp is the CPU's own counter where it has a
// constant-rate one readable in user mode (x86-64's TSC, which Linux uses as its clock source when it
// is invariant; arm64's virtual counter), read in a few cycles, and a clock read elsewhere. Stamps are
// only ever compared with each other (`csched_work_elapsed_ns`), and converted to nanoseconds for a
// report by the counter's rate, measured against the monotonic clock since the library was loaded.
#if defined(__x86_64__) && defined(__linux__)
static inline uint64_t csched_ticks(void) { return __builtin_ia32_rdtsc(); }
#elif defined(__aarch64__) && defined(__linux__)
static inline uint64_t csched_ticks(void) {
    uint64_t ticks;
    __asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(ticks));
    return ticks;
}
#else
static inline uint64_t csched_ticks(void) { return csched_clock_ns(); }
#define CSCHED_TICKS_ARE_NS 1
#endif

static uint64_t csched_ticks_at_load = 0;
static uint64_t csched_ns_at_load = 0;

__attribute__((constructor)) static void csched_note_clock_at_load(void) {
    csched_ns_at_load = csched_clock_ns();
    csched_ticks_at_load = csched_ticks();
}

uint64_t csched_work_stamp(void) {
    uint64_t ticks = csched_ticks();
    return ticks == 0 ? 1 : ticks;
}

uint64_t csched_work_elapsed_ns(uint64_t started) {
    uint64_t now = csched_ticks();
    if (now <= started) return 0;
#ifdef CSCHED_TICKS_ARE_NS
    return now - started;
#else
    uint64_t ns = csched_clock_ns() - csched_ns_at_load;
    uint64_t ticks = now - csched_ticks_at_load;
    if (ns == 0 || ticks == 0) return 0;
    return (uint64_t)((double)(now - started) * ((double)ns / (double)ticks));
#endif
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
    csched_work_publish(slot, site, function, csched_work_stamp());
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

// Each context's current work item, for reports (csched_work.h).

#include "csched_private.h"

#include <time.h>

static uint64_t csched_clock_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

// A work item's start is stamped on every entry, so the stamp is the CPU's own counter where it has a
// constant-rate one readable in user mode, read in a few cycles, and a clock read elsewhere. Stamps are
// only ever compared with each other (`csched_work_elapsed_ns`), often from another CPU than the one
// that stamped, and converted to nanoseconds for a report by the counter's rate, measured against the
// monotonic clock since the library was loaded.
//
// x86-64's TSC is used only where that holds, checked when the library is loaded: the CPU says its TSC
// is invariant (CPUID 0x80000007, EDX bit 8: same rate in every power state) and the kernel chose it as
// its clock source (it does only once it found the TSC synchronized across CPUs and stable). Otherwise,
// or with the kill switch SCHEDULABLE_DISABLE_CPU_COUNTER set, a work item's stamp is a clock read.
// arm64's virtual counter (CNTVCT_EL0) runs at a constant rate by the architecture's definition and is
// the one the kernel's own clock reads, so it needs no check.
#if defined(__x86_64__) && defined(__linux__)
#include <cpuid.h>
#include <fcntl.h>
static bool csched_counter_usable = false;

static bool csched_tsc_is_trustworthy(void) {
    if (csched_switched_off("SCHEDULABLE_DISABLE_CPU_COUNTER")) return false;
    unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (__get_cpuid_max(0x80000000u, NULL) < 0x80000007u) return false;
    __cpuid(0x80000007u, eax, ebx, ecx, edx);
    if ((edx & (1u << 8)) == 0) return false;
    int descriptor = open("/sys/devices/system/clocksource/clocksource0/current_clocksource", O_RDONLY | O_CLOEXEC);
    if (descriptor < 0) return false;
    char name[16] = { 0 };
    ssize_t length = read(descriptor, name, sizeof name - 1);
    close(descriptor);
    return length >= 3 && memcmp(name, "tsc", 3) == 0 && (length == 3 || name[3] == '\n');
}

static inline uint64_t csched_ticks(void) {
    return csched_counter_usable ? __builtin_ia32_rdtsc() : csched_clock_ns();
}
#elif defined(__aarch64__) && defined(__linux__)
static const bool csched_counter_usable = true;
static inline uint64_t csched_ticks(void) {
    uint64_t ticks;
    __asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(ticks));
    return ticks;
}
#else
static const bool csched_counter_usable = false;
static inline uint64_t csched_ticks(void) { return csched_clock_ns(); }
#endif

static uint64_t csched_ticks_at_load = 0;
static uint64_t csched_ns_at_load = 0;

// Whether work items publish themselves at all: the kill switch SCHEDULABLE_DISABLE_OWNER_SIDE turns
// the slot writes (and the stamp) off, read once at load; a report then has no owner's side.
static bool csched_owner_side_on = true;

__attribute__((constructor)) static void csched_note_clock_at_load(void) {
#if defined(__x86_64__) && defined(__linux__)
    csched_counter_usable = csched_tsc_is_trustworthy();
#endif
    csched_owner_side_on = !csched_switched_off("SCHEDULABLE_DISABLE_OWNER_SIDE");
    csched_ns_at_load = csched_clock_ns();
    csched_ticks_at_load = csched_ticks();
}

bool csched_work_uses_cpu_counter(void) { return csched_counter_usable; }

bool csched_work_publishes(void) { return csched_owner_side_on; }

uint64_t csched_work_stamp(void) {
    uint64_t ticks = csched_ticks();
    return ticks == 0 ? 1 : ticks;
}

uint64_t csched_work_elapsed_ns(uint64_t started) {
    uint64_t now = csched_ticks();
    if (now <= started) return 0;
    if (!csched_counter_usable) return now - started;
    uint64_t ns = csched_clock_ns() - csched_ns_at_load;
    uint64_t ticks = now - csched_ticks_at_load;
    if (ns == 0 || ticks == 0) return 0;
    return (uint64_t)((double)(now - started) * ((double)ns / (double)ticks));
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
    if (!csched_owner_side_on) return;
    // Only this thread writes the slot now, so its own relaxed loads see the current item.
    saved->site = __atomic_load_n(&slot->site, __ATOMIC_RELAXED);
    saved->function = __atomic_load_n(&slot->function, __ATOMIC_RELAXED);
    saved->started = __atomic_load_n(&slot->started, __ATOMIC_RELAXED);
    csched_work_publish(slot, site, function, csched_work_stamp());
}

void csched_work_end(csched_work_slot *slot, const csched_work_saved *saved) {
    if (!csched_owner_side_on) return;
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

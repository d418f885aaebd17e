// What each library context is running now: the scheduling site and start time of its current work
// item, published by the thread that runs it and read by a report on any other thread (issue 38's
// "owner's side").
//
// A slot is written only by the thread running its context's work (a serial context runs one item at
// a time) and read by anyone, under a sequence word (a seqlock): the reader retries a bounded number of
// times and otherwise says it could not read. Every value it can see is either 0 or a packed
// `#fileID` location / a `#function` literal's address — static bytes that live as long as the process
// — so a torn or stale read can name the wrong item, never read freed memory.

#ifndef C_SCHEDULABLE_WORK_H
#define C_SCHEDULABLE_WORK_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A context's current work item. Zero-initialised: idle.
typedef struct csched_work_slot {
    uint64_t sequence;                  // even: stable; odd: being written
    uint64_t site;                      // a PackedCodeLocation's bits; 0: no site recorded
    const char *_Nullable function;     // a `#function` literal (NUL-terminated) or NULL
    uint64_t started;                   // a `csched_work_stamp` stamp; 0: idle
} csched_work_slot;

/// The room a context keeps for its slot, inline: two cache lines, so that the slot can sit on a line
/// of its own (`csched_work_slot_in`). The thread running the context's work writes the slot on every
/// item; sharing a line with the context's reference count and fields, which the threads scheduling
/// work read and write, would make every hop pay for that line moving between cores.
typedef struct csched_work_slot_room {
    uint64_t words[16];
} csched_work_slot_room;

/// The slot inside `room`: its first 64-byte-aligned address (room enough for the slot follows it).
static inline csched_work_slot *_Nonnull csched_work_slot_in(void *_Nonnull room) {
    return (csched_work_slot *)(((uintptr_t)room + 63) & ~(uintptr_t)63);
}

/// What a slot held before a nested `csched_work_begin` (restored by `csched_work_end`).
typedef struct csched_work_saved {
    uint64_t site;
    const char *_Nullable function;
    uint64_t started;
} csched_work_saved;

/// One consistent read of a slot.
typedef struct csched_work_snapshot {
    uint64_t site;
    const char *_Nullable function;
    uint64_t started;
} csched_work_snapshot;

/// A work item's start stamp: a cheap monotonic counter (never 0), not necessarily in nanoseconds.
uint64_t csched_work_stamp(void);

/// Whether stamps are the CPU's counter (checked at load: see work.c) rather than clock reads.
bool csched_work_uses_cpu_counter(void);

/// Whether work items publish themselves in their context's slot: false under the kill switch
/// SCHEDULABLE_DISABLE_OWNER_SIDE (read once, at load), when `csched_work_begin` and `csched_work_end`
/// do nothing and every slot stays idle.
bool csched_work_publishes(void);

/// Nanoseconds since the stamp `started` (`csched_work_stamp`), 0 if none have passed.
uint64_t csched_work_elapsed_ns(uint64_t started);

/// Publishes a new work item in `slot`, started now, saving what it held in `saved`.
void csched_work_begin(csched_work_slot *_Nonnull slot, uint64_t site, const char *_Nullable function,
                       csched_work_saved *_Nonnull saved);

/// Restores what `csched_work_begin` saved (idle, or the item this one was nested in).
void csched_work_end(csched_work_slot *_Nonnull slot, const csched_work_saved *_Nonnull saved);

/// Reads `slot` consistently into `snapshot`; false when a writer kept changing it (a few retries).
bool csched_work_read(const csched_work_slot *_Nonnull slot, csched_work_snapshot *_Nonnull snapshot);

#ifdef __cplusplus
}
#endif

#endif

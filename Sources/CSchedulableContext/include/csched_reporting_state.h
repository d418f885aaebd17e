// Per-thread reporting state: the property probe's slot, the "a report is under way" flag, and
// whether a scoped violation handler was ever installed.

#ifndef C_SCHEDULABLE_REPORTING_STATE_H
#define C_SCHEDULABLE_REPORTING_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

extern _Thread_local int csched_tls_reporting;
extern _Thread_local void *_Nullable csched_tls_probe_slot;

/// The slot a property probe on this thread records into, or NULL when no probe runs.
static inline void *_Nullable csched_probe_slot(void) { return csched_tls_probe_slot; }

/// Installs `slot` as this thread's probe slot and returns the previous one.
static inline void *_Nullable csched_probe_swap(void *_Nullable slot) {
    void *previous = csched_tls_probe_slot;
    csched_tls_probe_slot = slot;
    return previous;
}

/// Marks the start of violation reporting on this thread; false when a report is already under way
/// here (a violation raised inside a handler), so the pipeline never recurses.
static inline bool csched_reporting_enter(void) {
    if (csched_tls_reporting) return false;
    csched_tls_reporting = 1;
    return true;
}

/// Whether a violation report is under way on this thread (a handler is running).
static inline bool csched_is_reporting(void) { return csched_tls_reporting != 0; }

/// Marks the end of violation reporting on this thread.
static inline void csched_reporting_leave(void) { csched_tls_reporting = 0; }

/// Where a scoped handler can come from in this process, one bit each, only ever set: bit 0, a scoped
/// violation handler was installed (`csched_note_scoped_handler_installed`); bit 1, a test framework
/// bridge is installed (`csched_note_test_bridge_installed`). A plain global read inline: creating a
/// protected object tests it, where a Swift `static let` costs a `swift_once` (or a static object's
/// initialisation check) and a call on every read.
extern uintptr_t csched_handler_sources;

/// Whether a scoped violation handler was ever installed in this process. Creating a protection
/// record reads the task-local handler only then: the read costs more than the rest of a record's
/// initializer, and outside tests that scope handlers it is always empty.
///
/// Relaxed is enough: a scope is installed before the code it wraps runs (same thread, or a task
/// created after it), and that code is what creates the records that look.
static inline bool csched_scoped_handler_ever_installed(void) {
    return (__atomic_load_n(&csched_handler_sources, __ATOMIC_RELAXED) & 1) != 0;
}

/// Whether a test framework bridge is installed (acquiring: the bridge was stored before the bit).
static inline bool csched_test_bridge_installed(void) {
    return (__atomic_load_n(&csched_handler_sources, __ATOMIC_ACQUIRE) & 2) != 0;
}

/// Whether a scoped handler can be anything but none here: either source above, in one load.
static inline bool csched_may_have_scoped_handler(void) {
    return __atomic_load_n(&csched_handler_sources, __ATOMIC_ACQUIRE) != 0;
}

/// Notes that a scoped violation handler is being installed (see `csched_scoped_handler_ever_installed`).
void csched_note_scoped_handler_installed(void);

/// Notes that a test framework bridge was installed (see `csched_test_bridge_installed`).
void csched_note_test_bridge_installed(void);

#ifdef __cplusplus
}
#endif

#endif

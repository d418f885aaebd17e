// Construction windows: the epoch an object is created in, and the windows that belong to Swift
// tasks (the task id itself comes from the Swift runtime, see csched_swift_runtime.h).

#ifndef C_SCHEDULABLE_EPOCHS_H
#define C_SCHEDULABLE_EPOCHS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

extern _Thread_local uintptr_t csched_tls_construction_epoch;

/// The construction epoch for a new object created here, or 0 where there is no window. An object's
/// construction window (the code that created it may use it before the owner does) is the epoch it
/// was created in; every epoch ends when its thread hands work to a library scheduler (from then on
/// the object can be in use elsewhere). Where it lasts otherwise:
/// - inside library work (a frame on this thread): while that work runs — its frame is still on the
///   thread's chain — so the next piece of work on the same thread has none;
/// - on the main thread or a plain thread outside library work: on that thread, while it runs the
///   same dispatch queue's work (or none) as when it was opened;
/// - in raw dispatch work outside library work (a serial queue's block, a global queue's, a task on
///   the pool): 0. Nothing shows where one block ends and the next, unrelated one begins on a GCD
///   worker, so no window can be given there (tasks get one of their own, see the Swift side).
/// Epochs come from one process-wide counter, never reused in a 64-bit word (a 32-bit word's 2^28 can
/// wrap, see epochs.c): one word per object. Always below 2^61 (2^29 in a 32-bit word), so they fit
/// beside the task flag; bit 60 (28) marks a frame's epoch.
uintptr_t csched_open_construction_epoch(void);

/// A new epoch from the same counter, for a window that belongs to a task (see `csched_current_task_id`).
uintptr_t csched_draw_construction_epoch(void);

/// How many tasks have construction windows open: while 0, a hand-off has nothing to close for tasks.
/// Written by the Swift side under its lock; read here with a relaxed load.
extern uintptr_t csched_task_windows_open;

/// The window this thread cached for `task` (an object the slot retains), or NULL.
void *_Nullable csched_task_window_cached(uint64_t task);

/// Caches `window` (retained by the caller for the slot) for `task`; returns the previous one, whose
/// retain passes to the caller.
void *_Nullable csched_task_window_cache_swap(uint64_t task, void *_Nullable window);

/// Sets `csched_task_windows_open` (a relaxed atomic store).
void csched_set_task_windows_open(uintptr_t count);

/// Installs the function that closes a task's windows when it hands work to a library scheduler.
void csched_set_task_window_closer(void (*_Nonnull closer)(uint64_t));

/// Closes the current task's construction windows, if it runs in a task (`csched_note_publication`).
void csched_end_task_windows_slow(void);

/// Whether the calling code is still in construction epoch `epoch` (see
/// `csched_open_construction_epoch`): the same thread, no hand-off since, and the same work — the
/// frame that opened it still on this thread's chain, or for a thread's epoch, the same dispatch
/// queue's work (or none).
bool csched_in_construction_epoch(uintptr_t epoch);

/// Records that this thread handed work to a library scheduler: it closes the thread's construction
/// epoch, and with it the window of every object the thread created in it. One TLS store — and, only
/// while some task has a window open, a call that closes the current task's.
static inline void csched_note_publication(void) {
    csched_tls_construction_epoch = 0;
    if (__atomic_load_n(&csched_task_windows_open, __ATOMIC_RELAXED) != 0) csched_end_task_windows_slow();
}

#ifdef __cplusplus
}
#endif

#endif

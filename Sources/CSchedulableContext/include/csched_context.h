// The thread-local "current schedule context" token, read by every check: the frames library work
// pushes, the ids of contexts and threads, the main thread's base context.
//
// Swift has no thread-local storage of its own; a C `_Thread_local` read through a `static inline`
// function compiles to one TLS load that the Swift optimizer can inline into @inlinable checks, with
// no lock, no allocation and no Foundation (ARCHITECTURE.md, "Layers").

#ifndef C_SCHEDULABLE_CONTEXT_H
#define C_SCHEDULABLE_CONTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The id of the main-thread context. Context ids are never reused; 0 means "no context".
#define CSCHED_MAIN_CONTEXT_ID ((uintptr_t)1)

/// One entry of the current thread's context chain. Frames live on the stack of the code that runs
/// work for a context; `outer` is the chain that was current (or lent by a blocked caller) before.
typedef struct csched_frame {
    uintptr_t context_id;
    const void *_Nullable context;               // unretained ExecutionContext
    const struct csched_frame *_Nullable outer;  // the chain a check walks
    const struct csched_frame *_Nullable saved_top;
    uintptr_t saved_id;
    uintptr_t construction_epoch;                // the window objects created in this work belong to
} csched_frame;

extern _Thread_local uintptr_t csched_tls_current_id;
extern _Thread_local const csched_frame *_Nullable csched_tls_top;

/// The innermost context's id on this thread (0 when no library scheduler runs work here and the
/// thread is not known to be the main thread). One TLS load: the fast path of every check.
static inline uintptr_t csched_current_id(void) { return csched_tls_current_id; }

/// A record's whole fast path for debug (`-Onone`) builds: whether the first stored word of the Swift
/// object `record` (a relaxed load, as `AtomicWord.loadRelaxed(firstIn:)`) equals the thread's token.
/// At `-Onone` Swift calls a header's plain inline functions instead of inlining them, and a stdlib
/// call computes the word's address; `always_inline` is honoured even there, so this is a load and a
/// compare in the caller. The word follows the Swift heap object header, two words on every platform
/// (SwiftShims' HeapObject.h asserts it; DebugFastPathTests checks this address against AtomicWord's).
static inline __attribute__((always_inline)) bool csched_record_passes_fast_path(const void *_Nonnull record) {
    return __atomic_load_n((const uintptr_t *)record + 2, __ATOMIC_RELAXED) == csched_tls_current_id;
}

/// The innermost frame on this thread, or NULL.
static inline const csched_frame *_Nullable csched_top_frame(void) { return csched_tls_top; }

/// Makes `frame` current; `outer` is the chain checks walk past it (normally the current top frame;
/// a blocked synchronous caller's chain when work runs on another thread on that caller's behalf).
static inline void csched_enter(csched_frame *_Nonnull frame, uintptr_t context_id,
                                const void *_Nullable context,
                                const csched_frame *_Nullable outer) {
    frame->context_id = context_id;
    frame->context = context;
    frame->outer = outer;
    frame->saved_top = csched_tls_top;
    frame->saved_id = csched_tls_current_id;
    frame->construction_epoch = 0;
    csched_tls_top = frame;
    csched_tls_current_id = context_id;
}

/// Restores what was current before the matching `csched_enter`.
static inline void csched_leave(const csched_frame *_Nonnull frame) {
    csched_tls_top = frame->saved_top;
    csched_tls_current_id = frame->saved_id;
}

/// Makes `context_id` the base context of a thread that runs no library work right now, so checks
/// for objects bound to this plain thread take the fast path.
static inline void csched_adopt_base_context(uintptr_t context_id) {
    if (csched_tls_top == NULL && csched_tls_current_id == 0) csched_tls_current_id = context_id;
}

/// Marks the main thread's base context as the main context so main-owned checks take the fast path.
/// Called on the main thread only.
void csched_adopt_main_context(void);

/// A process-unique id, never reused: for contexts and for plain threads (no ABA on pthread_t reuse).
uintptr_t csched_next_id(void);

/// This thread's process-unique id (assigned on first use, never reused after the thread dies).
uintptr_t csched_thread_unique_id(void);

/// The top bit of a history thread stamp: the stamp's thread is the process's main thread.
#define CSCHED_HISTORY_MAIN_THREAD_FLAG ((uintptr_t)1 << (sizeof(uintptr_t) * 8 - 1))

/// The calling thread in one word, for a protection record's creation: its never-reused unique id
/// (`csched_thread_unique_id`), with `CSCHED_HISTORY_MAIN_THREAD_FLAG` on the main thread. One
/// thread-local load after the thread's first call.
uintptr_t csched_history_thread_stamp(void);

/// The class metadata addresses of the library schedulers whose fixed-owner objects share a record
/// (index 0 `SerialQueueScheduler`, 1 `ThreadScheduler`), recorded by the Swift side the first time it
/// meets each; 0 until then. Creating an object compares its scheduler's class with a plain global
/// here, where `SerialQueueScheduler.self` is a call to the class's metadata accessor, which made the
/// creation save and restore five registers (see `SharedFixedRecord` in ConfinementRecord.swift).
extern uintptr_t csched_shared_record_classes[2];

/// `csched_shared_record_classes[index]`, relaxed: a stale 0 only sends the caller to its full path.
static inline uintptr_t csched_shared_record_class(int index) {
    return __atomic_load_n(&csched_shared_record_classes[index], __ATOMIC_RELAXED);
}

/// Records `metadata` as `csched_shared_record_classes[index]` (every caller stores the same address).
static inline void csched_note_shared_record_class(int index, uintptr_t metadata) {
    if (csched_shared_record_class(index) != metadata) {
        __atomic_store_n(&csched_shared_record_classes[index], metadata, __ATOMIC_RELAXED);
    }
}

#ifdef __cplusplus
}
#endif

#endif

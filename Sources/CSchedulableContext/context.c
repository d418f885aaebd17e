// The context token, frames' thread-locals, ids, and the main thread's base context (csched_context.h).

#include "csched_private.h"

_Thread_local uintptr_t csched_tls_current_id = 0;
uintptr_t csched_shared_record_classes[2] = {0, 0};  // csched_context.h
_Thread_local const csched_frame *csched_tls_top = NULL;

static _Thread_local uintptr_t csched_tls_unique_id = 0;
// Starts above the reserved ids (0 = none, 1 = main) so no real context or thread ever collides.
static _Atomic uintptr_t csched_id_counter = 16;

void csched_adopt_main_context(void) {
    if (csched_tls_top == NULL && csched_tls_current_id == 0) {
        csched_tls_current_id = CSCHED_MAIN_CONTEXT_ID;
    }
}

// Runs when the image loads: for a program linked with the library that is the main thread, so
// main-owned checks in top-level code are fast from the first access. A library loaded later from
// another thread simply takes the (still exact) slow path once on the main thread.
__attribute__((constructor)) static void csched_initialize(void) {
    if (csched_is_main_thread()) {
        csched_adopt_main_context();
    }
}

uintptr_t csched_next_id(void) {
    return atomic_fetch_add_explicit(&csched_id_counter, 1, memory_order_relaxed);
}

uintptr_t csched_thread_unique_id(void) {
    uintptr_t id = csched_tls_unique_id;
    if (id == 0) {
        id = csched_next_id();
        csched_tls_unique_id = id;
    }
    return id;
}

// ---- Ownership history (debug tier): the creating thread in one word ----------------------------
// Kept apart so that it merges cleanly: only `Confinement/` (Swift) calls it.

// The calling thread's stamp, computed once per thread: its unique id, with the top bit set on the
// main thread (0 until computed; a stamp is never 0, unique ids start at 1).
static _Thread_local uintptr_t csched_tls_history_stamp = 0;

// Out of line, so the common case saves no registers (it runs once per protected object).
__attribute__((noinline)) static uintptr_t csched_history_first_thread_stamp(void) {
    uintptr_t stamp = csched_thread_unique_id() | (csched_is_main_thread() ? CSCHED_HISTORY_MAIN_THREAD_FLAG : 0);
    csched_tls_history_stamp = stamp;
    return stamp;
}

uintptr_t csched_history_thread_stamp(void) {
    uintptr_t stamp = csched_tls_history_stamp;
    if (__builtin_expect(stamp != 0, 1)) return stamp;
    return csched_history_first_thread_stamp();
}

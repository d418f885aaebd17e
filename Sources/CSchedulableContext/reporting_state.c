// Per-thread reporting state (csched_reporting_state.h).

#include "csched_private.h"

_Thread_local int csched_tls_reporting = 0;
_Thread_local void *csched_tls_probe_slot = NULL;

// Relaxed is enough: a scope is installed before the code it wraps runs (same thread, or a task
// created after it), and that code is what creates the records that look.
static _Atomic bool csched_scoped_handler_flag = false;

bool csched_scoped_handler_ever_installed(void) {
    return atomic_load_explicit(&csched_scoped_handler_flag, memory_order_relaxed);
}

void csched_note_scoped_handler_installed(void) {
    atomic_store_explicit(&csched_scoped_handler_flag, true, memory_order_relaxed);
}

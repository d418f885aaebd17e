// Per-thread reporting state (csched_reporting_state.h).

#include "csched_private.h"

_Thread_local int csched_tls_reporting = 0;
_Thread_local void *csched_tls_probe_slot = NULL;

uintptr_t csched_handler_sources = 0;  // csched_reporting_state.h

void csched_note_scoped_handler_installed(void) {
    // Relaxed: see `csched_scoped_handler_ever_installed`. Tested first, so that scopes entered over and
    // over do not keep writing the shared line.
    if ((__atomic_load_n(&csched_handler_sources, __ATOMIC_RELAXED) & 1) == 0) {
        __atomic_fetch_or(&csched_handler_sources, 1, __ATOMIC_RELAXED);
    }
}

void csched_note_test_bridge_installed(void) {
    __atomic_fetch_or(&csched_handler_sources, 2, __ATOMIC_RELEASE);
}

// Construction epochs and the windows of Swift tasks (csched_epochs.h).

#include "csched_private.h"

_Thread_local uintptr_t csched_tls_construction_epoch = 0;

// Construction epochs have a counter of their own: they are drawn on object creation after a
// hand-off, far more often than context ids; 2^60 of them never run out.
static _Atomic uintptr_t csched_epoch_counter = 1;
// The dispatch queue whose work the thread ran when it opened its epoch (its label's address, unique
// per queue), so that a worker that moved on to another queue's work is in a new epoch.
static _Thread_local const char *csched_tls_epoch_queue = NULL;

// The tags are counted from the top of the word, whatever its width (bit 60 of a 64-bit word, 28 of a
// 32-bit one: arm64_32 watchOS, 32-bit Linux), below the task flag and the state flags of the Swift side.
#define CSCHED_FRAME_EPOCH ((uintptr_t)1 << (sizeof(uintptr_t) * 8 - 4))

// The next epoch, below the frame bit. A 32-bit word has 2^28 of them, which a long process can use
// up: the counter then wraps (skipping 0, "no window") rather than run into the tag bits, and an epoch
// is reused; a record still holding the old one could then pass as constructed by a new window's
// thread (a missed report, never a false one). A 64-bit counter does not wrap in practice.
static uintptr_t csched_next_epoch(void) {
    uintptr_t epoch;
    do {
        epoch = atomic_fetch_add_explicit(&csched_epoch_counter, 1, memory_order_relaxed) & (CSCHED_FRAME_EPOCH - 1);
    } while (epoch == 0);
    return epoch;
}

uintptr_t csched_open_construction_epoch(void) {
    uintptr_t epoch = csched_tls_construction_epoch;
    csched_frame *top = (csched_frame *)csched_tls_top;   // the innermost frame is this very work's
    if (top != NULL) {
        if (epoch != 0 && top->construction_epoch == epoch) return epoch;
        epoch = csched_next_epoch() | CSCHED_FRAME_EPOCH;
        top->construction_epoch = epoch;
        csched_tls_construction_epoch = epoch;
        return epoch;
    }
    const char *queue = dispatch_queue_get_label(NULL);
    if (epoch != 0 && (epoch & CSCHED_FRAME_EPOCH) == 0 && queue == csched_tls_epoch_queue) return epoch;
    // Raw dispatch work: no window (see the header).
    if (!csched_is_main_thread_inline() && csched_label_kind(queue) != csched_thread_plain) return 0;
    epoch = csched_next_epoch();
    csched_tls_construction_epoch = epoch;
    csched_tls_epoch_queue = queue;
    return epoch;
}

uintptr_t csched_draw_construction_epoch(void) {
    return csched_next_epoch();
}

uintptr_t csched_task_windows_open = 0;

// The last task window this thread handed out, retained by this slot (see TaskConstructionWindows).
static _Thread_local uint64_t csched_tls_window_task = 0;
static _Thread_local void *csched_tls_window = NULL;

void *csched_task_window_cached(uint64_t task) {
    return csched_tls_window_task == task ? csched_tls_window : NULL;
}

void *csched_task_window_cache_swap(uint64_t task, void *window) {
    void *previous = csched_tls_window;
    csched_tls_window = window;
    csched_tls_window_task = task;
    return previous;
}

void csched_set_task_windows_open(uintptr_t count) {
    __atomic_store_n(&csched_task_windows_open, count, __ATOMIC_RELAXED);
}
static void (*_Atomic csched_task_window_closer)(uint64_t) = NULL;

void csched_set_task_window_closer(void (*closer)(uint64_t)) {
    atomic_store_explicit(&csched_task_window_closer, closer, memory_order_release);
}

void csched_end_task_windows_slow(void) {
    uint64_t task = csched_current_task_id();
    if (task == 0) return;
    void (*closer)(uint64_t) = atomic_load_explicit(&csched_task_window_closer, memory_order_acquire);
    if (closer != NULL) closer(task);
}

bool csched_in_construction_epoch(uintptr_t epoch) {
    if (epoch == 0 || epoch != csched_tls_construction_epoch) return false;
    if ((epoch & CSCHED_FRAME_EPOCH) == 0) return dispatch_queue_get_label(NULL) == csched_tls_epoch_queue;
    // This thread's own chain (saved_top), not a blocked caller's lent one (outer).
    for (const csched_frame *frame = csched_tls_top; frame != NULL; frame = frame->saved_top) {
        if (frame->construction_epoch == epoch) return true;
    }
    return false;
}

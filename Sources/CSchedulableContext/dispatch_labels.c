// The label conventions of libdispatch's pool queues and Swift's global concurrent executor
// (csched_dispatch_internals.h): not a contract of either project, so confirmed once in this process.

#include "csched_private.h"

static pthread_once_t csched_labels_once = PTHREAD_ONCE_INIT;
_Atomic int csched_labels_state = 0;   // see csched_private.h

static void csched_record_label_kind(void *context) {
    *(csched_thread_kind *)context = csched_label_kind_unchecked(dispatch_queue_get_label(NULL));
}

// Runs once, on the first question: work `sync`ed onto a global queue (which runs on the calling
// thread with the global queue current) must classify as the pool, and a serial queue's as a queue.
// (Swift's pool label cannot be observed without running a task; it is the one row taken on trust.)
static bool csched_label_check(void) {
    csched_thread_kind global_kind = csched_thread_plain;
    csched_thread_kind serial_kind = csched_thread_plain;
    dispatch_sync_f((dispatch_queue_t)dispatch_get_global_queue(0, 0), &global_kind, csched_record_label_kind);
    dispatch_queue_t serial = dispatch_queue_create("schedulable.label-check.serial", NULL);
    dispatch_sync_f(serial, &serial_kind, csched_record_label_kind);
    dispatch_release(serial);
    return global_kind == csched_thread_pool && serial_kind == csched_thread_queue;
}

// The kill switch, then the check; published for `csched_label_conventions_confirmed`.
static void csched_confirm_label_conventions(void) {
    bool confirmed = false;
    if (!csched_switched_off("SCHEDULABLE_DISABLE_LABEL_CONVENTIONS")) confirmed = csched_label_check();
    atomic_store_explicit(&csched_labels_state, confirmed ? 1 : 2, memory_order_relaxed);
}

__attribute__((noinline)) int csched_labels_first_use(void) {
    pthread_once(&csched_labels_once, csched_confirm_label_conventions);
    return atomic_load_explicit(&csched_labels_state, memory_order_relaxed);
}

bool csched_label_conventions_confirmed(void) {
    return csched_labels_confirmed_inline();
}

int csched_label_kind_of(const char *label) {
    return (int)csched_label_kind(label);
}

bool csched_running_on_pool(void) {
    return csched_label_kind(dispatch_queue_get_label(NULL)) == csched_thread_pool;
}

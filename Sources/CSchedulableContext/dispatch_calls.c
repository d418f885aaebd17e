// Public libdispatch calls (csched_dispatch_calls.h).

#include "csched_private.h"

// Passing NULL (DISPATCH_CURRENT_QUEUE_LABEL) asks for the current queue's label.
const char *csched_current_queue_label(void) {
    const char *label = dispatch_queue_get_label(NULL);
    return label ? label : "";
}

void csched_dispatch_async_f(const void *queue, void *context, void (*work)(void *)) {
    dispatch_async_f((dispatch_queue_t)queue, context, work);
}

const char *csched_dispatch_queue_label(const void *queue) {
    return dispatch_queue_get_label((dispatch_queue_t)queue);
}

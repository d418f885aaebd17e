// The Swift Dispatch overlay's queue-specific box, read directly (csched_dispatch_internals.h).

#include "csched_private.h"

// The box is a Swift class instance: a two-word header (metadata, reference counts), then `value`.
static const void *csched_box_value(const void *box) {
    if (box == NULL) return NULL;
    return *(const void *const *)((const char *)box + 2 * sizeof(void *));
}

const void *csched_queue_specific_value(const void *key) {
    return csched_box_value(dispatch_get_specific(key));
}

const void *csched_queue_own_specific_value(const void *queue, const void *key) {
    return csched_box_value(dispatch_queue_get_specific((dispatch_queue_t)queue, key));
}

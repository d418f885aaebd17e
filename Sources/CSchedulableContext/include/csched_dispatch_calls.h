// Public libdispatch calls the Swift overlay does not offer cheaply.

#ifndef C_SCHEDULABLE_DISPATCH_CALLS_H
#define C_SCHEDULABLE_DISPATCH_CALLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The current dispatch queue's label, or "" (for reports).
const char *_Nonnull csched_current_queue_label(void);

/// `dispatch_async_f` on the libdispatch queue `queue` (a `dispatch_queue_t`): work as a context
/// pointer and a C function, with no block to copy — the library's hops cost one allocation (their
/// job) instead of a job and a block.
void csched_dispatch_async_f(const void *_Nonnull queue, void *_Nullable context,
                             void (*_Nonnull work)(void *_Nullable));

/// The label of the libdispatch queue `queue` (`dispatch_queue_get_label`): how Swift code checks that
/// a pointer it took from a `DispatchQueue` is that queue before using it.
const char *_Nullable csched_dispatch_queue_label(const void *_Nonnull queue);

#ifdef __cplusplus
}
#endif

#endif

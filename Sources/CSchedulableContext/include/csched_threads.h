// Facts about OS threads (public pthread and Darwin APIs): the main thread, ids, names, starting and
// joining threads, stack sizes, QoS, and Darwin's autorelease pools.

#ifndef C_SCHEDULABLE_THREADS_H
#define C_SCHEDULABLE_THREADS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// MARK: - Autorelease pools

#if defined(__APPLE__)
// The Objective-C runtime's pool API (what @autoreleasepool compiles to); libobjc is always loaded on
// Darwin, so declaring it here keeps Foundation out of the library.
extern void *_Nonnull objc_autoreleasePoolPush(void);
extern void objc_autoreleasePoolPop(void *_Nonnull pool);
#endif

/// Opens an autorelease pool around one event of a thread scheduler (Darwin; NULL elsewhere): objects
/// an event autoreleases are freed when it ends, not when the thread does.
static inline void *_Nullable csched_autorelease_pool_push(void) {
#if defined(__APPLE__)
    return objc_autoreleasePoolPush();
#else
    return NULL;
#endif
}

/// Drains the pool `csched_autorelease_pool_push` opened.
static inline void csched_autorelease_pool_pop(void *_Nullable pool) {
#if defined(__APPLE__)
    if (pool != NULL) objc_autoreleasePoolPop(pool);
#else
    (void)pool;
#endif
}

/// Starts a joinable thread running `entry(argument)` with a stack of `stack_size` bytes (rounded up
/// to the page size and the platform's minimum) and, on Darwin, the QoS class `qos_class` from birth
/// (a `qos_class_t` value; 0 leaves the default). Stores the thread's handle in `handle`; returns 0 or
/// the pthread error.
int csched_thread_start(uintptr_t *_Nonnull handle, void *_Nullable (*_Nonnull entry)(void *_Nullable),
                        void *_Nullable argument, size_t stack_size, unsigned int qos_class);

/// Joins the thread `csched_thread_start` started; returns 0 or the pthread error.
int csched_thread_join(uintptr_t handle);

/// Detaches the thread `csched_thread_start` started; returns 0 or the pthread error.
int csched_thread_detach(uintptr_t handle);

/// The stack size of the calling thread in bytes, as the system reports it (0 when it cannot tell).
size_t csched_current_thread_stack_size(void);

/// Lends the calling thread's QoS to the thread `handle` while the caller waits for it (Darwin:
/// pthread_override_qos_class_start_np; only ever raises). Returns a token for
/// `csched_qos_override_end`, NULL when there is nothing to end (always, outside Darwin: Linux has no
/// QoS to lend; nice values are not inherited by waiting).
void *_Nullable csched_qos_override_start(uintptr_t handle);

/// Ends an override `csched_qos_override_start` began.
void csched_qos_override_end(void *_Nullable token);

/// Sets the priority of the thread whose OS id is `os_thread_id` from another thread: Linux sets its
/// nice value `nice_value` (1 applied, 0 refused: raising needs privileges); Darwin answers -1, as it
/// sets a QoS class (`qos_class`) only from the thread itself (`csched_set_current_thread_qos`).
int csched_set_thread_qos(uint64_t os_thread_id, unsigned int qos_class, int nice_value);

/// Sets the calling thread's priority: the QoS class `qos_class` on Darwin, the nice value
/// `nice_value` on Linux. Whether the system applied it.
bool csched_set_current_thread_qos(unsigned int qos_class, int nice_value);

/// Whether the calling thread is the process's main thread. Exact (OS thread id == process id on
/// Linux, pthread_main_np on Darwin), cached per thread after the first call.
bool csched_is_main_thread(void);

/// The OS thread id (for reports).
uint64_t csched_os_thread_id(void);

/// Writes the calling thread's name into `buffer`: the full name the library gave it
/// (`csched_set_thread_name`), else the system's (pthread_getname_np, at most 15 bytes on Linux).
/// Returns false when it has none.
bool csched_thread_name(char *_Nonnull buffer, unsigned long size);

/// Whether the calling thread was named by the library (`csched_set_thread_name`).
bool csched_thread_has_library_name(void);

/// Names the calling thread, so reports and debuggers show which scheduler a thread belongs to. The
/// system keeps a truncated copy (15 bytes on Linux, 63 on Darwin); the full name stays in a
/// thread-local for reports.
void csched_set_thread_name(const char *_Nonnull name);

#ifdef __cplusplus
}
#endif

#endif

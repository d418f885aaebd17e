// Shared by the C files of this target only (not part of the module's headers): the platform
// includes, libdispatch's declarations, and the kill-switch reader.

#ifndef C_SCHEDULABLE_PRIVATE_H
#define C_SCHEDULABLE_PRIVATE_H

#define _GNU_SOURCE
#include "CSchedulableContext.h"

#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__linux__)
#include <dlfcn.h>
#include <sys/syscall.h>
#if defined(__GLIBC__)
#include <execinfo.h>
#endif
#endif
#if defined(__APPLE__)
#include <dlfcn.h>
#include <execinfo.h>
#include <objc/runtime.h>
#include <os/log.h>
#include <pthread/qos.h>
#endif

#if defined(__APPLE__)
#include <dispatch/dispatch.h>
#else
// Declared here rather than by including libdispatch's headers, which a C target does not find on
// every toolchain; the signatures are libdispatch's public ones (queues passed as the pointers they are).
extern void *dispatch_get_specific(const void *key);
typedef struct csched_dispatch_queue_s *dispatch_queue_t;
extern void dispatch_async_f(dispatch_queue_t queue, void *context, void (*work)(void *));
extern const char *dispatch_queue_get_label(dispatch_queue_t queue);
extern dispatch_queue_t dispatch_queue_create(const char *label, void *attributes);
extern dispatch_queue_t dispatch_queue_create_with_target(const char *label, void *attributes, dispatch_queue_t target);
extern void dispatch_sync_f(dispatch_queue_t queue, void *context, void (*work)(void *));
extern void dispatch_release(void *object);
extern void *dispatch_queue_get_specific(dispatch_queue_t queue, const void *key);
extern dispatch_queue_t dispatch_get_global_queue(long identifier, unsigned long flags);
// What `DISPATCH_QUEUE_CONCURRENT` names: the self-check makes one concurrent queue with it.
extern struct csched_dispatch_queue_attr_s _dispatch_queue_attr_concurrent;
// The main queue itself: `dispatch_get_main_queue()` is a macro for its address.
extern struct csched_dispatch_queue_s _dispatch_main_q;
#endif

// What the current dispatch queue's label says about the calling thread (dispatch_labels.c).
typedef enum {
    csched_thread_plain,   // no dispatch work: libdispatch names its default root queue's overcommit
                           // variant there (or nothing at all)
    csched_thread_pool,    // a global queue's or Swift's global concurrent executor's work; also the
                           // answer for every label when the conventions are not confirmed
    csched_thread_queue,   // another queue's work
} csched_thread_kind;

// The label table itself, with no self-check: what each label means if the conventions hold.
static inline csched_thread_kind csched_label_kind_unchecked(const char *label) {
    if (label == NULL) return csched_thread_plain;
    if (strcmp(label, "Swift global concurrent queue") == 0) return csched_thread_pool;
    static const char overcommit[] = ".overcommit";
    if (!csched_label_is_root_queue(label)) return csched_thread_queue;
    size_t length = strlen(label);
    bool is_overcommit = length >= sizeof overcommit - 1
        && strcmp(label + length - (sizeof overcommit - 1), overcommit) == 0;
    return is_overcommit ? csched_thread_plain : csched_thread_pool;
}

// The label conventions' self-check (dispatch_labels.c): 0 not run yet, 1 confirmed, 2 failed or
// switched off. After the first use the question is one load and a compare, inlined where it is asked
// (object creation outside library work asks it).
extern _Atomic int csched_labels_state;
int csched_labels_first_use(void);

static inline bool csched_labels_confirmed_inline(void) {
    int state = atomic_load_explicit(&csched_labels_state, memory_order_relaxed);
    if (__builtin_expect(state == 0, 0)) state = csched_labels_first_use();
    return state == 1;
}

// Unconfirmed conventions make every label "the pool": no thread is mistaken for a serial owner, and
// outside library work only the main thread gets a construction window (the documented fallback).
static inline csched_thread_kind csched_label_kind(const char *label) {
    if (!csched_labels_confirmed_inline()) return csched_thread_pool;
    return csched_label_kind_unchecked(label);
}

// `csched_is_main_thread`'s cached answer (threads.c), inlined where it is asked on a hot path.
extern _Thread_local int csched_tls_main_state;

static inline bool csched_is_main_thread_inline(void) {
    int state = csched_tls_main_state;
    return state != 0 ? state == 1 : csched_is_main_thread();
}

// Whether the kill switch `name` (an environment variable, any value) is set. Read once per internal,
// inside its self-check.
static inline bool csched_switched_off(const char *name) { return getenv(name) != NULL; }

#endif

// The library's only atomics (header only).

#ifndef C_SCHEDULABLE_ATOMICS_H
#define C_SCHEDULABLE_ATOMICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// The library's only atomics: the compiler's __atomic builtins, which implement the C11 memory model
// and need no OS version (Synchronization.Atomic needs macOS 15 / iOS 18). Each inlines into Swift as
// one instruction; the words are plain `uintptr_t` that Swift stores inline (see AtomicWord.swift).

/// A relaxed load: the fast path's read of the owner's id.
static inline uintptr_t csched_atomic_load_relaxed(const uintptr_t *_Nonnull word) {
    return __atomic_load_n(word, __ATOMIC_RELAXED);
}

/// An acquiring load.
static inline uintptr_t csched_atomic_load_acquire(const uintptr_t *_Nonnull word) {
    return __atomic_load_n(word, __ATOMIC_ACQUIRE);
}

/// A relaxed store.
static inline void csched_atomic_store_relaxed(uintptr_t *_Nonnull word, uintptr_t value) {
    __atomic_store_n(word, value, __ATOMIC_RELAXED);
}

/// A releasing store.
static inline void csched_atomic_store_release(uintptr_t *_Nonnull word, uintptr_t value) {
    __atomic_store_n(word, value, __ATOMIC_RELEASE);
}

/// Adds `delta` (wrapping) and returns the new value; acquiring and releasing.
static inline uintptr_t csched_atomic_add(uintptr_t *_Nonnull word, uintptr_t delta) {
    return __atomic_add_fetch(word, delta, __ATOMIC_ACQ_REL);
}

/// Subtracts `delta` (wrapping) and returns the new value; acquiring and releasing.
static inline uintptr_t csched_atomic_subtract(uintptr_t *_Nonnull word, uintptr_t delta) {
    return __atomic_sub_fetch(word, delta, __ATOMIC_ACQ_REL);
}

#ifdef __cplusplus
}
#endif

#endif

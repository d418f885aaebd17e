// The thread-local "current schedule context" token, read by every check.
//
// Swift has no thread-local storage of its own; a C `_Thread_local` read through a `static inline`
// function compiles to one TLS load that the Swift optimizer can inline into @inlinable checks, with
// no lock, no allocation and no Foundation (DESIGN.md, layer 2).

#ifndef C_SCHEDULABLE_CONTEXT_H
#define C_SCHEDULABLE_CONTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The id of the main-thread context. Context ids are never reused; 0 means "no context".
#define CSCHED_MAIN_CONTEXT_ID ((uintptr_t)1)

/// One entry of the current thread's context chain. Frames live on the stack of the code that runs
/// work for a context; `outer` is the chain that was current (or lent by a blocked caller) before.
typedef struct csched_frame {
    uintptr_t context_id;
    const void *_Nullable context;               // unretained ExecutionContext
    const struct csched_frame *_Nullable outer;  // the chain a check walks
    const struct csched_frame *_Nullable saved_top;
    uintptr_t saved_id;
    uintptr_t construction_epoch;                // the window objects created in this work belong to
} csched_frame;

extern _Thread_local uintptr_t csched_tls_current_id;
extern _Thread_local const csched_frame *_Nullable csched_tls_top;
extern _Thread_local int csched_tls_reporting;
extern _Thread_local void *_Nullable csched_tls_probe_slot;
extern _Thread_local uintptr_t csched_tls_construction_epoch;

/// The innermost context's id on this thread (0 when no library scheduler runs work here and the
/// thread is not known to be the main thread). One TLS load: the fast path of every check.
static inline uintptr_t csched_current_id(void) { return csched_tls_current_id; }

/// The innermost frame on this thread, or NULL.
static inline const csched_frame *_Nullable csched_top_frame(void) { return csched_tls_top; }

/// Makes `frame` current; `outer` is the chain checks walk past it (normally the current top frame;
/// a blocked synchronous caller's chain when work runs on another thread on that caller's behalf).
static inline void csched_enter(csched_frame *_Nonnull frame, uintptr_t context_id,
                                const void *_Nullable context,
                                const csched_frame *_Nullable outer) {
    frame->context_id = context_id;
    frame->context = context;
    frame->outer = outer;
    frame->saved_top = csched_tls_top;
    frame->saved_id = csched_tls_current_id;
    frame->construction_epoch = 0;
    csched_tls_top = frame;
    csched_tls_current_id = context_id;
}

/// Restores what was current before the matching `csched_enter`.
static inline void csched_leave(const csched_frame *_Nonnull frame) {
    csched_tls_top = frame->saved_top;
    csched_tls_current_id = frame->saved_id;
}

/// The construction epoch for a new object created here, or 0 where there is no window. An object's
/// construction window (the code that created it may use it before the owner does) is the epoch it
/// was created in; every epoch ends when its thread hands work to a library scheduler (from then on
/// the object can be in use elsewhere). Where it lasts otherwise:
/// - inside library work (a frame on this thread): while that work runs — its frame is still on the
///   thread's chain — so the next piece of work on the same thread has none;
/// - on the main thread or a plain thread outside library work: on that thread, while it runs the
///   same dispatch queue's work (or none) as when it was opened;
/// - in raw dispatch work outside library work (a serial queue's block, a global queue's, a task on
///   the pool): 0. Nothing shows where one block ends and the next, unrelated one begins on a GCD
///   worker, so no window can be given there (tasks get one of their own, see the Swift side).
/// Epochs come from one process-wide counter and are never reused: one word per object. Always below
/// 2^61, so they fit beside the task flag; bit 60 marks a frame's epoch.
uintptr_t csched_open_construction_epoch(void);

/// A new epoch from the same counter, for a window that belongs to a task (see `csched_current_task_id`).
uintptr_t csched_draw_construction_epoch(void);

/// The current Swift task's id (`swift_task_getJobTaskId`: 64 bits, never reused in a process), or 0
/// outside any task — and on an Apple OS whose Swift runtime does not export the function (looked up
/// at run time there), where tasks on the pool then get no construction window.
uint64_t csched_current_task_id(void);

/// How many tasks have construction windows open: while 0, a hand-off has nothing to close for tasks.
/// Written by the Swift side under its lock; read here with a relaxed load.
extern uintptr_t csched_task_windows_open;

/// The window this thread cached for `task` (an object the slot retains), or NULL.
void *_Nullable csched_task_window_cached(uint64_t task);

/// Caches `window` (retained by the caller for the slot) for `task`; returns the previous one, whose
/// retain passes to the caller.
void *_Nullable csched_task_window_cache_swap(uint64_t task, void *_Nullable window);

/// Sets `csched_task_windows_open` (a relaxed atomic store).
void csched_set_task_windows_open(uintptr_t count);

/// Installs the function that closes a task's windows when it hands work to a library scheduler.
void csched_set_task_window_closer(void (*_Nonnull closer)(uint64_t));

/// Closes the current task's construction windows, if it runs in a task (`csched_note_publication`).
void csched_end_task_windows_slow(void);

/// Whether the calling code is still in construction epoch `epoch` (see
/// `csched_open_construction_epoch`): the same thread, no hand-off since, and the same work — the
/// frame that opened it still on this thread's chain, or for a thread's epoch, the same dispatch
/// queue's work (or none).
bool csched_in_construction_epoch(uintptr_t epoch);

/// Whether the calling code runs on a concurrent pool thread: work of a global dispatch queue or of
/// Swift's global concurrent executor. (A thread running no queue work at all — the main thread, a
/// plain `Thread` — is not: libdispatch names its default root queue's overcommit variant there.)
bool csched_running_on_pool(void);

/// Records that this thread handed work to a library scheduler: it closes the thread's construction
/// epoch, and with it the window of every object the thread created in it. One TLS store — and, only
/// while some task has a window open, a call that closes the current task's.
static inline void csched_note_publication(void) {
    csched_tls_construction_epoch = 0;
    if (__atomic_load_n(&csched_task_windows_open, __ATOMIC_RELAXED) != 0) csched_end_task_windows_slow();
}

/// The slot a property probe on this thread records into, or NULL when no probe runs.
static inline void *_Nullable csched_probe_slot(void) { return csched_tls_probe_slot; }

/// Installs `slot` as this thread's probe slot and returns the previous one.
static inline void *_Nullable csched_probe_swap(void *_Nullable slot) {
    void *previous = csched_tls_probe_slot;
    csched_tls_probe_slot = slot;
    return previous;
}

/// Marks the start of violation reporting on this thread; false when a report is already under way
/// here (a violation raised inside a handler), so the pipeline never recurses.
static inline bool csched_reporting_enter(void) {
    if (csched_tls_reporting) return false;
    csched_tls_reporting = 1;
    return true;
}

/// Whether a violation report is under way on this thread (a handler is running).
static inline bool csched_is_reporting(void) { return csched_tls_reporting != 0; }

/// Marks the end of violation reporting on this thread.
static inline void csched_reporting_leave(void) { csched_tls_reporting = 0; }

/// Makes `context_id` the base context of a thread that runs no library work right now, so checks
/// for objects bound to this plain thread take the fast path.
static inline void csched_adopt_base_context(uintptr_t context_id) {
    if (csched_tls_top == NULL && csched_tls_current_id == 0) csched_tls_current_id = context_id;
}

// MARK: - Atomics

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

// MARK: - Threads

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

/// Whether the calling thread is the process's main thread. Exact (OS thread id == process id on
/// Linux, pthread_main_np on Darwin), cached per thread after the first call.
bool csched_is_main_thread(void);

/// Marks the main thread's base context as the main context so main-owned checks take the fast path.
/// Called on the main thread only.
void csched_adopt_main_context(void);

/// A process-unique id, never reused: for contexts and for plain threads (no ABA on pthread_t reuse).
uintptr_t csched_next_id(void);

/// This thread's process-unique id (assigned on first use, never reused after the thread dies).
uintptr_t csched_thread_unique_id(void);

/// The current dispatch queue's label, or "" (for reports).
const char *_Nonnull csched_current_queue_label(void);

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

/// Whether an object is running its deinit: the Swift runtime's own answer for Swift-native objects.
/// Objects whose class is rooted in Objective-C (NSObject subclasses, Darwin only) have no Swift
/// reference count to read, so the answer for them is false.
bool csched_object_is_deallocating(const void *_Nonnull object);

/// The value the Swift Dispatch overlay keeps for `key` on the queue running the calling code (or a
/// queue it targets), unretained, or NULL: `dispatch_get_specific` and one load, where
/// `DispatchQueue.getSpecific` is an unspecialised generic call with a retain and a copy.
///
/// It reads the overlay's box (a Swift object whose first stored property is the value): Swift code
/// uses it only once `CurrentExecution` has checked, on a probe queue in this process, that it reads
/// exactly what `getSpecific` does.
const void *_Nullable csched_queue_specific_value(const void *_Nonnull key);

/// `dispatch_async_f` on the libdispatch queue `queue` (a `dispatch_queue_t`): work as a context
/// pointer and a C function, with no block to copy — the library's hops cost one allocation (their
/// job) instead of a job and a block.
void csched_dispatch_async_f(const void *_Nonnull queue, void *_Nullable context,
                             void (*_Nonnull work)(void *_Nullable));

/// The label of the libdispatch queue `queue` (`dispatch_queue_get_label`): how Swift code checks that
/// a pointer it took from a `DispatchQueue` is that queue before using it.
const char *_Nullable csched_dispatch_queue_label(const void *_Nonnull queue);

/// Whether a scoped violation handler was ever installed in this process. Creating a protection
/// record reads the task-local handler only then: the read costs more than the rest of a record's
/// initializer, and outside tests that scope handlers it is always empty.
bool csched_scoped_handler_ever_installed(void);

/// Notes that a scoped violation handler is being installed (see `csched_scoped_handler_ever_installed`).
void csched_note_scoped_handler_installed(void);

/// Whether `object`'s class is Swift-native (always, outside Darwin; on Darwin, rooted in Swift's
/// own root class rather than NSObject).
bool csched_object_is_swift_native(const void *_Nonnull object);

/// Raises an Xcode runtime issue (the purple warning: an os_log fault to the
/// "com.apple.runtime-issues" subsystem, logged on behalf of SwiftUI's image as Xcode requires) with
/// `message`. Darwin only, looked up with dlsym at run time; does nothing elsewhere or when os_log is
/// missing.
void csched_raise_runtime_issue(const char *_Nonnull message);

/// Arms a report to be written to standard error if this thread traps (SIGILL/SIGTRAP) before
/// `csched_disarm_trap_report`: used around `dispatchPrecondition`, whose failure prints nothing on
/// Linux. The previous signal action (the Swift backtracer, a crash reporter, the default) still runs.
/// `report` must stay valid until disarmed.
void csched_arm_trap_report(const char *_Nonnull report);

/// Disarms the report armed by `csched_arm_trap_report`.
void csched_disarm_trap_report(void);

/// Whether this process reads libdispatch's queue state itself (`csched_thread_holds_queue`,
/// `csched_queue_target`, `csched_queue_width`): `true` only on swift-corelibs-libdispatch (Linux,
/// little-endian LP64) after a self-check at the first call confirmed the layout against libdispatch's
/// behaviour. Set the environment variable `SCHEDULABLE_DISABLE_DISPATCH_READER` to turn the reader off.
bool csched_dispatch_reader_confirmed(void);

/// Whether the calling thread holds the serial libdispatch queue `queue` (runs its work, or waits in
/// `sync` on it or on a queue targeting it): 1 yes, 0 no, -1 cannot tell (reader not confirmed). The
/// same answer `dispatchPrecondition(.onQueue:)` gives for a serial queue, without trapping on "no".
int csched_thread_holds_queue(const void *_Nullable queue);

/// The queue `queue` targets, or NULL (no target read: reader not confirmed).
const void *_Nullable csched_queue_target(const void *_Nullable queue);

/// How many blocks of `queue` may run at once (libdispatch's `dq_width`): 1 for a serial queue, more
/// for a concurrent one; -1 cannot tell (reader not confirmed).
int csched_queue_width(const void *_Nullable queue);

/// Whether the self-check's width observations hold with `dq_width` read at `width_offset` (serial
/// queues read 1, a concurrent one more): part of the self-check, exported so that tests can show a
/// wrong offset fails it. `false` where there is no reader (Darwin).
bool csched_dispatch_width_layout_holds_at(size_t width_offset);

/// `queue`'s own queue-specific value for `key` (not its targets'), read like
/// `csched_queue_specific_value` (`dispatch_queue_get_specific` and one load), or NULL.
const void *_Nullable csched_queue_own_specific_value(const void *_Nonnull queue, const void *_Nonnull key);

// ---- Ownership history (debug tier) -------------------------------------------------------------

/// The top bit of a history thread stamp: the stamp's thread is the process's main thread.
#define CSCHED_HISTORY_MAIN_THREAD_FLAG ((uintptr_t)1 << (sizeof(uintptr_t) * 8 - 1))

/// The calling thread in one word, for a protection record's creation: its never-reused unique id
/// (`csched_thread_unique_id`), with `CSCHED_HISTORY_MAIN_THREAD_FLAG` on the main thread. One
/// thread-local load after the thread's first call.
uintptr_t csched_history_thread_stamp(void);

// ---- Test frameworks in the process ------------------------------------------------------------

#define CSCHED_TEST_FRAMEWORK_SWIFT_TESTING 1u
#define CSCHED_TEST_FRAMEWORK_XCTEST 2u

/// Which test frameworks this process has loaded (`CSCHED_TEST_FRAMEWORK_*` bits), found by a symbol
/// each exports; asked once, for the hint printed when tests run without SchedulableTesting.
unsigned csched_test_frameworks_loaded(void);

// MARK: - Call stacks (the fallback where the toolchain's `Runtime` module is not available)

/// Up to `capacity` return addresses of the calling thread, innermost first (`backtrace(3)`); the number
/// written. 0 where the C library has no `backtrace` (Musl).
int csched_backtrace(void *_Nullable *_Nonnull addresses, int capacity);

/// What `dladdr` knows of `address`: the image's path, the nearest exported symbol and its start.
/// Returns false when the address is in no loaded image. `symbol` is NULL when no exported symbol covers
/// it (Linux executables export none unless linked with `--export-dynamic`). The strings live as long as
/// the image stays loaded.
bool csched_address_info(const void *_Nonnull address, const char *_Nullable *_Nonnull image,
                         const char *_Nullable *_Nonnull symbol, uintptr_t *_Nonnull symbol_start);

/// `name` demangled by the Swift runtime (`swift_demangle`), or NULL when it is not a Swift symbol; the
/// caller frees the result.
char *_Nullable csched_demangle(const char *_Nonnull name);

#ifdef __cplusplus
}
#endif

#endif

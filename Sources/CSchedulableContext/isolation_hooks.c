// The Swift concurrency runtime's executor-check hook (csched_isolation_hooks.h). Not a contract: the
// hook is an exported variable of libswift_Concurrency (`swift_task_checkIsolated_hook`, declared by
// `SWIFT_CONCURRENCY_HOOK` in include/swift/Runtime/ConcurrencyHooks.def, typed in
// include/swift/Runtime/Concurrency.h as `SWIFT_CC(swift) void (*)(SerialExecutorRef executor,
// original)`), and a `SerialExecutorRef` is two words: the executor's object, then its witness table
// with kind bits, 0 for a default actor (include/swift/ABI/Executor.h). The runtime reaches the hook
// only from an unproven check that may trap (stdlib/public/Concurrency/Actor.cpp,
// `swift_task_isCurrentExecutorWithFlagsImpl`, with the `Assert` flag 0x8): the executor is not the
// one running, `isIsolatingCurrentContext` had no answer, and the last resort is the executor's
// `checkIsolated()` — for the main executor `dispatch_assert_queue(main)`, for a default actor a
// fatal error ("Incorrect actor executor assumption"). The hook decides the two cases where that last
// resort would trap and hands every other one back unchanged (a custom executor keeps its own
// `checkIsolated()`): the main executor off the main thread and outside the main queue's work, and a
// default actor. Self-check, once, at install: a probe thread asks the runtime whether it runs on the
// main executor, with `Assert`; the hook must be reached and the answer must be "yes" (the hook
// returned), else the hook is taken out again and the runtime is left as it was. Found with `dlsym`,
// never linked: a runtime without the hook (Apple's before the Swift 6.0 runtime, macOS 15 / iOS 18)
// still loads the library, and the feature is off. Kill switch: SCHEDULABLE_DISABLE_ISOLATION_HOOK.
// arm64e: the hook variable is a plain C function pointer, with no `__ptrauth` qualifier, so the
// runtime authenticates it with the default function-pointer schema, which is how this file's
// compiler signs `csched_check_isolated_hook` when it stores it (not run on an arm64e process).

#include "csched_private.h"

#define CSCHED_SWIFTCC __attribute__((swiftcall))

// `SerialExecutorRef` passed as its two words: the Swift calling convention passes a two-word struct
// in the same two registers as two word arguments.
typedef CSCHED_SWIFTCC void (*csched_check_isolated_original)(const void *identity, uintptr_t implementation);
typedef CSCHED_SWIFTCC void (*csched_check_isolated_hook_t)(const void *identity, uintptr_t implementation,
                                                            csched_check_isolated_original original);
typedef struct { const void *identity; uintptr_t implementation; } csched_executor_ref;
typedef CSCHED_SWIFTCC bool (*csched_is_main_executor_fn)(const void *identity, uintptr_t implementation);
typedef CSCHED_SWIFTCC csched_executor_ref (*csched_get_main_executor_fn)(void);
typedef CSCHED_SWIFTCC bool (*csched_is_current_executor_with_flags_fn)(const void *identity, uintptr_t implementation,
                                                                        uint64_t flags);

// `swift_task_is_current_executor_flag::Assert` (Concurrency.h).
#define CSCHED_IS_CURRENT_EXECUTOR_ASSERT 0x8ull

static csched_check_isolated_hook_t *csched_hook_slot = NULL;
static csched_check_isolated_hook_t csched_previous_hook = NULL;
static csched_is_main_executor_fn csched_is_main_executor = NULL;
// The main executor's identity, read once at install: a custom executor is told from it by a pointer
// compare, without the runtime's `swift_task_isMainExecutor`, which in the Swift 6.3 runtime asks the
// executor in Swift, on the path every custom executor's `checkIsolated()` takes (its cost there:
// Benchmarks/scripts/isolation-hook-cost.sh). NULL when it could not be read: then the runtime is asked each time. A main executor set after
// install would be told as a custom executor: its failed checks would stay the runtime's traps, never
// a false report.
static const void *_Atomic csched_main_identity = NULL;
static csched_isolation_reporter csched_reporter = NULL;
static _Atomic int csched_isolation_mode = CSCHED_ISOLATION_OFF;
static _Atomic uint64_t csched_isolation_calls = 0;
static int csched_install_result = CSCHED_ISOLATION_NO_HOOK;
static pthread_once_t csched_install_once = PTHREAD_ONCE_INIT;
static int csched_requested_mode = CSCHED_ISOLATION_OFF;

// 1 while this thread runs the reporter (a check it makes is handed back, never reported again);
// 2 on the self-check's probe thread (the hook only notes that it was reached).
static _Thread_local int csched_isolation_thread_state = 0;
static _Atomic bool csched_probe_reached = false;

// A queue-specific key of the main queue: found from any code the main queue runs (after
// `dispatchMain()` on a worker thread, in `DispatchQueue.main.sync`, on a queue targeting main).
static char csched_main_queue_key;

#if !defined(__APPLE__)
extern void dispatch_queue_set_specific(dispatch_queue_t queue, const void *key, void *context, void (*destructor)(void *));
#define CSCHED_MAIN_QUEUE ((dispatch_queue_t)&_dispatch_main_q)
#else
#define CSCHED_MAIN_QUEUE dispatch_get_main_queue()
#endif

static CSCHED_SWIFTCC void csched_hand_back(const void *identity, uintptr_t implementation,
                                             csched_check_isolated_original original) {
    if (csched_previous_hook != NULL) {
        csched_previous_hook(identity, implementation, original);
    } else {
        original(identity, implementation);
    }
}

// Whether this thread runs work of the main queue: libdispatch's drain lock where the reader is
// confirmed (exact, `sync` nesting included), else the main queue's specific key.
static bool csched_in_main_queue_work(void) {
    if (csched_runs_main_queue_work()) return true;
    return dispatch_get_specific(&csched_main_queue_key) != NULL;
}

// Which executor the check expected, when the runtime's last resort would trap; 0 otherwise.
static int csched_trapping_expectation(const void *identity, uintptr_t implementation) {
    // The generic executor: nothing to prove, and not a check the runtime traps on.
    if (identity == NULL) return 0;
    const void *main_identity = atomic_load_explicit(&csched_main_identity, memory_order_relaxed);
    if (main_identity != NULL ? identity == main_identity : csched_is_main_executor(identity, implementation)) {
        // On the main thread, or in the main queue's work, `dispatch_assert_queue(main)` passes.
        if (csched_is_main_thread() || csched_in_main_queue_work()) return 0;
        return CSCHED_ISOLATION_EXPECTED_MAIN;
    }
    // A default actor has no witness table: its last resort is the runtime's fatal error.
    if (implementation == 0) return CSCHED_ISOLATION_EXPECTED_ACTOR;
    // A custom executor: its own `checkIsolated()` decides.
    return 0;
}

static CSCHED_SWIFTCC void csched_check_isolated_hook(const void *identity, uintptr_t implementation,
                                                      csched_check_isolated_original original) {
    atomic_fetch_add_explicit(&csched_isolation_calls, 1, memory_order_relaxed);
    if (csched_isolation_thread_state == 2) {
        atomic_store_explicit(&csched_probe_reached, true, memory_order_relaxed);
        return;
    }
    int mode = atomic_load_explicit(&csched_isolation_mode, memory_order_relaxed);
    if (mode == CSCHED_ISOLATION_OFF || csched_isolation_thread_state == 1) {
        csched_hand_back(identity, implementation, original);
        return;
    }
    int expected = csched_trapping_expectation(identity, implementation);
    if (expected == 0) {
        csched_hand_back(identity, implementation, original);
        return;
    }
    csched_isolation_thread_state = 1;
    csched_reporter(expected, identity);
    csched_isolation_thread_state = 0;
    if (mode == CSCHED_ISOLATION_TRAP) csched_hand_back(identity, implementation, original);
}

static void *csched_isolation_probe(void *unused) {
    (void)unused;
    csched_get_main_executor_fn get_main =
        (csched_get_main_executor_fn)dlsym(RTLD_DEFAULT, "swift_task_getMainExecutor");
    csched_is_current_executor_with_flags_fn is_current =
        (csched_is_current_executor_with_flags_fn)dlsym(RTLD_DEFAULT, "swift_task_isCurrentExecutorWithFlags");
    if (get_main == NULL || is_current == NULL) return NULL;
    csched_executor_ref main_executor = get_main();
    // Kept only if the runtime agrees that it is the main executor (the hook then compares pointers).
    if (main_executor.identity != NULL && csched_is_main_executor(main_executor.identity, main_executor.implementation)) {
        atomic_store_explicit(&csched_main_identity, main_executor.identity, memory_order_relaxed);
    }
    csched_isolation_thread_state = 2;
    bool answer = is_current(main_executor.identity, main_executor.implementation, CSCHED_IS_CURRENT_EXECUTOR_ASSERT);
    csched_isolation_thread_state = 0;
    return answer ? (void *)1 : NULL;
}

static void csched_install(void) {
    if (csched_switched_off("SCHEDULABLE_DISABLE_ISOLATION_HOOK")) {
        csched_install_result = CSCHED_ISOLATION_SWITCHED_OFF;
        return;
    }
    csched_hook_slot = (csched_check_isolated_hook_t *)dlsym(RTLD_DEFAULT, "swift_task_checkIsolated_hook");
    csched_is_main_executor = (csched_is_main_executor_fn)dlsym(RTLD_DEFAULT, "swift_task_isMainExecutor");
    if (csched_hook_slot == NULL || csched_is_main_executor == NULL) {
        csched_install_result = CSCHED_ISOLATION_NO_HOOK;
        return;
    }
    dispatch_queue_set_specific(CSCHED_MAIN_QUEUE, &csched_main_queue_key, &csched_main_queue_key, NULL);
    csched_previous_hook = *csched_hook_slot;
    *csched_hook_slot = csched_check_isolated_hook;
    pthread_t probe;
    void *answer = NULL;
    bool ran = pthread_create(&probe, NULL, csched_isolation_probe, NULL) == 0 && pthread_join(probe, &answer) == 0;
    if (!ran || answer == NULL || !atomic_load_explicit(&csched_probe_reached, memory_order_relaxed)) {
        *csched_hook_slot = csched_previous_hook;
        csched_install_result = CSCHED_ISOLATION_SELF_CHECK_FAILED;
        return;
    }
    atomic_store_explicit(&csched_isolation_mode, csched_requested_mode, memory_order_relaxed);
    csched_install_result = CSCHED_ISOLATION_INSTALLED;
}

int csched_isolation_hooks_install(csched_isolation_reporter reporter, int mode) {
    csched_reporter = reporter;
    csched_requested_mode = mode;
    pthread_once(&csched_install_once, csched_install);
    return csched_install_result;
}

void csched_isolation_hooks_set_mode(int mode) {
    atomic_store_explicit(&csched_isolation_mode, mode, memory_order_relaxed);
}

int csched_isolation_hooks_mode(void) { return atomic_load_explicit(&csched_isolation_mode, memory_order_relaxed); }

uint64_t csched_isolation_hooks_calls(void) { return atomic_load_explicit(&csched_isolation_calls, memory_order_relaxed); }

bool csched_isolation_runtime_has_isolating_hook(void) {
    return dlsym(RTLD_DEFAULT, "swift_task_isIsolatingCurrentContext_hook") != NULL;
}

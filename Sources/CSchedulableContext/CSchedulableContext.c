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
// What `DISPATCH_QUEUE_CONCURRENT` names: the self-check makes one concurrent queue with it.
extern struct csched_dispatch_queue_attr_s _dispatch_queue_attr_concurrent;
#endif

_Thread_local uintptr_t csched_tls_current_id = 0;
_Thread_local const csched_frame *csched_tls_top = NULL;
_Thread_local int csched_tls_reporting = 0;
_Thread_local void *csched_tls_probe_slot = NULL;
_Thread_local uintptr_t csched_tls_construction_epoch = 0;

static _Thread_local int csched_tls_main_state = 0;   // 0 unknown, 1 main, 2 not main
static _Thread_local uintptr_t csched_tls_unique_id = 0;
// Starts above the reserved ids (0 = none, 1 = main) so no real context or thread ever collides.
static _Atomic uintptr_t csched_id_counter = 16;

// Declared by the Swift runtime (HeapObject.h); exported on every platform Swift supports.
extern bool swift_isDeallocating(void *object);

bool csched_is_main_thread(void) {
    int state = csched_tls_main_state;
    if (state == 0) {
#if defined(__APPLE__)
        state = pthread_main_np() ? 1 : 2;
#elif defined(__linux__)
        state = ((pid_t)syscall(SYS_gettid) == getpid()) ? 1 : 2;
#else
        state = 2;  // Unknown platform: never a false "yes".
#endif
        csched_tls_main_state = state;
    }
    return state == 1;
}

void csched_adopt_main_context(void) {
    if (csched_tls_top == NULL && csched_tls_current_id == 0) {
        csched_tls_current_id = CSCHED_MAIN_CONTEXT_ID;
    }
}

// Runs when the image loads: for a program linked with the library that is the main thread, so
// main-owned checks in top-level code are fast from the first access. A library loaded later from
// another thread simply takes the (still exact) slow path once on the main thread.
__attribute__((constructor)) static void csched_initialize(void) {
    if (csched_is_main_thread()) {
        csched_adopt_main_context();
    }
}

uintptr_t csched_next_id(void) {
    return atomic_fetch_add_explicit(&csched_id_counter, 1, memory_order_relaxed);
}

// Construction epochs have a counter of their own: they are drawn on object creation after a
// hand-off, far more often than context ids, and 2^62 of them never run out.
static _Atomic uintptr_t csched_epoch_counter = 1;
// The dispatch queue whose work the thread ran when it opened its epoch (its label's address, unique
// per queue), so that a worker that moved on to another queue's work is in a new epoch.
static _Thread_local const char *csched_tls_epoch_queue = NULL;

// What the current dispatch queue's label says about the calling thread.
typedef enum {
    csched_thread_plain,   // no dispatch work: libdispatch names its default root queue's overcommit
                           // variant there (or nothing at all)
    csched_thread_pool,    // a global queue's or Swift's global concurrent executor's work
    csched_thread_queue,   // another queue's work
} csched_thread_kind;

static csched_thread_kind csched_label_kind(const char *label) {
    if (label == NULL) return csched_thread_plain;
    if (strcmp(label, "Swift global concurrent queue") == 0) return csched_thread_pool;
    static const char root[] = "com.apple.root.";
    static const char overcommit[] = ".overcommit";
    if (strncmp(label, root, sizeof root - 1) != 0) return csched_thread_queue;
    size_t length = strlen(label);
    bool is_overcommit = length >= sizeof overcommit - 1
        && strcmp(label + length - (sizeof overcommit - 1), overcommit) == 0;
    return is_overcommit ? csched_thread_plain : csched_thread_pool;
}

bool csched_running_on_pool(void) {
    return csched_label_kind(dispatch_queue_get_label(NULL)) == csched_thread_pool;
}

#define CSCHED_FRAME_EPOCH ((uintptr_t)1 << 60)

uintptr_t csched_open_construction_epoch(void) {
    uintptr_t epoch = csched_tls_construction_epoch;
    csched_frame *top = (csched_frame *)csched_tls_top;   // the innermost frame is this very work's
    if (top != NULL) {
        if (epoch != 0 && top->construction_epoch == epoch) return epoch;
        epoch = atomic_fetch_add_explicit(&csched_epoch_counter, 1, memory_order_relaxed) | CSCHED_FRAME_EPOCH;
        top->construction_epoch = epoch;
        csched_tls_construction_epoch = epoch;
        return epoch;
    }
    const char *queue = dispatch_queue_get_label(NULL);
    if (epoch != 0 && (epoch & CSCHED_FRAME_EPOCH) == 0 && queue == csched_tls_epoch_queue) return epoch;
    // Raw dispatch work: no window (see the header).
    if (!csched_is_main_thread() && csched_label_kind(queue) != csched_thread_plain) return 0;
    epoch = atomic_fetch_add_explicit(&csched_epoch_counter, 1, memory_order_relaxed);
    csched_tls_construction_epoch = epoch;
    csched_tls_epoch_queue = queue;
    return epoch;
}

uintptr_t csched_draw_construction_epoch(void) {
    return atomic_fetch_add_explicit(&csched_epoch_counter, 1, memory_order_relaxed);
}

// MARK: - Tasks

// Swift's concurrency runtime (libswift_Concurrency). Both functions use the Swift calling convention.
#if defined(__APPLE__)
// Looked up at run time: the library's floor (macOS 10.15 / iOS 13) predates some of the OS runtimes
// that export them, and a missing symbol must mean "no task windows", not a launch failure.
typedef __attribute__((swiftcall)) void *(*csched_get_current_task_fn)(void);
typedef __attribute__((swiftcall)) uint64_t (*csched_get_task_id_fn)(void *);
static csched_get_current_task_fn csched_get_current_task = NULL;
static csched_get_task_id_fn csched_get_task_id = NULL;
static pthread_once_t csched_task_functions_once = PTHREAD_ONCE_INIT;

static void csched_find_task_functions(void) {
    csched_get_current_task = (csched_get_current_task_fn)dlsym(RTLD_DEFAULT, "swift_task_getCurrent");
    csched_get_task_id = (csched_get_task_id_fn)dlsym(RTLD_DEFAULT, "swift_task_getJobTaskId");
}

uint64_t csched_current_task_id(void) {
    pthread_once(&csched_task_functions_once, csched_find_task_functions);
    if (csched_get_current_task == NULL || csched_get_task_id == NULL) return 0;
    void *task = csched_get_current_task();
    return task == NULL ? 0 : csched_get_task_id(task);
}
#else
// Linked directly: on Linux the runtime ships with the toolchain that built the program.
extern __attribute__((swiftcall)) void *swift_task_getCurrent(void);
extern __attribute__((swiftcall)) uint64_t swift_task_getJobTaskId(void *job);

uint64_t csched_current_task_id(void) {
    void *task = swift_task_getCurrent();
    return task == NULL ? 0 : swift_task_getJobTaskId(task);
}
#endif

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

uintptr_t csched_thread_unique_id(void) {
    uintptr_t id = csched_tls_unique_id;
    if (id == 0) {
        id = csched_next_id();
        csched_tls_unique_id = id;
    }
    return id;
}

uint64_t csched_os_thread_id(void) {
#if defined(__linux__)
    return (uint64_t)syscall(SYS_gettid);
#elif defined(__APPLE__)
    uint64_t tid = 0;
    pthread_threadid_np(NULL, &tid);
    return tid;
#else
    return (uint64_t)(uintptr_t)pthread_self();
#endif
}

// The full name the library gave the calling thread (the kernel keeps 15 bytes of it on Linux);
// freed by the key's destructor when the thread ends.
static pthread_key_t csched_full_name_key;
static pthread_once_t csched_full_name_once = PTHREAD_ONCE_INIT;

static void csched_make_full_name_key(void) {
    pthread_key_create(&csched_full_name_key, free);
}

bool csched_thread_has_library_name(void) {
    pthread_once(&csched_full_name_once, csched_make_full_name_key);
    return pthread_getspecific(csched_full_name_key) != NULL;
}

bool csched_thread_name(char *buffer, unsigned long size) {
    if (size == 0) return false;
    buffer[0] = 0;
    pthread_once(&csched_full_name_once, csched_make_full_name_key);
    const char *full = pthread_getspecific(csched_full_name_key);
    if (full != NULL) {
        strncpy(buffer, full, size - 1);
        buffer[size - 1] = 0;
        return buffer[0] != 0;
    }
#if defined(__linux__) || defined(__APPLE__)
    if (pthread_getname_np(pthread_self(), buffer, size) != 0) return false;
#endif
    return buffer[0] != 0;
}

void csched_set_thread_name(const char *name) {
    pthread_once(&csched_full_name_once, csched_make_full_name_key);
    free(pthread_getspecific(csched_full_name_key));
    pthread_setspecific(csched_full_name_key, strdup(name));
#if defined(__linux__)
    char truncated[16];  // the kernel's limit, terminator included; longer names are refused
    strncpy(truncated, name, sizeof truncated - 1);
    truncated[sizeof truncated - 1] = 0;
    pthread_setname_np(pthread_self(), truncated);
#elif defined(__APPLE__)
    char truncated[64];  // MAXTHREADNAMESIZE
    strncpy(truncated, name, sizeof truncated - 1);
    truncated[sizeof truncated - 1] = 0;
    pthread_setname_np(truncated);
#endif
}

#if defined(__APPLE__)
static Class csched_swift_root_class = Nil;
static pthread_once_t csched_swift_root_once = PTHREAD_ONCE_INIT;

static void csched_find_swift_root_class(void) {
    // The Objective-C name of Swift's root class, Swift._SwiftObject.
    csched_swift_root_class = objc_getClass("_TtCs12_SwiftObject");
}
#endif

bool csched_object_is_swift_native(const void *object) {
#if defined(__APPLE__)
    // Swift-native classes are rooted in Swift's own root class; NSObject subclasses are not, and
    // their second word is an ivar, not the Swift reference count swift_isDeallocating reads.
    pthread_once(&csched_swift_root_once, csched_find_swift_root_class);
    Class root = Nil;
    for (Class cls = object_getClass((id)(void *)object); cls != Nil; cls = class_getSuperclass(cls)) root = cls;
    return root != Nil && root == csched_swift_root_class;
#else
    (void)object;
    return true;  // Outside Darwin there is no Objective-C runtime: every class is Swift-native.
#endif
}

bool csched_object_is_deallocating(const void *object) {
    if (!csched_object_is_swift_native(object)) return false;
    return swift_isDeallocating((void *)object);
}

// MARK: - Threads

int csched_thread_start(uintptr_t *handle, void *(*entry)(void *), void *argument, size_t stack_size,
                        unsigned int qos_class) {
    pthread_attr_t attributes;
    int result = pthread_attr_init(&attributes);
    if (result != 0) return result;
    // Darwin refuses a size that is not a multiple of the page size (16 KiB on arm64).
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t size = stack_size < (size_t)PTHREAD_STACK_MIN ? (size_t)PTHREAD_STACK_MIN : stack_size;
    size = (size + page - 1) / page * page;
    result = pthread_attr_setstacksize(&attributes, size);
#if defined(__APPLE__)
    // Born with its QoS, so not even its first instructions run at the creator's.
    if (result == 0 && qos_class != 0) result = pthread_attr_set_qos_class_np(&attributes, (qos_class_t)qos_class, 0);
#else
    (void)qos_class;  // Linux: the thread sets its nice value itself when it starts.
#endif
    pthread_t thread;
    if (result == 0) result = pthread_create(&thread, &attributes, entry, argument);
    pthread_attr_destroy(&attributes);
    if (result == 0) *handle = (uintptr_t)thread;
    return result;
}

int csched_thread_join(uintptr_t handle) {
    return pthread_join((pthread_t)handle, NULL);
}

int csched_thread_detach(uintptr_t handle) {
    return pthread_detach((pthread_t)handle);
}

size_t csched_current_thread_stack_size(void) {
#if defined(__APPLE__)
    return pthread_get_stacksize_np(pthread_self());
#elif defined(__linux__)
    pthread_attr_t attributes;
    if (pthread_getattr_np(pthread_self(), &attributes) != 0) return 0;
    size_t size = 0;
    pthread_attr_getstacksize(&attributes, &size);
    pthread_attr_destroy(&attributes);
    return size;
#else
    return 0;
#endif
}

void *csched_qos_override_start(uintptr_t handle) {
#if defined(__APPLE__)
    // Only raises: an override below the thread's own QoS changes nothing.
    qos_class_t mine = qos_class_self();
    if (mine == QOS_CLASS_UNSPECIFIED) return NULL;
    return pthread_override_qos_class_start_np((pthread_t)handle, mine, 0);
#else
    (void)handle;
    return NULL;
#endif
}

void csched_qos_override_end(void *token) {
#if defined(__APPLE__)
    if (token != NULL) pthread_override_qos_class_end_np((pthread_override_t)token);
#else
    (void)token;
#endif
}

// MARK: - Xcode runtime issues

#if defined(__APPLE__)
typedef os_log_t (*csched_os_log_create_fn)(const char *, const char *);
typedef void (*csched_os_log_impl_fn)(void *, os_log_t, os_log_type_t, const char *, uint8_t *, uint32_t);

static csched_os_log_create_fn csched_os_log_create;
static csched_os_log_impl_fn csched_os_log_impl;
static os_log_t csched_runtime_issues_log;
static void *csched_runtime_issues_dso;
static pthread_once_t csched_runtime_issues_once = PTHREAD_ONCE_INIT;

static void csched_find_runtime_issues(void) {
    csched_os_log_create = (csched_os_log_create_fn)dlsym(RTLD_DEFAULT, "os_log_create");
    csched_os_log_impl = (csched_os_log_impl_fn)dlsym(RTLD_DEFAULT, "_os_log_impl");
    if (csched_os_log_create == NULL || csched_os_log_impl == NULL) return;
    csched_runtime_issues_log = csched_os_log_create("com.apple.runtime-issues", "Schedulable");
    // Xcode shows a fault from this subsystem as a runtime issue only when a system framework logs
    // it: log on behalf of SwiftUI's image when it is loaded, else (a plain fault log) our own.
    Dl_info info;
    void *swiftui = dlsym(RTLD_DEFAULT, "$s7SwiftUI4ViewMp");
    if (swiftui != NULL && dladdr(swiftui, &info) != 0 && info.dli_fbase != NULL) {
        csched_runtime_issues_dso = info.dli_fbase;
    } else if (dladdr((const void *)&csched_raise_runtime_issue, &info) != 0) {
        csched_runtime_issues_dso = info.dli_fbase;
    }
}
#endif

void csched_raise_runtime_issue(const char *message) {
#if defined(__APPLE__)
    pthread_once(&csched_runtime_issues_once, csched_find_runtime_issues);
    if (csched_runtime_issues_log == NULL || csched_runtime_issues_dso == NULL) return;
    // What the os_log macros expand to, with our own dso: the arguments encoded by the compiler.
    __attribute__((section("__TEXT,__oslogstring,cstring_literals"))) static const char format[] = "%{public}s";
    uint8_t buffer[__builtin_os_log_format_buffer_size("%{public}s", message)];
    __builtin_os_log_format(buffer, "%{public}s", message);
    csched_os_log_impl(csched_runtime_issues_dso, csched_runtime_issues_log, OS_LOG_TYPE_FAULT, format, buffer,
                       (uint32_t)sizeof buffer);
#else
    (void)message;
#endif
}

// Passing NULL (DISPATCH_CURRENT_QUEUE_LABEL) asks for the current queue's label.
const char *csched_current_queue_label(void) {
    const char *label = dispatch_queue_get_label(NULL);
    return label ? label : "";
}

// MARK: - Report on trap

static _Thread_local const char *csched_tls_pending_report = NULL;
static struct sigaction csched_previous_ill;
static struct sigaction csched_previous_trap;
static pthread_once_t csched_trap_handler_once = PTHREAD_ONCE_INIT;

// Async-signal-safe: one write(2) of a buffer prepared before the trap, and sigaction.
static void csched_on_trap(int signal_number, siginfo_t *info, void *context) {
    (void)info;
    (void)context;
    const char *report = csched_tls_pending_report;
    if (report != NULL) {
        csched_tls_pending_report = NULL;
        size_t length = strlen(report);
        while (length > 0) {
            ssize_t written = write(2, report, length);
            if (written <= 0) break;
            report += written;
            length -= (size_t)written;
        }
    }
    // Give the signal back to whoever had it; returning re-executes the trapping instruction, which
    // then reaches that action (the Swift backtracer, a crash reporter, or the default: terminate).
    sigaction(signal_number, signal_number == SIGILL ? &csched_previous_ill : &csched_previous_trap, NULL);
}

static void csched_install_trap_handler(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = csched_on_trap;
    action.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    sigaction(SIGILL, &action, &csched_previous_ill);
    sigaction(SIGTRAP, &action, &csched_previous_trap);
}

void csched_arm_trap_report(const char *report) {
    pthread_once(&csched_trap_handler_once, csched_install_trap_handler);
    csched_tls_pending_report = report;
}

void csched_disarm_trap_report(void) {
    csched_tls_pending_report = NULL;
}

// Relaxed is enough: a scope is installed before the code it wraps runs (same thread, or a task
// created after it), and that code is what creates the records that look.
static _Atomic bool csched_scoped_handler_flag = false;

bool csched_scoped_handler_ever_installed(void) {
    return atomic_load_explicit(&csched_scoped_handler_flag, memory_order_relaxed);
}

void csched_note_scoped_handler_installed(void) {
    atomic_store_explicit(&csched_scoped_handler_flag, true, memory_order_relaxed);
}


void csched_dispatch_async_f(const void *queue, void *context, void (*work)(void *)) {
    dispatch_async_f((dispatch_queue_t)queue, context, work);
}

const char *csched_dispatch_queue_label(const void *queue) {
    return dispatch_queue_get_label((dispatch_queue_t)queue);
}

const void *csched_queue_specific_value(const void *key) {
    void *box = dispatch_get_specific(key);
    if (box == NULL) return NULL;
    // The box is a Swift class instance: a two-word header (metadata, reference counts), then `value`.
    return *(const void *const *)((const char *)box + 2 * sizeof(void *));
}

// MARK: - Which queues the calling thread holds (libdispatch's drain lock)
//
// `dispatchPrecondition(.onQueue(q))` knows whether the calling thread holds `q`, but answers "no" by
// trapping. Its first test is public in spirit and simple in fact: a serial queue's 64-bit state word
// carries, in its low 32 bits, the drain lock, whose owner field is the OS thread id of the thread
// running the queue's work (or blocked in `sync` on it, which takes the lock for the whole target
// chain). Reading that word answers the same question without trapping — including for a raw
// `someQueue.sync {}` nested in raw work on the queue, which leaves no other trace.
//
// The layout is swift-corelibs-libdispatch's (`struct dispatch_queue_s`: `do_targetq` at 0x18,
// `dq_state` at 0x38, `dq_label` at 0x48 and `dq_width` at 0x50 — the low half of `dq_atomic_flags`
// on little-endian LP64; `DLOCK_OWNER_MASK` 0x3fffffff; the owner is `gettid()`). It is not a public
// contract, so it is used only after a self-check in this process confirms it against libdispatch's
// own behaviour; otherwise every answer is "unknown" and callers keep their fallback. On Darwin the
// owner is the thread's mach port and the layout differs: the reader says "unknown".
//
// The width is how many blocks of the queue may run at once: 1 for a serial queue (also one that
// targets a concurrent queue: it still runs one block at a time), `DISPATCH_QUEUE_WIDTH_MAX` (0xffe)
// for `attributes: .concurrent`, 0xfff for the global queues. `SerialQueueScheduler(wrapping:)` refuses
// a queue wider than 1, which nothing else can tell apart from a serial one before it misbehaves.

#if defined(__linux__) && defined(__LP64__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
enum {
    csched_dq_targetq_offset = 0x18,
    csched_dq_state_offset = 0x38,
    csched_dq_label_offset = 0x48,
    csched_dq_width_offset = 0x50,
};
static const uint32_t csched_dlock_owner_mask = 0x3fffffff;

static _Thread_local uint32_t csched_tls_dispatch_tid = 0;

static uint32_t csched_dispatch_tid(void) {
    uint32_t tid = csched_tls_dispatch_tid;
    if (tid == 0) {
        tid = (uint32_t)syscall(SYS_gettid);
        csched_tls_dispatch_tid = tid;
    }
    return tid;
}

static bool csched_drain_locked_by_self(const void *queue) {
    uint64_t state = __atomic_load_n((const uint64_t *)((const char *)queue + csched_dq_state_offset), __ATOMIC_RELAXED);
    return ((uint32_t)state & csched_dlock_owner_mask) == (csched_dispatch_tid() & csched_dlock_owner_mask);
}

static const void *csched_raw_target(const void *queue) {
    return __atomic_load_n((const void *const *)((const char *)queue + csched_dq_targetq_offset), __ATOMIC_RELAXED);
}

// `dq_width` is set when the queue is created and never changes for the queues the library sees
// (`dispatch_queue_set_width` is not exported by swift-corelibs-libdispatch).
static uint16_t csched_width_at(const void *queue, size_t offset) {
    return __atomic_load_n((const uint16_t *)((const char *)queue + offset), __ATOMIC_RELAXED);
}

static uint16_t csched_raw_width(const void *queue) {
    return csched_width_at(queue, csched_dq_width_offset);
}

// Whether `queue`'s fields read as a queue of its label and of width 1 (`serial`) or more.
static bool csched_layout_reads(dispatch_queue_t queue, bool serial, size_t width_offset) {
    const char *label = *(const char *const *)((const char *)queue + csched_dq_label_offset);
    uint16_t width = csched_width_at(queue, width_offset);
    return label != NULL && label == dispatch_queue_get_label(queue) && (serial ? width == 1 : width > 1);
}

// The self-check's width observations, with `dq_width` read at `width_offset`: three serial queues (a
// tree, a branch of it, another) read 1 and a concurrent queue (targeted by none) reads more, each
// with its own label in `dq_label`. Of the 2-byte offsets in the first 0x60 bytes, only 0x50 passes on
// this libdispatch (`DispatchReaderTests` checks it), so a moved field turns the reader off.
bool csched_dispatch_width_layout_holds_at(size_t width_offset) {
    if (width_offset > 0x5e || width_offset % 2 != 0) return false;
    dispatch_queue_t tree = dispatch_queue_create("schedulable.width-check.tree", NULL);
    dispatch_queue_t branch = dispatch_queue_create_with_target("schedulable.width-check.branch", NULL, tree);
    dispatch_queue_t other = dispatch_queue_create("schedulable.width-check.other", NULL);
    dispatch_queue_t concurrent = dispatch_queue_create("schedulable.width-check.concurrent", &_dispatch_queue_attr_concurrent);
    bool holds = csched_layout_reads(tree, true, width_offset) && csched_layout_reads(branch, true, width_offset)
        && csched_layout_reads(other, true, width_offset) && csched_layout_reads(concurrent, false, width_offset);
    dispatch_release(concurrent);
    dispatch_release(other);
    dispatch_release(branch);
    dispatch_release(tree);
    return holds;
}

// The self-check's evidence, one bit per observation that must hold.
static _Atomic unsigned csched_layout_evidence = 0;
enum {
    csched_evidence_sync_holds_queue = 1u << 0,
    csched_evidence_sync_holds_target = 1u << 1,
    csched_evidence_nested_sync_keeps_outer = 1u << 2,
    csched_evidence_nested_queue_held = 1u << 3,
    csched_evidence_all = (1u << 4) - 1,
};

struct csched_layout_probe {
    dispatch_queue_t tree;
    dispatch_queue_t branch;
    dispatch_queue_t other;
};

static void csched_layout_probe_nested(void *context) {
    const struct csched_layout_probe *probe = context;
    unsigned evidence = 0;
    if (csched_drain_locked_by_self(probe->branch)) evidence |= csched_evidence_nested_sync_keeps_outer;
    if (csched_drain_locked_by_self(probe->other)) evidence |= csched_evidence_nested_queue_held;
    atomic_fetch_or_explicit(&csched_layout_evidence, evidence, memory_order_relaxed);
}

static void csched_layout_probe_outer(void *context) {
    const struct csched_layout_probe *probe = context;
    unsigned evidence = 0;
    if (csched_drain_locked_by_self(probe->branch)) evidence |= csched_evidence_sync_holds_queue;
    if (csched_drain_locked_by_self(probe->tree)) evidence |= csched_evidence_sync_holds_target;
    atomic_fetch_or_explicit(&csched_layout_evidence, evidence, memory_order_relaxed);
    dispatch_sync_f(probe->other, context, csched_layout_probe_nested);
}

static bool csched_drain_reader_confirmed = false;
static pthread_once_t csched_drain_reader_once = PTHREAD_ONCE_INIT;

// Runs once, on the first question: `sync` work on a branch of a tree must show both queues held by
// this thread, a raw `sync` nested in it must leave them held and hold its own queue; outside, none is
// held; the branch's target must read as the tree; serial queues must read width 1 and a concurrent
// one more (`csched_dispatch_width_layout_holds_at`). Any miss disables the reader for good.
static void csched_confirm_drain_reader(void) {
    if (getenv("SCHEDULABLE_DISABLE_DISPATCH_READER") != NULL) return;
    struct csched_layout_probe probe;
    probe.tree = dispatch_queue_create("schedulable.layout-check.tree", NULL);
    probe.branch = dispatch_queue_create_with_target("schedulable.layout-check.branch", NULL, probe.tree);
    probe.other = dispatch_queue_create("schedulable.layout-check.other", NULL);
    bool confirmed = csched_raw_target(probe.branch) == (const void *)probe.tree
        && dispatch_queue_get_label(probe.branch) != NULL
        && strcmp(dispatch_queue_get_label(probe.branch), "schedulable.layout-check.branch") == 0
        && csched_dispatch_width_layout_holds_at(csched_dq_width_offset)
        && !csched_drain_locked_by_self(probe.tree) && !csched_drain_locked_by_self(probe.branch);
    if (confirmed) {
        dispatch_sync_f(probe.branch, &probe, csched_layout_probe_outer);
        confirmed = atomic_load_explicit(&csched_layout_evidence, memory_order_relaxed) == csched_evidence_all
            && !csched_drain_locked_by_self(probe.tree) && !csched_drain_locked_by_self(probe.branch)
            && !csched_drain_locked_by_self(probe.other);
    }
    dispatch_release(probe.other);
    dispatch_release(probe.branch);
    dispatch_release(probe.tree);
    csched_drain_reader_confirmed = confirmed;
}

bool csched_dispatch_reader_confirmed(void) {
    pthread_once(&csched_drain_reader_once, csched_confirm_drain_reader);
    return csched_drain_reader_confirmed;
}

int csched_thread_holds_queue(const void *queue) {
    if (queue == NULL || !csched_dispatch_reader_confirmed()) return -1;
    return csched_drain_locked_by_self(queue) ? 1 : 0;
}

const void *csched_queue_target(const void *queue) {
    if (queue == NULL || !csched_dispatch_reader_confirmed()) return NULL;
    return csched_raw_target(queue);
}

int csched_queue_width(const void *queue) {
    if (queue == NULL || !csched_dispatch_reader_confirmed()) return -1;
    return csched_raw_width(queue);
}

#else
bool csched_dispatch_reader_confirmed(void) { return false; }
int csched_thread_holds_queue(const void *queue) { (void)queue; return -1; }
const void *csched_queue_target(const void *queue) { (void)queue; return NULL; }
int csched_queue_width(const void *queue) { (void)queue; return -1; }
bool csched_dispatch_width_layout_holds_at(size_t width_offset) { (void)width_offset; return false; }
#endif

const void *csched_queue_own_specific_value(const void *queue, const void *key) {
    void *box = dispatch_queue_get_specific((dispatch_queue_t)queue, key);
    if (box == NULL) return NULL;
    // The same box layout as in `csched_queue_specific_value`.
    return *(const void *const *)((const char *)box + 2 * sizeof(void *));
}

// ---- Ownership history (debug tier): the creating thread in one word ----------------------------
// Kept apart so that it merges cleanly: only `Protection/` (Swift) calls it.

// The calling thread's stamp, computed once per thread: its unique id, with the top bit set on the
// main thread (0 until computed; a stamp is never 0, unique ids start at 1).
static _Thread_local uintptr_t csched_tls_history_stamp = 0;

// Out of line, so the common case saves no registers (it runs once per protected object).
__attribute__((noinline)) static uintptr_t csched_history_first_thread_stamp(void) {
    uintptr_t stamp = csched_thread_unique_id() | (csched_is_main_thread() ? CSCHED_HISTORY_MAIN_THREAD_FLAG : 0);
    csched_tls_history_stamp = stamp;
    return stamp;
}

uintptr_t csched_history_thread_stamp(void) {
    uintptr_t stamp = csched_tls_history_stamp;
    if (__builtin_expect(stamp != 0, 1)) return stamp;
    return csched_history_first_thread_stamp();
}

// ---- Test frameworks in the process ------------------------------------------------------------

unsigned csched_test_frameworks_loaded(void) {
    unsigned found = 0;
    // Swift Testing's `Test` metadata accessor, exported by the Testing library on every platform.
    if (dlsym(RTLD_DEFAULT, "$s7Testing4TestVMa") != NULL) found |= CSCHED_TEST_FRAMEWORK_SWIFT_TESTING;
#if defined(__APPLE__)
    if (objc_getClass("XCTestCase") != NULL) found |= CSCHED_TEST_FRAMEWORK_XCTEST;
#else
    // swift-corelibs-xctest's `XCTestCase` metadata accessor.
    if (dlsym(RTLD_DEFAULT, "$s6XCTest0A4CaseCMa") != NULL) found |= CSCHED_TEST_FRAMEWORK_XCTEST;
#endif
    return found;
}

// MARK: - Call stacks

// The fallback capture and lookup of reports' access sites where the toolchain's `Runtime` module is not
// available (Apple OS versions before the 26 releases). The same calls on Linux and Darwin, so the Linux
// tests run this code; only what `dladdr` can see differs (see the header).

int csched_backtrace(void **addresses, int capacity) {
#if defined(__APPLE__) || defined(__GLIBC__)
    return backtrace(addresses, capacity);
#else
    (void)addresses;
    (void)capacity;
    return 0;
#endif
}

bool csched_address_info(const void *address, const char **image, const char **symbol, uintptr_t *symbol_start) {
    Dl_info info;
    if (dladdr(address, &info) == 0) return false;
    *image = info.dli_fname;
    *symbol = info.dli_sname;
    *symbol_start = (uintptr_t)info.dli_saddr;
    return true;
}

// The Swift runtime's public demangling entry point (exported by libswiftCore on every platform).
extern char *swift_demangle(const char *mangled_name, size_t mangled_name_length, char *output_buffer,
                            size_t *output_buffer_size, uint32_t flags);

char *csched_demangle(const char *name) {
    return swift_demangle(name, strlen(name), NULL, NULL, 0);
}

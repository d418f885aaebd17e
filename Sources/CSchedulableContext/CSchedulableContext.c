#define _GNU_SOURCE
#include "CSchedulableContext.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif

_Thread_local uintptr_t csched_tls_current_id = 0;
_Thread_local const csched_frame *csched_tls_top = NULL;
_Thread_local int csched_tls_reporting = 0;
_Thread_local void *csched_tls_probe_slot = NULL;

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

bool csched_thread_name(char *buffer, unsigned long size) {
    if (size == 0) return false;
    buffer[0] = 0;
#if defined(__linux__) || defined(__APPLE__)
    if (pthread_getname_np(pthread_self(), buffer, size) != 0) return false;
#endif
    return buffer[0] != 0;
}

void csched_set_thread_name(const char *name) {
    char truncated[16];
    strncpy(truncated, name, sizeof truncated - 1);
    truncated[sizeof truncated - 1] = 0;
#if defined(__linux__)
    pthread_setname_np(pthread_self(), truncated);
#elif defined(__APPLE__)
    pthread_setname_np(name);
#endif
}

bool csched_object_is_deallocating(const void *object) {
    return swift_isDeallocating((void *)object);
}

// Declared by libdispatch (<dispatch/queue.h>); declared here so the C target needs no header path.
// Passing NULL (DISPATCH_CURRENT_QUEUE_LABEL) asks for the current queue's label.
extern const char *dispatch_queue_get_label(void *queue);

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

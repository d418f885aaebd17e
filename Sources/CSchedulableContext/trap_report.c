// The crash handler (csched_trap_report.h).
//
// Reports are written by the library's reporting thread, so a report made just before the program
// crashes may still be waiting when a crash signal arrives. The handler, installed when the reporting
// thread starts (and when a trap report is first armed), waits a bounded time for that thread to write
// what was handed over, writes the crashing thread's armed report, then gives the signal back to the
// action installed before it. Everything it calls is async-signal-safe: atomic loads, nanosleep, write
// and sigaction. The reporting thread itself runs on: it is another thread, which the crash does not
// stop until the process ends. A crash on the reporting thread waits for nothing.

#include "csched_private.h"

#include <errno.h>
#include <time.h>

static const int csched_crash_signals[] = { SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE };
#define CSCHED_CRASH_SIGNAL_COUNT (sizeof csched_crash_signals / sizeof csched_crash_signals[0])

static struct sigaction csched_previous_actions[CSCHED_CRASH_SIGNAL_COUNT];
static pthread_once_t csched_trap_handler_once = PTHREAD_ONCE_INIT;
static bool csched_trap_handler_ok = false;

static _Thread_local const char *csched_tls_pending_report = NULL;
static _Thread_local int csched_tls_is_reporting_thread = 0;
static _Atomic uint64_t csched_reports_handed_over = 0;
static _Atomic uint64_t csched_reports_written = 0;

// The reporting thread's CPU clock (Linux): a writer that is symbolicating a first report in a large
// binary writes nothing for a while but runs; one blocked in an output that never returns does not.
// So a wait counts as progress either an entry written or CPU time the writer used. Elsewhere (no
// per-thread CPU clock for another thread) only entries written count.
static _Atomic int csched_writer_clock_known = 0;
static clockid_t csched_writer_clock;

static uint64_t csched_writer_cpu_ns(void) {
#if defined(__linux__)
    if (!atomic_load_explicit(&csched_writer_clock_known, memory_order_acquire)) return 0;
    struct timespec used;
    if (clock_gettime(csched_writer_clock, &used) != 0) return 0;
    return (uint64_t)used.tv_sec * 1000000000u + (uint64_t)used.tv_nsec;
#else
    return 0;
#endif
}

static void csched_write_all(const char *text, size_t length) {
    while (length > 0) {
        ssize_t written = write(2, text, length);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return;
        text += written;
        length -= (size_t)written;
    }
}

// Decimal digits of `value` into `buffer` (at least 21 bytes), returning the digits' start.
static char *csched_format_decimal(uint64_t value, char *buffer, size_t size) {
    char *cursor = buffer + size;
    do {
        *--cursor = (char)('0' + value % 10);
        value /= 10;
    } while (value > 0 && cursor > buffer);
    return cursor;
}

uint64_t csched_crash_wait_for_reports(uint32_t idle_milliseconds, uint32_t total_milliseconds) {
    if (csched_tls_is_reporting_thread) return 0;
    uint64_t target = atomic_load_explicit(&csched_reports_handed_over, memory_order_acquire);
    uint64_t written = atomic_load_explicit(&csched_reports_written, memory_order_acquire);
    uint64_t used = csched_writer_cpu_ns();
    uint32_t idle = 0;
    uint32_t total = 0;
    while (written < target && idle < idle_milliseconds && total < total_milliseconds) {
        struct timespec millisecond = { 0, 1000000 };
        nanosleep(&millisecond, NULL);
        idle += 1;
        total += 1;
        uint64_t now = atomic_load_explicit(&csched_reports_written, memory_order_acquire);
        uint64_t now_used = csched_writer_cpu_ns();
        if (now != written || now_used > used) idle = 0;
        written = now;
        used = now_used;
    }
    return written < target ? target - written : 0;
}

static void csched_on_crash(int signal_number, siginfo_t *info, void *context) {
    (void)context;
    int saved_errno = errno;
    uint64_t unwritten = csched_crash_wait_for_reports(CSCHED_REPORT_WAIT_IDLE_MS, CSCHED_REPORT_WAIT_TOTAL_MS);
    if (unwritten > 0) {
        // Say what was lost rather than lose it silently.
        char digits[24];
        char *count = csched_format_decimal(unwritten, digits, sizeof digits);
        static const char prefix[] = "Schedulable: the process crashed with ";
        static const char suffix[] = " report(s) not yet written (the reporting thread made no progress)\n";
        csched_write_all(prefix, sizeof prefix - 1);
        csched_write_all(count, (size_t)(digits + sizeof digits - count));
        csched_write_all(suffix, sizeof suffix - 1);
    }
    const char *report = csched_tls_pending_report;
    if (report != NULL && (signal_number == SIGILL || signal_number == SIGTRAP)) {
        csched_tls_pending_report = NULL;
        csched_write_all(report, strlen(report));
    }
    // Give the signal back to whoever had it. A fault the kernel raised for an instruction (a trap's
    // ud2 or brk, a bad address) happens again when the handler returns, and reaches that action with
    // its own siginfo; a signal sent by raise, kill or abort, and a breakpoint that does not re-execute
    // (int3), are sent again. The handler runs with SA_NODEFER, so that one is delivered at once.
    for (size_t index = 0; index < CSCHED_CRASH_SIGNAL_COUNT; index++) {
        if (csched_crash_signals[index] == signal_number) {
            sigaction(signal_number, &csched_previous_actions[index], NULL);
        }
    }
    if (info == NULL || info->si_code <= 0 || signal_number == SIGTRAP || signal_number == SIGABRT) {
        raise(signal_number);
    }
    errno = saved_errno;
}

static void csched_install_trap_handler(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = csched_on_crash;
    // SA_ONSTACK: where the thread has an alternate stack (the Swift runtime gives its threads one for
    // its backtracer), a stack overflow can still run the handler.
    action.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    bool ok = true;
    for (size_t index = 0; index < CSCHED_CRASH_SIGNAL_COUNT; index++) {
        ok = sigaction(csched_crash_signals[index], &action, &csched_previous_actions[index]) == 0 && ok;
    }
    csched_trap_handler_ok = ok;
}

bool csched_trap_handler_installed(void) {
    pthread_once(&csched_trap_handler_once, csched_install_trap_handler);
    return csched_trap_handler_ok;
}

void csched_arm_trap_report(const char *report) {
    pthread_once(&csched_trap_handler_once, csched_install_trap_handler);
    csched_tls_pending_report = report;
}

void csched_disarm_trap_report(void) {
    csched_tls_pending_report = NULL;
}

void csched_crash_note_reporting_thread(void) {
    csched_tls_is_reporting_thread = 1;
#if defined(__linux__)
    if (pthread_getcpuclockid(pthread_self(), &csched_writer_clock) == 0) {
        atomic_store_explicit(&csched_writer_clock_known, 1, memory_order_release);
    }
#endif
}

void csched_crash_note_handed_over(void) {
    atomic_fetch_add_explicit(&csched_reports_handed_over, 1, memory_order_release);
}

void csched_crash_note_written(void) {
    atomic_fetch_add_explicit(&csched_reports_written, 1, memory_order_release);
}

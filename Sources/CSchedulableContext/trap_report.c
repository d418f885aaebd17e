// The report written if a thread traps (csched_trap_report.h).

#include "csched_private.h"

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

// The self-check: both handlers were installed (a sandbox or a seccomp filter may refuse).
static bool csched_trap_handler_ok = false;

static void csched_install_trap_handler(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = csched_on_trap;
    action.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    csched_trap_handler_ok = sigaction(SIGILL, &action, &csched_previous_ill) == 0
        && sigaction(SIGTRAP, &action, &csched_previous_trap) == 0;
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

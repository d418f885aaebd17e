// What is written to standard error when the process crashes: the reports still waiting for the
// reporting thread, and a report armed on the crashing thread (one handler for the crash signals,
// chained to the action installed before it).

#ifndef C_SCHEDULABLE_TRAP_REPORT_H
#define C_SCHEDULABLE_TRAP_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Installs the crash handler (once) for SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS and SIGFPE, and says
/// whether every `sigaction` call succeeded: the crash handler's self-check (a sandbox or a seccomp
/// filter may refuse). Each signal's earlier action (the Swift backtracer, a crash reporter, the
/// default) still runs after it.
bool csched_trap_handler_installed(void);

/// Arms a report to be written to standard error if this thread traps (SIGILL/SIGTRAP) before
/// `csched_disarm_trap_report`: used around `dispatchPrecondition`, whose failure prints nothing on
/// Linux. `report` must stay valid until disarmed.
void csched_arm_trap_report(const char *_Nonnull report);

/// Disarms the report armed by `csched_arm_trap_report`.
void csched_disarm_trap_report(void);

/// Notes that the calling thread is the reporting thread: a crash there cannot wait for it.
void csched_crash_note_reporting_thread(void);

/// Notes that one more entry was handed to the reporting thread (before it can be written).
void csched_crash_note_handed_over(void);

/// Notes that the reporting thread wrote one more entry.
void csched_crash_note_written(void);

/// Waits until every entry handed over before the call was written, for as long as the reporting
/// thread makes progress: it gives up after `idle_milliseconds` in which it wrote no entry and (on
/// Linux) used no CPU time, or after `total_milliseconds` in all. Returns how many entries were still unwritten (0: all written).
/// Async-signal-safe (atomics and `nanosleep`): the crash handler calls it, and so do the library's
/// own trap paths and the exit hook, so that an output that never returns cannot hang the process.
uint64_t csched_crash_wait_for_reports(uint32_t idle_milliseconds, uint32_t total_milliseconds);

/// How long a wait for the reporting thread lasts without progress before the process stops without
/// the rest, and at most in all (milliseconds): a stuck output cannot keep a crashed process alive,
/// and a first report's symbols in a large binary (the writer runs, so it makes progress) still fit.
#define CSCHED_REPORT_WAIT_IDLE_MS 2000u
#define CSCHED_REPORT_WAIT_TOTAL_MS 30000u

#ifdef __cplusplus
}
#endif

#endif

// A report written to standard error if the thread traps (a SIGILL/SIGTRAP handler, chained).

#ifndef C_SCHEDULABLE_TRAP_REPORT_H
#define C_SCHEDULABLE_TRAP_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Installs the SIGILL/SIGTRAP handler (once) and says whether both `sigaction` calls succeeded: the
/// trap report's self-check.
bool csched_trap_handler_installed(void);

/// Arms a report to be written to standard error if this thread traps (SIGILL/SIGTRAP) before
/// `csched_disarm_trap_report`: used around `dispatchPrecondition`, whose failure prints nothing on
/// Linux. The previous signal action (the Swift backtracer, a crash reporter, the default) still runs.
/// `report` must stay valid until disarmed.
void csched_arm_trap_report(const char *_Nonnull report);

/// Disarms the report armed by `csched_arm_trap_report`.
void csched_disarm_trap_report(void);

#ifdef __cplusplus
}
#endif

#endif

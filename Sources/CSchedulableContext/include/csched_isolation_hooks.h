// Swift concurrency runtime internals: the hook that turns the runtime's trapping executor checks
// (SE-0423) into reports. Called from Swift only through Platform/PlatformInternals.swift.

#ifndef C_SCHEDULABLE_ISOLATION_HOOKS_H
#define C_SCHEDULABLE_ISOLATION_HOOKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What the hook does with a check the runtime would trap on.
#define CSCHED_ISOLATION_OFF 0     /* hand it back: the runtime traps, as without the library */
#define CSCHED_ISOLATION_REPORT 1  /* report it, then let the code run on */
#define CSCHED_ISOLATION_TRAP 2    /* report it, then hand it back: the runtime traps */

/// Which executor a trapping check expected.
#define CSCHED_ISOLATION_EXPECTED_MAIN 1   /* the main executor (`MainActor`) */
#define CSCHED_ISOLATION_EXPECTED_ACTOR 2  /* a default actor: `identity` is the actor */

/// Called on the violating thread, inside the runtime's check, before the hook returns; `identity` is
/// the expected executor's object (the actor itself for a default actor), valid for the call only.
typedef void (*csched_isolation_reporter)(int expected, const void *_Nullable identity);

/// What `csched_isolation_hooks_install` found.
#define CSCHED_ISOLATION_INSTALLED 1
#define CSCHED_ISOLATION_NO_HOOK 0            /* the runtime exports no `swift_task_checkIsolated_hook` */
#define CSCHED_ISOLATION_SWITCHED_OFF (-1)    /* SCHEDULABLE_DISABLE_ISOLATION_HOOK is set */
#define CSCHED_ISOLATION_SELF_CHECK_FAILED (-2) /* a probe check did not reach the hook */

/// Installs the hook once (later calls return the first result): looks the runtime's hook variable up
/// with `dlsym`, keeps the hook that was there (every check it does not decide goes on to it), and
/// runs the self-check. `reporter` is called for every check the runtime would trap on while the mode is
/// not `CSCHED_ISOLATION_OFF`.
int csched_isolation_hooks_install(csched_isolation_reporter _Nonnull reporter, int mode);

/// Sets the mode (`CSCHED_ISOLATION_*`) of an installed hook; any thread, any time.
void csched_isolation_hooks_set_mode(int mode);

/// The mode now.
int csched_isolation_hooks_mode(void);

/// How many checks the hook was given (decided or handed back), for tests and benchmarks.
uint64_t csched_isolation_hooks_calls(void);

/// Whether the runtime also exports `swift_task_isIsolatingCurrentContext_hook` (a Swift 6.2 or later
/// runtime): read at run time, for the line that says what was found.
bool csched_isolation_runtime_has_isolating_hook(void);

#ifdef __cplusplus
}
#endif

#endif

// Xcode runtime issues (Apple only): os_log's private entry point with SwiftUI's image as the dso.

#ifndef C_SCHEDULABLE_RUNTIME_ISSUES_H
#define C_SCHEDULABLE_RUNTIME_ISSUES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Raises an Xcode runtime issue (the purple warning: an os_log fault to the
/// "com.apple.runtime-issues" subsystem, logged on behalf of SwiftUI's image as Xcode requires) with
/// `message`. Darwin only, looked up with dlsym at run time; does nothing elsewhere or when os_log is
/// missing.
void csched_raise_runtime_issue(const char *_Nonnull message);

/// Whether `csched_raise_runtime_issue` can raise anything here: Darwin, with os_log's entry points
/// found (its self-check). Always false elsewhere.
bool csched_runtime_issues_available(void);

#ifdef __cplusplus
}
#endif

#endif

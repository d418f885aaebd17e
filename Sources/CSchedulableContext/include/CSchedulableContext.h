// The library's C layer, one header per concern (ARCHITECTURE.md, "The C layer"). Swift imports this
// umbrella; each concern's `static inline` functions live in its own header and stay inlinable.
//
// Public, stable APIs:   csched_context.h, csched_epochs.h, csched_reporting_state.h, csched_atomics.h,
//                        csched_threads.h, csched_dispatch_calls.h, csched_call_stacks.h, csched_work.h
// Private internals (other projects' layouts or private entry points, each with a self-check and a
// kill switch, called from Swift only through Platform/PlatformInternals.swift):
//                        csched_dispatch_internals.h, csched_swift_runtime.h, csched_trap_report.h,
//                        csched_runtime_issues.h, csched_test_frameworks.h, csched_isolation_hooks.h

#ifndef C_SCHEDULABLE_UMBRELLA_H
#define C_SCHEDULABLE_UMBRELLA_H

#include "csched_atomics.h"
#include "csched_call_stacks.h"
#include "csched_context.h"
#include "csched_dispatch_calls.h"
#include "csched_dispatch_internals.h"
#include "csched_epochs.h"
#include "csched_isolation_hooks.h"
#include "csched_reporting_state.h"
#include "csched_runtime_issues.h"
#include "csched_swift_runtime.h"
#include "csched_test_frameworks.h"
#include "csched_threads.h"
#include "csched_trap_report.h"
#include "csched_work.h"

#endif

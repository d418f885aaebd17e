// Which test frameworks the process has loaded, found by symbols they export.

#ifndef C_SCHEDULABLE_TEST_FRAMEWORKS_H
#define C_SCHEDULABLE_TEST_FRAMEWORKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CSCHED_TEST_FRAMEWORK_SWIFT_TESTING 1u
#define CSCHED_TEST_FRAMEWORK_XCTEST 2u

/// Which test frameworks this process has loaded (`CSCHED_TEST_FRAMEWORK_*` bits), found by a symbol
/// each exports; asked once, for the hint printed when tests run without SchedulableTesting.
unsigned csched_test_frameworks_loaded(void);

#ifdef __cplusplus
}
#endif

#endif

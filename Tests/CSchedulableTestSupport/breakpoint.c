// A breakpoint instruction for the crash tests (CSchedulableTestSupport.h).

#include "CSchedulableTestSupport.h"

void csched_test_breakpoint(void) {
    __builtin_debugtrap();
}

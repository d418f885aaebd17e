// Which test frameworks the process has loaded (csched_test_frameworks.h).

#include "csched_private.h"

unsigned csched_test_frameworks_loaded(void) {
    unsigned found = 0;
    // Swift Testing's `Test` metadata accessor, exported by the Testing library on every platform.
    if (dlsym(RTLD_DEFAULT, "$s7Testing4TestVMa") != NULL) found |= CSCHED_TEST_FRAMEWORK_SWIFT_TESTING;
#if defined(__APPLE__)
    if (objc_getClass("XCTestCase") != NULL) found |= CSCHED_TEST_FRAMEWORK_XCTEST;
#else
    // swift-corelibs-xctest's `XCTestCase` metadata accessor.
    if (dlsym(RTLD_DEFAULT, "$s6XCTest0A4CaseCMa") != NULL) found |= CSCHED_TEST_FRAMEWORK_XCTEST;
#endif
    return found;
}

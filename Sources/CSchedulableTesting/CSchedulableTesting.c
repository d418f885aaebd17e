#include "CSchedulableTesting.h"

// Defined in Swift (SchedulableTesting/Internal/AutomaticTestBridge.swift, `@_cdecl`).
extern void schedulable_testing_install(void);

// Runs when the binary that links SchedulableTesting loads — before XCTest starts its first test, so
// the observer sees every test start; Swift has no load-time hook of its own. It is referenced by
// nothing, so it lives in a target that SwiftPM links as object files, where the linker keeps it.
__attribute__((constructor)) static void schedulable_testing_constructor(void) {
    schedulable_testing_install();
}

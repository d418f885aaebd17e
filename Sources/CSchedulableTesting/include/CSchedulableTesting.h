// The C side of SchedulableTesting: nothing to call. Its one job is a load-time constructor (in
// CSchedulableTesting.c) that installs SchedulableTesting's bridge to the test frameworks in the core,
// so that violations fail the test that caused them in any test binary that links SchedulableTesting,
// with no trait, base class or call in the tests.
#ifndef CSCHEDULABLE_TESTING_H
#define CSCHEDULABLE_TESTING_H
#endif

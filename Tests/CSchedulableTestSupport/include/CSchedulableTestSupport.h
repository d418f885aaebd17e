// Test support in C: frames that the library's stack capture must walk through without faulting.

#ifndef C_SCHEDULABLE_TEST_SUPPORT_H
#define C_SCHEDULABLE_TEST_SUPPORT_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Calls `callback(context)` from a frame that keeps no frame pointer and holds, in the frame-pointer
/// register, a value shaped like a Swift async frame's (bit 60 set on x86_64, an unmapped address
/// below it), as code built with `-fomit-frame-pointer` may: a frame-pointer walk from inside
/// `callback` reads that value as its caller's frame. The frame has call-frame information, so an
/// unwinder that follows it steps over it. Elsewhere than x86_64 ELF it calls `callback` directly and
/// `csched_test_clobbers_frame_pointer` is false.
void csched_test_call_with_clobbered_frame_pointer(void (*_Nonnull callback)(void *_Nullable),
                                                   void *_Nullable context);

/// Whether `csched_test_call_with_clobbered_frame_pointer` really clobbers the frame pointer here.
bool csched_test_clobbers_frame_pointer(void);

/// Executes the processor's breakpoint instruction (int3, brk): a SIGTRAP the kernel raises, as a
/// debugger's breakpoint or a C `__builtin_debugtrap()` in the program would.
void csched_test_breakpoint(void);

#ifdef __cplusplus
}
#endif

#endif

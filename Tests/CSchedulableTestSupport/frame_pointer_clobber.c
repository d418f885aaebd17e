// A frame without a frame pointer, holding an async-looking value in the frame-pointer register (see the
// header). Written in assembly so no compiler flag or optimizer decides what the register holds.

#include "CSchedulableTestSupport.h"

#if defined(__x86_64__) && defined(__ELF__)

// rbp is callee-saved: pushed, overwritten, restored. The call-frame information describes the push
// (the return address stays at CFA-8, the saved rbp at CFA-16) and nothing else, as a compiler does
// for a function that uses rbp as a general register. The stack stays 16-byte aligned at the call.
__asm__(
    ".text\n"
    ".globl csched_test_call_with_clobbered_frame_pointer\n"
    ".type csched_test_call_with_clobbered_frame_pointer, @function\n"
    ".p2align 4\n"
    "csched_test_call_with_clobbered_frame_pointer:\n"
    "    .cfi_startproc\n"
    "    pushq %rbp\n"
    "    .cfi_adjust_cfa_offset 8\n"
    "    .cfi_offset %rbp, -16\n"
    "    movabsq $0x1000000000000400, %rbp\n"
    "    movq %rdi, %rax\n"
    "    movq %rsi, %rdi\n"
    "    callq *%rax\n"
    "    popq %rbp\n"
    "    .cfi_adjust_cfa_offset -8\n"
    "    .cfi_restore %rbp\n"
    "    retq\n"
    "    .cfi_endproc\n"
    ".size csched_test_call_with_clobbered_frame_pointer, .-csched_test_call_with_clobbered_frame_pointer\n"
    ".section .note.GNU-stack,\"\",@progbits\n"
    ".text\n");

bool csched_test_clobbers_frame_pointer(void) { return true; }

#else

void csched_test_call_with_clobbered_frame_pointer(void (*callback)(void *), void *context) {
    callback(context);
}

bool csched_test_clobbers_frame_pointer(void) { return false; }

#endif

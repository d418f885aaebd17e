// Call stacks: the capture of a report's return addresses, and their lookup without the `Runtime` module.

#ifndef C_SCHEDULABLE_CALL_STACKS_H
#define C_SCHEDULABLE_CALL_STACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Up to `capacity` return addresses of the calling thread, innermost first (`backtrace(3)`); the number
/// written. 0 where the C library has no `backtrace` (Musl). glibc's steps by each frame's call-frame
/// information (libgcc's unwinder) and stops where no image describes a return address; Darwin's walks
/// frame pointers within the thread's stack bounds. Neither guesses at async contexts, so neither faults
/// on frames built without frame pointers.
int csched_backtrace(void *_Nullable *_Nonnull addresses, int capacity);

/// What `dladdr` knows of `address`: the image's path, the nearest exported symbol and its start.
/// Returns false when the address is in no loaded image. `symbol` is NULL when no exported symbol covers
/// it (Linux executables export none unless linked with `--export-dynamic`) or when the nearest one is
/// the image header (a stripped Mach-O image: `_mh_execute_header`). The strings live as long as
/// the image stays loaded.
bool csched_address_info(const void *_Nonnull address, const char *_Nullable *_Nonnull image,
                         const char *_Nullable *_Nonnull symbol, uintptr_t *_Nonnull symbol_start);

/// `name` demangled by the Swift runtime (`swift_demangle`), or NULL when it is not a Swift symbol; the
/// caller frees the result.
char *_Nullable csched_demangle(const char *_Nonnull name);

#ifdef __cplusplus
}
#endif

#endif

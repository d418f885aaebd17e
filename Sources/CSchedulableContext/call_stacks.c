// Call stacks (csched_call_stacks.h).

#include "csched_private.h"

// The capture of every report's stack, and the lookup of its frames where the toolchain's `Runtime`
// module is not available (Apple OS versions before the 26 releases). The same calls on Linux and Darwin,
// so the Linux tests run this code; only what `dladdr` can see differs (see the header).

int csched_backtrace(void **addresses, int capacity) {
#if defined(__APPLE__) || defined(__GLIBC__)
    return backtrace(addresses, capacity);
#else
    (void)addresses;
    (void)capacity;
    return 0;
#endif
}

bool csched_address_info(const void *address, const char **image, const char **symbol, uintptr_t *symbol_start) {
    Dl_info info;
    if (dladdr(address, &info) == 0) return false;
    *image = info.dli_fname;
    // In a stripped Mach-O image the nearest exported symbol below most code is the image's own header
    // (`_mh_execute_header`, `_mh_dylib_header`), which starts at the image base and names no
    // function: no symbol, rather than a frame named after the header.
    bool is_header = info.dli_saddr != NULL && info.dli_saddr == info.dli_fbase;
    *symbol = is_header ? NULL : info.dli_sname;
    *symbol_start = is_header ? 0 : (uintptr_t)info.dli_saddr;
    return true;
}

// The Swift runtime's public demangling entry point (exported by libswiftCore on every platform).
extern char *swift_demangle(const char *mangled_name, size_t mangled_name_length, char *output_buffer,
                            size_t *output_buffer_size, uint32_t flags);

char *csched_demangle(const char *name) {
    return swift_demangle(name, strlen(name), NULL, NULL, 0);
}

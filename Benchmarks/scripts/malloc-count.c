// Counts a process's heap allocations natively: an LD_PRELOAD library that interposes every glibc
// entry point that allocates, counts each call, and at exit writes the total (one decimal line) to the
// file named by MALLOC_COUNT_FILE (nothing when it is unset). scripts/malloc-count.sh compiles it with
// `cc -O2 -shared -fPIC` and runs a program under it; check-mallocs.sh and check-object-cost.sh read
// allocations per access or per object from it.
//
// Each function forwards to glibc's own allocator through its exported `__libc_*` names, not through
// dlsym (which itself allocates, and would recurse); blocks therefore come from glibc, and glibc's
// `free`, `malloc_usable_size` and `realloc` accept them: `free` is not interposed. glibc calls
// `malloc` through its PLT from inside libc (strdup, fopen, ...), so those allocations are counted too.
//
// Counted: every call that returns a new block (a successful or failed request alike; a failure is
// not expected here). `realloc(p, 0)` with p non-null frees and is not an allocation; any other
// `realloc` is one, as valgrind's memcheck counts it.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

// Relaxed: only the total matters, read once at exit after the counted work is done.
static atomic_ullong allocations;

static inline void counted(void) {
    atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
}

void *malloc(size_t size) {
    counted();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    counted();
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    if (pointer == NULL || size != 0) counted();
    return __libc_realloc(pointer, size);
}

void *reallocarray(void *pointer, size_t count, size_t size) {
    size_t bytes;
    if (__builtin_mul_overflow(count, size, &bytes)) {
        errno = ENOMEM;
        return NULL;
    }
    return realloc(pointer, bytes);
}

void *memalign(size_t alignment, size_t size) {
    counted();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    counted();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    // glibc's checks: a power of two, and a multiple of the size of a pointer.
    if (alignment == 0 || alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    counted();
    void *block = __libc_memalign(alignment, size);
    if (block == NULL) return ENOMEM;
    *result = block;
    return 0;
}

void *valloc(size_t size) {
    counted();
    return __libc_memalign((size_t)sysconf(_SC_PAGESIZE), size);
}

void *pvalloc(size_t size) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t rounded = size == 0 ? page : (size + page - 1) & ~(page - 1);
    if (rounded < size) {
        errno = ENOMEM;
        return NULL;
    }
    counted();
    return __libc_memalign(page, rounded);
}

// Runs at exit (from `exit`, whichever thread calls it, and after `main` returns); not after `_exit`
// or a fatal signal, so a missing file means the program did not exit normally. Appends one line,
// so that a child process under the same variable would show as a second line, not overwrite.
__attribute__((destructor)) static void write_count(void) {
    const char *path = getenv("MALLOC_COUNT_FILE");
    if (path == NULL || *path == '\0') return;
    char line[32];
    int length = snprintf(line, sizeof line, "%llu\n",
                          (unsigned long long)atomic_load_explicit(&allocations, memory_order_relaxed));
    int file = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (file < 0) return;
    ssize_t written = write(file, line, (size_t)length);
    (void)written;  // a short write leaves a line the reader rejects
    close(file);
}

// The control for scripts/malloc-count.c: `malloc-count-control <n>` makes n rounds of one call to each
// allocating entry point the counter interposes (9 a round) and frees them, single-threaded, so under
// the counter count(2n) - count(n) is exactly 9n. scripts/malloc-count.sh checks that after compiling
// the counter, before it measures anything: a counter that missed an entry point (or the whole
// process) would fail there, not pass every row that expects no allocation.
#define _GNU_SOURCE
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: malloc-count-control <rounds>\n");
        return 64;
    }
    long rounds = atol(argv[1]);
    for (long round = 0; round < rounds; round++) {
        // Volatile: each result is used, so the compiler keeps every call.
        void *volatile blocks[9];
        blocks[0] = malloc(24);
        blocks[1] = calloc(3, 8);
        blocks[2] = realloc(NULL, 24);
        blocks[3] = reallocarray(NULL, 3, 8);
        blocks[4] = memalign(64, 24);
        blocks[5] = aligned_alloc(64, 64);
        void *aligned = NULL;
        if (posix_memalign(&aligned, 64, 24) != 0) return 1;
        blocks[6] = aligned;
        blocks[7] = valloc(24);
        blocks[8] = pvalloc(24);
        for (int i = 0; i < 9; i++) {
            if (blocks[i] == NULL) return 1;
            free(blocks[i]);
        }
    }
    return 0;
}

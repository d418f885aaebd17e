# Counting a program's heap allocations natively (scripts/malloc-count.c), for check-mallocs.sh and
# check-object-cost.sh. Sourced, not run:
#
#   . scripts/malloc-count.sh
#   malloc_count_build "$work"                                  # compiles the counter into $work
#   once=$(malloc_count .build/release/KernelRunner check plain 200000)
#
# Native, not valgrind's memcheck (which counts the same allocations at ~1-2 s a run): a run costs
# what the program costs. Counts are exact for the counted thread; other threads (the runtime's, the
# dispatch pool's) allocate a few times at moments that vary, so callers take the difference of two
# runs of different length and divide, which cancels start-up and setup, and allow for a few strays.

# malloc_count_build <dir>: compiles the counter into <dir>/malloc-count.so, warnings as errors (with
# $CC, default cc: gcc or clang), and checks it on its control (malloc-count-control.c): 1,000 rounds
# of one call to each of the 9 entry points it interposes must count exactly 9,000.
malloc_count_build() {
    local sources control once twice
    sources=$(dirname "${BASH_SOURCE[0]}")
    malloc_count_dir=$1
    malloc_count_library="$malloc_count_dir/malloc-count.so"
    control="$malloc_count_dir/malloc-count-control"
    "${CC:-cc}" -O2 -shared -fPIC -Wall -Wextra -Werror -o "$malloc_count_library" "$sources/malloc-count.c"
    "${CC:-cc}" -O2 -Wall -Wextra -Werror -o "$control" "$sources/malloc-count-control.c"
    once=$(malloc_count "$control" 1000)
    twice=$(malloc_count "$control" 2000)
    [ "$((twice - once))" -eq 9000 ] || {
        echo "malloc-count: the control counted $((twice - once)) allocations for 9000 (1000 rounds of 9 entry points)" >&2
        return 1
    }
}

# malloc_count <program> [arguments...]: runs the program under the counter (no input, its output discarded)
# and prints the allocations it made; fails if it fails or exits without writing its count (killed,
# `_exit`), or if a second process wrote one too.
malloc_count() {
    local file="$malloc_count_dir/count.$BASHPID" count
    rm -f "$file"
    MALLOC_COUNT_FILE=$file LD_PRELOAD=$malloc_count_library "$@" </dev/null >/dev/null ||
        { echo "malloc-count: '$*' failed (exit $?)" >&2; return 1; }
    count=$(cat "$file" 2>/dev/null || true)
    rm -f "$file"
    [[ "$count" =~ ^[0-9]+$ ]] ||
        { echo "malloc-count: '$*' wrote no single count (got '${count//$'\n'/ }')" >&2; return 1; }
    echo "$count"
}

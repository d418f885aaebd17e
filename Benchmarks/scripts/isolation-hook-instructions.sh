#!/usr/bin/env bash
# Instructions per check of a custom executor's isolation path (`KernelRunner executor-check`,
# ExecutorCheck), counted by callgrind, with Swift's executor-check hook installed (the KernelRunner
# opts in as an app's debug run does) and with it switched off (SCHEDULABLE_DISABLE_ISOLATION_HOOK,
# the kill switch), the same binary side by side. Only the last round is counted (the kernel zeroes
# callgrind's counts before it and dumps them after), and only on the thread that ran the checks:
# callgrind keeps each thread's counts apart (--separate-threads), and the kernel's thread is the one
# with the most instructions by far. Another thread that wakes during the round (a timed wait, whose
# count depends on how long the round took on a loaded machine) is not the check's cost. The hook is
# installed only by a debug build of the library: pass the debug KernelRunner.
#
# usage: scripts/isolation-hook-instructions.sh <path to a debug KernelRunner> [checks]
# prints: <kernel> TAB <instructions per check>, for executorCheckCustomExecutor,
#         executorCheckLibraryScheduler and each with HookOff appended
set -euo pipefail

runner=${1:?usage: scripts/isolation-hook-instructions.sh <debug KernelRunner> [checks]}
checks=${2:-20000}
command -v valgrind >/dev/null || { echo "isolation-hook-instructions.sh: valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# valgrind 3.19 cannot read Swift 6's DWARF 5: count a copy without it (instructions.sh).
objcopy --strip-debug "$runner" "$work/KernelRunner"

for check in customExecutor libraryScheduler; do
    for hook in on off; do
        rm -f "$work"/out*
        if [ "$hook" = off ]; then
            SCHEDULABLE_DISABLE_ISOLATION_HOOK=1 valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$work/out" \
                "$work/KernelRunner" executor-check "$check" "$checks" 2 >/dev/null 2>"$work/log" || { cat "$work/log" >&2; exit 1; }
        else
            env -u SCHEDULABLE_DISABLE_ISOLATION_HOOK valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$work/out" \
                "$work/KernelRunner" executor-check "$check" "$checks" 2 >/dev/null 2>"$work/log" || { cat "$work/log" >&2; exit 1; }
        fi
        ls "$work"/out.1-* >/dev/null 2>&1 || { echo "isolation-hook-instructions.sh: no callgrind dump for '$check'" >&2; exit 1; }
        name="executorCheck${check^}"
        [ "$hook" = off ] && name="${name}HookOff"
        awk -v k="$name" -v n="$checks" '/^totals:/ && $2 > most { most = $2 } END { printf "%s\t%.2f\n", k, most / n }' "$work"/out.1-*
    done
done

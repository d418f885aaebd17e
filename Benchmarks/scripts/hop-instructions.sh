#!/usr/bin/env bash
# Instructions per event of a library hop (`KernelRunner hop`, CountedHop), counted by callgrind in
# every thread — the one that submits and the one that runs the work — with the owner's side of
# reports on (the default) and off (SCHEDULABLE_DISABLE_OWNER_SIDE, the kill switch). Only the last,
# gated round is counted (the kernel zeroes callgrind's counts before it and dumps them after): the
# submitting thread never waits and the running thread never sleeps during it, so the count is the
# same from run to run.
#
# usage: scripts/hop-instructions.sh <path to a release KernelRunner> [events]
# prints: <hop> TAB <instructions per event>, for hopQueueScheduler, hopThreadScheduler and each with
#         OwnerSideOff appended
set -euo pipefail

runner=${1:?usage: scripts/hop-instructions.sh <KernelRunner> [events]}
events=${2:-50000}
command -v valgrind >/dev/null || { echo "hop-instructions.sh: valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# valgrind 3.19 cannot read Swift 6's DWARF 5: count a copy without it (instructions.sh).
objcopy --strip-debug "$runner" "$work/KernelRunner"

for hop in queueScheduler threadScheduler; do
    for side in on off; do
        rm -f "$work"/out*
        if [ "$side" = off ]; then
            SCHEDULABLE_DISABLE_OWNER_SIDE=1 valgrind --tool=callgrind --callgrind-out-file="$work/out" \
                "$work/KernelRunner" hop "$hop" "$events" 2 >/dev/null 2>"$work/log" || { cat "$work/log" >&2; exit 1; }
        else
            env -u SCHEDULABLE_DISABLE_OWNER_SIDE valgrind --tool=callgrind --callgrind-out-file="$work/out" \
                "$work/KernelRunner" hop "$hop" "$events" 2 >/dev/null 2>"$work/log" || { cat "$work/log" >&2; exit 1; }
        fi
        # The kernel's dump (out.1): every thread's instructions between its zero and its dump.
        [ -f "$work/out.1" ] || { echo "hop-instructions.sh: no callgrind dump for '$hop' (BenchmarkSink built without valgrind/callgrind.h?)" >&2; exit 1; }
        name="hop${hop^}"
        [ "$side" = off ] && name="${name}OwnerSideOff"
        awk -v k="$name" -v n="$events" '/^totals:/ { printf "%s\t%.2f\n", k, $2 / n }' "$work/out.1"
    done
done

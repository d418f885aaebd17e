#!/usr/bin/env bash
# What a library hop costs per event, with the owner's side of reports on (every build publishes each
# work item's scheduling site and start stamp in its context's slot) and off (the kill switch
# SCHEDULABLE_DISABLE_OWNER_SIDE), side by side in one run of one release build (the library as
# shipped): instructions per event from callgrind (scripts/hop-instructions.sh: exact, both threads),
# and wall clock (`KernelRunner hop`: the two settings alternate, 7 times each, median of their
# medians). Writes README.md's "hop-cost.sh" block, which the repository's README quotes
# (.ci/check-figures); benchmarks.sh runs it too.
# A third setting weighs the work item's start stamp: the CPU's counter (the default where it is
# trustworthy) against a clock read (SCHEDULABLE_DISABLE_CPU_COUNTER), owner's side on, so that the
# counter's lines in work.c are kept only while this row shows them cheaper.
#
#   Benchmarks/scripts/hop-cost.sh [events]
set -euo pipefail
cd "$(dirname "$0")/.."
events=${1:-50000}
swift build --disable-sandbox -c release --product KernelRunner >/dev/null
runner=.build/release/KernelRunner
counts=$(scripts/hop-instructions.sh "$runner" "$events")
clock_counts=$(SCHEDULABLE_DISABLE_CPU_COUNTER=1 scripts/hop-instructions.sh "$runner" "$events")

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
for hop in queueScheduler threadScheduler; do
    on=() off=() clock=()
    for _ in 1 2 3 4 5 6 7; do
        on+=("$(env -u SCHEDULABLE_DISABLE_OWNER_SIDE -u SCHEDULABLE_DISABLE_CPU_COUNTER "$runner" hop "$hop" 100000 5 | cut -f2)")
        off+=("$(SCHEDULABLE_DISABLE_OWNER_SIDE=1 "$runner" hop "$hop" 100000 5 | cut -f2)")
        clock+=("$(SCHEDULABLE_DISABLE_CPU_COUNTER=1 "$runner" hop "$hop" 100000 5 | cut -f2)")
    done
    printf '%s\n' "${on[@]}" | median > ".build/hop-ns-$hop-on"
    printf '%s\n' "${off[@]}" | median > ".build/hop-ns-$hop-off"
    printf '%s\n' "${clock[@]}" | median > ".build/hop-ns-$hop-clock"
done

python3 - "$counts" "$clock_counts" <<'PY' | python3 scripts/readme_block.py hop-cost.sh "Hop" "instructions per event" "ns per event" \
    --caption "release; $events events per counted round, callgrind in both threads; ns: median of 7 alternating runs of 5 rounds of 100,000"
import sys
counts = dict(line.split("\t") for line in sys.argv[1].splitlines())
clock_counts = dict(line.split("\t") for line in sys.argv[2].splitlines())
titles = {"queueScheduler": "`SerialQueueScheduler.schedule`", "threadScheduler": "`ThreadScheduler.schedule`"}
for hop, title in titles.items():
    key = "hop" + hop[0].upper() + hop[1:]
    on, off = float(counts[key]), float(counts[key + "OwnerSideOff"])
    ns_on = float(open(f".build/hop-ns-{hop}-on").read())
    ns_off = float(open(f".build/hop-ns-{hop}-off").read())
    print(f"{title}, owner's side on\t{on:.1f}\t{ns_on:.1f}")
    print(f"{title}, owner's side off (`SCHEDULABLE_DISABLE_OWNER_SIDE`)\t{off:.1f}\t{ns_off:.1f}")
    print(f"{title}, the owner's side alone (on − off)\t{on - off:.1f}\t{ns_on - ns_off:.1f}")
    clock, ns_clock = float(clock_counts[key]), float(open(f".build/hop-ns-{hop}-clock").read())
    print(f"{title}, stamped by a clock read (`SCHEDULABLE_DISABLE_CPU_COUNTER`), owner's side on\t{clock:.1f}\t{ns_clock:.1f}")
PY

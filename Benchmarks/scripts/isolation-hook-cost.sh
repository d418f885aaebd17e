#!/usr/bin/env bash
# What Swift's executor-check hook (the library's isolation_hooks.c) costs code that passes, and what a
# failed check it reports costs the violating thread. Writes README.md's "isolation-hook-cost.sh" block.
#
# - A custom executor's isolation path (`KernelRunner executor-check`, ExecutorCheck: `assumeIsolated`
#   on an actor from its executor's queue), with the hook installed and switched off
#   (SCHEDULABLE_DISABLE_ISOLATION_HOOK), side by side in one run of one build: instructions per check
#   (scripts/isolation-hook-instructions.sh, callgrind) and wall clock (the two settings alternate,
#   7 times each, median of their medians).
# - A failed check reported (`KernelRunner isolation-report`: `MainActor.assumeIsolated` on a worker
#   thread, under the opt-in's printing handler): the process's first, each later one from the same
#   site (median), a new site (median of 8), against the 50 µs the violating thread may spend.
# The hook is installed only by a debug build of the library (release builds never change the
# runtime's traps), so every row is the debug KernelRunner's (-Onone).
#
#   Benchmarks/scripts/isolation-hook-cost.sh [checks]
set -euo pipefail
cd "$(dirname "$0")/.."
checks=${1:-20000}
swift build --product KernelRunner >/dev/null
runner=.build/debug/KernelRunner
counts=$(scripts/isolation-hook-instructions.sh "$runner" "$checks")

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
for check in customExecutor libraryScheduler; do
    on=() off=()
    for _ in 1 2 3 4 5 6 7; do
        on+=("$(env -u SCHEDULABLE_DISABLE_ISOLATION_HOOK "$runner" executor-check "$check" 100000 5 | cut -f2)")
        off+=("$(SCHEDULABLE_DISABLE_ISOLATION_HOOK=1 "$runner" executor-check "$check" 100000 5 | cut -f2)")
    done
    printf '%s\n' "${on[@]}" | median > ".build/isolation-ns-$check-on"
    printf '%s\n' "${off[@]}" | median > ".build/isolation-ns-$check-off"
done
report=$(env -u SCHEDULABLE_DISABLE_ISOLATION_HOOK "$runner" isolation-report 500 2>/dev/null)

python3 - "$counts" "$report" <<'PY' | python3 scripts/readme_block.py isolation-hook-cost.sh "Path" "instructions per check" "ns per check" \
    --caption "debug; $checks checks per counted round, callgrind; ns: median of 7 alternating runs of 5 rounds of 100,000"
import sys
counts = dict(line.split("\t") for line in sys.argv[1].splitlines())
titles = {
    "customExecutor": "actor on a custom executor (`checkIsolated()` only), `assumeIsolated` on its queue",
    "libraryScheduler": "actor on `SerialQueueScheduler`, `assumeIsolated` on its queue",
}
for check, title in titles.items():
    key = "executorCheck" + check[0].upper() + check[1:]
    on, off = float(counts[key]), float(counts[key + "HookOff"])
    ns_on = float(open(f".build/isolation-ns-{check}-on").read())
    ns_off = float(open(f".build/isolation-ns-{check}-off").read())
    print(f"{title}, hook installed\t{on:.1f}\t{ns_on:.1f}")
    print(f"{title}, hook off (`SCHEDULABLE_DISABLE_ISOLATION_HOOK`)\t{off:.1f}\t{ns_off:.1f}")
    print(f"{title}, the hook alone (installed − off)\t{on - off:.1f}\t{ns_on - ns_off:.1f}")
# `isolation-report  stack 8  first N ns  then N ns (median of R)  new site N ns (median of 8)`
fields = sys.argv[2].strip().split("\t")
first, then, site = (float(next(word for word in field.split() if word.isdigit())) for field in fields[2:5])
print(f"a failed check reported: the process's first\t—\t{first:.0f}")
print(f"a failed check reported: each later one, same site (median)\t—\t{then:.0f}")
print(f"a failed check reported: a new site (median of 8)\t—\t{site:.0f}")
PY

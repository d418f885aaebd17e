#!/usr/bin/env bash
# Instructions per access for every check kernel, counted by valgrind's callgrind.
#
# This VM has no hardware counters (`perf stat -e instructions true` says "not supported"), so the
# benchmark runner cannot report instructions; callgrind counts them in software, deterministically
# (same binary, same input: same count, whatever else the machine is doing).
#
# Only the kernel's loop function is counted (`--toggle-collect`), so setup, entering the owner's
# context and process start-up are excluded; the count is divided by the iteration count.
#
# usage: scripts/instructions.sh <path to a release KernelRunner> [iterations]
# prints: <kernel> TAB <instructions per access>
set -euo pipefail

runner=${1:?usage: scripts/instructions.sh <KernelRunner> [iterations]}
iterations=${2:-200000}
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# valgrind 3.19 cannot read the DWARF 5 debug info Swift 6 emits ("unhandled dwarf2 abbrev form"), so
# count a copy without it; symbols (the function names callgrind needs) are kept.
objcopy --strip-debug "$runner" "$work/KernelRunner"

# Each kernel's loop function, by its mangled symbol (callgrind matches symbol names).
"$(dirname "$0")/kernel-symbols.sh" "$work/KernelRunner" > "$work/kernels"

while IFS=$'\t' read -r kernel symbol _; do
    total=$(valgrind --tool=callgrind --callgrind-out-file="$work/out" --collect-atstart=no \
        --toggle-collect="$symbol" "$work/KernelRunner" check "$kernel" "$iterations" 2>&1 |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
    awk -v k="$kernel" -v t="$total" -v n="$iterations" 'BEGIN { printf "%s\t%.2f\n", k, t / n }'
done < "$work/kernels"

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

# Map each loop function's Swift name to its mangled symbol (callgrind matches symbol names).
nm "$work/KernelRunner" | awk '$2 ~ /^[tT]$/ && $3 ~ /CheckKernels/ {print $3}' | sort -u > "$work/symbols"
xargs swift demangle < "$work/symbols" > "$work/demangled"

"$work/KernelRunner" list | while IFS=$'\t' read -r kernel function _; do
    symbol=$(awk -v f="$function(" '{ split($0, parts, " ---> "); d = parts[2];
        if (index(d, "CheckKernels." f) == 1 || index(d, "CheckKernels.IsolatedModel." f) == 1) print parts[1] }' \
        "$work/demangled" | head -n 1)
    if [ -z "$symbol" ]; then
        echo "instructions.sh: no symbol for '$function' (kernel '$kernel')" >&2
        exit 1
    fi
    total=$(valgrind --tool=callgrind --callgrind-out-file="$work/out" --collect-atstart=no \
        --toggle-collect="$symbol" "$work/KernelRunner" check "$kernel" "$iterations" 2>&1 |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
    awk -v k="$kernel" -v t="$total" -v n="$iterations" 'BEGIN { printf "%s\t%.2f\n", k, t / n }'
done

#!/usr/bin/env bash
# Checks the committed instruction thresholds (Thresholds/instructions.tsv) with callgrind: the fast
# path stays within 3 instructions of a plain access, release accessors equal a plain one, object
# creation, the legitimate slow paths and a library hop (with the owner's side of reports, which every
# work item publishes) do not grow, Swift's executor-check hook leaves a custom executor's check as it
# was, and a checked access in a debug build (-Onone, where checks run by default) keeps its cost.
# Instruction counts are exact and repeatable (same
# binary, same count, whatever the machine is doing), so CI can hold them to the instruction.
#
#   Benchmarks/scripts/check-instructions.sh
set -euo pipefail
cd "$(dirname "$0")/.."

# --disable-sandbox as the benchmark plugin's builds have it (benchmarks.sh): SwiftPM passes it
# to the compiler, and a build with other flags than the one before compiles every module again.
swift build --disable-sandbox -c release --product KernelRunner >/dev/null
swift build --disable-sandbox -c release --traits ChecksOn --scratch-path .build-checks --product KernelRunner >/dev/null
swift build --product KernelRunner >/dev/null
results=.build/instruction-results
mkdir -p "$results"
# The three builds are counted side by side: callgrind runs one thread of its own, and a count does
# not depend on what else the machine is doing. -Onone costs ~2,000 instructions per access, so fewer
# iterations give the same per-access figure.
scripts/instructions.sh .build/release/KernelRunner 100000 > "$results/release.tsv" & release=$!
scripts/instructions.sh .build-checks/release/KernelRunner 100000 > "$results/checks.tsv" & checks=$!
scripts/instructions.sh .build/debug/KernelRunner 20000 > "$results/debug.tsv" & debug=$!
# A hop counts both threads of the release build, the owner's side on and off (hop-instructions.sh).
scripts/hop-instructions.sh .build/release/KernelRunner > "$results/hops.tsv" & hops=$!
# A custom executor's isolation path, Swift's executor-check hook installed and off (debug build: the
# only one that installs it; isolation-hook-instructions.sh).
scripts/isolation-hook-instructions.sh .build/debug/KernelRunner > "$results/isolation-hook.tsv" & hook=$!
for job in "$release" "$checks" "$debug" "$hops" "$hook"; do
    wait "$job" || { echo "check-instructions.sh: a callgrind run failed (see above)" >&2; exit 1; }
done

python3 - "$results" <<'PY'
import sys
results = sys.argv[1]
counts = {}
for build in ("release", "checks", "debug"):
    with open(f"{results}/{build}.tsv") as handle:
        counts[build] = {name: float(value) for name, value in (line.rstrip("\n").split("\t") for line in handle)}
with open(f"{results}/hops.tsv") as handle:
    counts["release"].update((name, float(value)) for name, value in (line.rstrip("\n").split("\t") for line in handle))
with open(f"{results}/isolation-hook.tsv") as handle:
    counts["debug"].update((name, float(value)) for name, value in (line.rstrip("\n").split("\t") for line in handle))
failures = 0
with open("Thresholds/instructions.tsv") as handle:
    for line in handle:
        if line.startswith("#") or not line.strip():
            continue
        fields = line.split()
        build, kernel, rule = fields[:3]
        measured = counts[build][kernel]
        if rule == "plus":
            base, limit = "plain", counts[build]["plain"] + float(fields[3])
        elif rule == "over":
            base, limit = fields[3], counts[build][fields[3]] + float(fields[4])
        elif rule == "max":
            base, limit = None, float(fields[3])
        else:
            sys.exit(f"instructions.tsv: unknown rule '{rule}' in: {line.strip()}")
        verdict = "ok" if measured <= limit else "REGRESSION"
        failures += verdict != "ok"
        against = f", {base} + {limit - counts[build][base]:.2f}" if base else ""
        print(f"{verdict:10} {build:8} {kernel:30} {measured:8.2f} instructions (limit {limit:.2f}{against})")
sys.exit(1 if failures else 0)
PY

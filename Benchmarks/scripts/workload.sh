#!/usr/bin/env bash
# The realistic workload (Sources/Workload): what the checks cost a whole program, side by side.
#
#   debug (-Onone), @Confined properties      vs  debug, plain stored properties (PlainWorkload trait)
#   release + ChecksOn (debug tier at -O)     vs  release (debug tier compiled out)
#     each under dispatchMain() and under a RunLoop on the main thread
#
# Builds the Workload product once per configuration (only the library and one small target), then
# runs every configuration once per round, 5 rounds interleaved, and prints the median seconds and
# the ratios as a Markdown table.
#
#   Benchmarks/scripts/workload.sh [--rounds 5] [--ids 5000000] [--debug-ids 500000]
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=5
ids=5000000
debug_ids=500000
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds) rounds=$2; shift 2 ;;
        --ids) ids=$2; shift 2 ;;
        --debug-ids) debug_ids=$2; shift 2 ;;
        *) echo "workload.sh: unknown option '$1'" >&2; exit 64 ;;
    esac
done

swift build --product Workload >/dev/null
swift build --traits PlainWorkload --scratch-path .build-plain --product Workload >/dev/null
# --disable-sandbox as the benchmark plugin's builds have it (benchmarks.sh): SwiftPM passes it
# to the compiler, and a build with other flags than the one before compiles every module again.
swift build --disable-sandbox -c release --product Workload >/dev/null
swift build --disable-sandbox -c release --traits ChecksOn --scratch-path .build-checks --product Workload >/dev/null

# name  binary  driver  ids
configurations=(
    "debug-checked .build/debug/Workload runloop $debug_ids"
    "debug-plain .build-plain/debug/Workload runloop $debug_ids"
    "release-dispatchMain .build/release/Workload dispatchMain $ids"
    "checks-dispatchMain .build-checks/release/Workload dispatchMain $ids"
    "release-runloop .build/release/Workload runloop $ids"
    "checks-runloop .build-checks/release/Workload runloop $ids"
)
results=.build/workload-results
mkdir -p "$results"
: > "$results/samples.tsv"
for round in $(seq "$rounds"); do
    for configuration in "${configurations[@]}"; do
        read -r name binary driver count <<< "$configuration"
        seconds=$("$binary" --main "$driver" --ids "$count" | awk -F'\t' '$1 == "seconds" { print $2 }')
        printf '%s\t%s\t%s\n' "$name" "$round" "$seconds" >> "$results/samples.tsv"
        echo "round $round $name: $seconds s" >&2
    done
done

python3 - "$results/samples.tsv" "$ids" "$debug_ids" "$rounds" <<'PY'
import statistics, sys
path, ids, debug_ids, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
samples = {}
for line in open(path):
    name, _, seconds = line.rstrip("\n").split("\t")
    samples.setdefault(name, []).append(float(seconds))
median = {name: statistics.median(values) for name, values in samples.items()}
accesses_per_id = 14
rows = [
    ("debug (-Onone), main on a RunLoop", "debug-checked", "debug-plain", debug_ids, 1.30),
    ("release + ChecksOn vs release, main in dispatchMain()", "checks-dispatchMain", "release-dispatchMain", ids, 1.10),
    ("release + ChecksOn vs release, main on a RunLoop", "checks-runloop", "release-runloop", ids, 1.10),
]
print(f"| workload ({accesses_per_id} guarded accesses per id) | ids | checked s | unchecked s | × | ns per access over unchecked | target |")
print("|---|---:|---:|---:|---:|---:|---|")
for label, checked, plain, count, target in rows:
    ratio = median[checked] / median[plain]
    over = (median[checked] - median[plain]) * 1e9 / (count * accesses_per_id)
    verdict = "met" if ratio <= target else "missed"
    print(f"| {label} | {count:,} | {median[checked]:.3f} | {median[plain]:.3f} | {ratio:.2f} | {over:.1f} | ≤ ×{target:.2f}: **{verdict}** |")
print()
print(f"Median of {rounds} interleaved runs each; samples in {path}.")
PY

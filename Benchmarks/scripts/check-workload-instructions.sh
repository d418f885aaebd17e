#!/usr/bin/env bash
# Checks the committed workload thresholds (Thresholds/workload.tsv): what the checks cost a whole
# program, in instructions per id of the realistic workload (Sources/Workload), release + ChecksOn over
# release, under each main driver. The kernels pin each access's own cost; this pins what the optimizer
# does with user code around it (a property's own accessor left as a call, or applying its key paths,
# shows here and in no kernel).
#
# Instructions per id: callgrind over the whole process, the count at 60,000 ids minus the count at
# 20,000, divided by 40,000, so start-up cancels. Eight valgrind runs, about a minute.
#
#   Benchmarks/scripts/check-workload-instructions.sh                        # builds both, checks
#   Benchmarks/scripts/check-workload-instructions.sh <release> <checks>     # two existing Workload builds
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "check-workload-instructions.sh: valgrind is not installed" >&2; exit 1; }

if [ $# -eq 2 ]; then
    release=$1
    checks=$2
else
    # --disable-sandbox as the benchmark plugin's builds have it (benchmarks.sh): SwiftPM passes it
    # to the compiler, and a build with other flags than the one before compiles every module again.
    swift build --disable-sandbox -c release --product Workload >/dev/null
    swift build --disable-sandbox -c release --traits ChecksOn --scratch-path .build-checks --product Workload >/dev/null
    release=.build/release/Workload
    checks=.build-checks/release/Workload
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# valgrind 3.19 cannot read Swift 6's DWARF 5 (see scripts/instructions.sh): copies without it.
objcopy --strip-debug "$release" "$work/release"
objcopy --strip-debug "$checks" "$work/checks"

# Instructions for `<build> <driver> <ids>`, the whole process.
count() {
    valgrind --tool=callgrind --callgrind-out-file="$work/out" "$work/$1" --main "$2" --ids "$3" 2>&1 |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

: > "$work/per-id"
for driver in runloop dispatchMain; do
    for build in release checks; do
        low=$(count "$build" "$driver" 20000)
        high=$(count "$build" "$driver" 60000)
        printf '%s\t%s\t%s\n' "$driver" "$build" "$(((high - low) / 40000))" >> "$work/per-id"
    done
done

python3 - "$work/per-id" <<'PY'
import sys
per_id = {}
for line in open(sys.argv[1]):
    driver, build, value = line.split()
    per_id[(driver, build)] = int(value)
failures = 0
with open("Thresholds/workload.tsv") as handle:
    for line in handle:
        if line.startswith("#") or not line.strip():
            continue
        driver, rule, value = line.split()
        if rule != "ratio":
            sys.exit(f"check-workload-instructions.sh: unknown rule '{rule}'")
        checks, release = per_id[(driver, "checks")], per_id[(driver, "release")]
        ratio = checks / release
        ok = ratio <= float(value)
        failures += not ok
        print(f"{'ok' if ok else 'FAIL':10} {driver:13} {checks:,} vs {release:,} instructions per id: x{ratio:.3f} (limit x{float(value):.2f})")
if failures:
    sys.exit(f"check-workload-instructions.sh: {failures} threshold(s) exceeded (Thresholds/workload.tsv)")
PY

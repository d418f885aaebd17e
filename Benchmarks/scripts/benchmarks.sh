#!/usr/bin/env bash
# Runs every benchmark and prints one comparison table (markdown) with ratios to the plain access and
# to DispatchQueue.async, measured side by side in this one invocation. A full run also rewrites the
# tables of Benchmarks/README.md (the block between its `benchmarks.sh: latest run` markers), which
# the repository's README links to, and the figures other documents quote from them
# (.ci/check-figures); a run without instructions only prints, so that the published tables always
# have every column.
#
#   Benchmarks/scripts/benchmarks.sh            # full run: two release builds, both suites, callgrind
#   Benchmarks/scripts/benchmarks.sh --no-instructions   # skip valgrind
#
# Two release builds of the benchmarks are needed because a package cannot depend on the library twice
# with different traits:
#   .build-nio     the library as users ship it (-O, debug tier compiled out), with the swift-nio
#                  comparison rows (this package's NIOComparison trait; a folder of its own, so CI's
#                  release build in .build, which has no swift-nio, is not recompiled by this script)
#   .build-checks  the same benchmarks with this package's ChecksOn trait, which turns on the
#                  library's ReleaseChecks trait (`swift package --traits ChecksOn ...`)
# The workload (scripts/workload.sh) and the -Onone rows use CI's builds in .build (only the library
# and one small target for the workload). Raw exports are kept in .build/benchmark-results/.
set -euo pipefail
script="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
cd "$(dirname "$0")/.."

instructions=1
for argument in "$@"; do
    case "$argument" in
        --no-instructions) instructions=0 ;;
        -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1' "$script"; exit 0 ;;
        *) echo "benchmarks.sh: unknown option '$argument' (try --help)" >&2; exit 64 ;;
    esac
done

results=.build/benchmark-results
mkdir -p "$results"
nio=(--traits NIOComparison --scratch-path .build-nio)

echo "== release build (+ swift-nio rows): CheckCost + SchedulerHops" >&2
swift package "${nio[@]}" --disable-sandbox benchmark --no-progress --format influx --path stdout \
    | grep -v -E '^\[[0-9]+/[0-9]+\]|^Build|^Building|^Note:|^Warning|Warning:' > "$results/release.influx" || true

echo "== release build + ChecksOn trait: CheckCost" >&2
swift package --traits ChecksOn --scratch-path .build-checks --disable-sandbox benchmark --target CheckCost \
    --no-progress --format influx --path stdout \
    | grep -v -E '^\[[0-9]+/[0-9]+\]|^Build|^Building|^Note:|^Warning|Warning:' > "$results/checks.influx" || true

# --disable-sandbox as the benchmark plugin's builds have it (above): SwiftPM passes it
# to the compiler, and a build with other flags than the one before compiles every module again.
swift build --disable-sandbox -c release "${nio[@]}" --product KernelRunner >/dev/null
swift build --disable-sandbox -c release --traits ChecksOn --scratch-path .build-checks --product KernelRunner >/dev/null
.build-nio/release/KernelRunner bytes > "$results/bytes-release.tsv"
.build-checks/release/KernelRunner bytes > "$results/bytes-checks.tsv"
echo "== debug build (-Onone): the checked accessor against the same accessor unchecked" >&2
# -Onone rows compare the library with itself: no swift-nio in this build (check-instructions.sh's).
swift build --product KernelRunner >/dev/null
for kernel in plain uncheckedAccessor confined assertIsolated dispatchPrecondition; do
    .build/debug/KernelRunner time "$kernel" 2000000
done > "$results/debug-ns.tsv"
if [ "$instructions" = 1 ]; then
    scripts/instructions.sh .build/debug/KernelRunner 20000 > "$results/instructions-debug.tsv"
fi

echo "== realistic workload: debug checked vs plain; release + ChecksOn vs release, dispatchMain() and RunLoop" >&2
scripts/workload.sh > "$results/workload.md"

echo "== violation storm: 4 threads × 250,000 violations under a warn policy" >&2
.build-checks/release/KernelRunner storm 4 250000 > "$results/storm.tsv"
echo "== reports and observation: cost per report, per observed check (their own blocks of README.md)" >&2
scripts/report-cost.sh
scripts/observation-cost.sh
echo "== a library hop per event, the owner's side of reports on and off (its own block of README.md)" >&2
scripts/hop-cost.sh
echo "== Swift's executor-check hook: a custom executor's check, hook on and off; a reported failed check (its own block of README.md)" >&2
scripts/isolation-hook-cost.sh
extra=(--bytes-release "$results/bytes-release.tsv" --bytes-checks "$results/bytes-checks.tsv" --storm "$results/storm.tsv"
    --debug-ns "$results/debug-ns.tsv" --workload "$results/workload.md")
if [ "$instructions" = 1 ]; then
    echo "== instructions per access (callgrind)" >&2
    scripts/instructions.sh .build-nio/release/KernelRunner > "$results/instructions-release.tsv"
    scripts/instructions.sh .build-checks/release/KernelRunner > "$results/instructions-checks.tsv"
    extra+=(--instr-release "$results/instructions-release.tsv" --instr-checks "$results/instructions-checks.tsv"
        --instr-debug "$results/instructions-debug.tsv" --readme README.md)
fi

python3 scripts/comparison_table.py --release "$results/release.influx" --checks "$results/checks.influx" "${extra[@]}" \
    | tee "$results/table.md"
if [ "$instructions" = 1 ]; then
    # The figures the repository's documents quote from the tables just written (.ci/check-figures).
    ../.ci/check-figures --update
fi

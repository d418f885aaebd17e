#!/usr/bin/env bash
# Checks the committed per-object cost thresholds (Thresholds/object-cost.tsv): what creating one
# protected object costs the heap must not grow silently, in release and with the debug tier on.
#
# - bytes per object: `KernelRunner bytes` (the allocator's size of each allocation the object makes:
#   malloc_usable_size of the object and of its record); exact.
# - mallocs per object: the LD_PRELOAD counter of scripts/malloc-count.c (the one check-mallocs.sh
#   uses) counts every allocation of `KernelRunner check <kernel> n`, natively; the count of 2n objects
#   minus that of n, divided by n, is the allocations one object makes (process start-up, setup and the
#   runtime's own allocations cancel; other threads allocate under 10 times in between, 0.00005 per
#   object at n = 200,000, so the limit allows 0.0005). It gives memcheck's figures, which it replaced.
#
# It reuses the release and release + ChecksOn builds of scripts/check-instructions.sh (no third
# build; `swift build` only confirms they are up to date).
#
#   Benchmarks/scripts/check-object-cost.sh               # measure both builds and check every row
#   Benchmarks/scripts/check-object-cost.sh --self-test   # the checker on made-up figures: must fail where it should
set -euo pipefail
cd "$(dirname "$0")/.."

# Compares measured figures (<build> TAB <kernel> TAB <bytes> TAB <mallocs>) with the thresholds file;
# prints one line per row and exits 1 if any row is over its limit or was not measured.
check() {
    python3 - "$1" "$2" <<'PY'
import sys
measured_path, thresholds_path = sys.argv[1:3]
measured = {}
with open(measured_path) as handle:
    for line in handle:
        build, kernel, size, mallocs = line.rstrip("\n").split("\t")
        measured[(build, kernel)] = (int(size), float(mallocs))
MALLOC_SLACK = 0.0005  # other threads' allocations between the two runs (see the script's header)
failures = 0
with open(thresholds_path) as handle:
    for number, line in enumerate(handle, 1):
        if line.startswith("#") or not line.strip():
            continue
        fields = line.split()
        if len(fields) != 4:
            sys.exit(f"object-cost.tsv:{number}: expected 'build kernel max-bytes max-mallocs', got: {line.strip()}")
        build, kernel, max_bytes, max_mallocs = fields[0], fields[1], int(fields[2]), float(fields[3])
        row = f"{build} {kernel}"
        if (build, kernel) not in measured:
            print(f"REGRESSION {row:40} not measured: no such build or kernel (object-cost.tsv:{number})")
            failures += 1
            continue
        size, mallocs = measured[(build, kernel)]
        problems = []
        if size > max_bytes:
            problems.append(f"{size} bytes per object > {max_bytes}")
        if mallocs > max_mallocs + MALLOC_SLACK:
            problems.append(f"{mallocs:.4f} mallocs per object > {max_mallocs:g}")
        verdict = "REGRESSION" if problems else "ok"
        failures += bool(problems)
        detail = "; ".join(problems) if problems else f"{size} bytes (limit {max_bytes}), {mallocs:.4f} mallocs (limit {max_mallocs:g})"
        print(f"{verdict:10} {row:40} {detail}" + (f" (object-cost.tsv:{number})" if problems else ""))
# A kernel measured without a row would grow unnoticed: every measured figure needs its limit.
rows = set()
with open(thresholds_path) as handle:
    for line in handle:
        if not line.startswith("#") and line.strip():
            rows.add(tuple(line.split()[:2]))
for build, kernel in sorted(set(measured) - rows):
    print(f"{'UNCHECKED':10} {build + ' ' + kernel:40} measured but has no row in object-cost.tsv: add one")
    failures += 1
if failures:
    print(f"object cost: {failures} row(s) over their limit: find why the object grew; lower a limit after an improvement, "
          "never raise one to get green", file=sys.stderr)
sys.exit(1 if failures else 0)
PY
}

if [ "${1:-}" = "--self-test" ]; then
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    printf 'release\tcreatePlain\t40\t1.0000\nrelease\tcreateConfined\t96\t2.0000\nchecks\tcreateConfined\t136\t2.0003\n' \
        > "$work/measured.tsv"
    printf '# build kernel bytes mallocs\nrelease\tcreatePlain\t40\t1\nrelease\tcreateConfined\t96\t2\nchecks\tcreateConfined\t136\t2\n' \
        > "$work/pass.tsv"
    check "$work/measured.tsv" "$work/pass.tsv" > "$work/out" || { cat "$work/out"; echo "self-test: rows within their limits failed" >&2; exit 1; }
    expect_failure() {  # <thresholds text> <text the failing row's line must contain>
        printf '%b' "$1" > "$work/fail.tsv"
        if check "$work/measured.tsv" "$work/fail.tsv" > "$work/out" 2>/dev/null; then
            echo "self-test: passed although a row is over its limit: $1" >&2; exit 1
        fi
        grep -q "^REGRESSION.*$2" "$work/out" || { cat "$work/out"; echo "self-test: no line naming '$2'" >&2; exit 1; }
    }
    expect_failure 'release\tcreateConfined\t88\t2\n' 'release createConfined .*96 bytes per object > 88'
    expect_failure 'release\tcreateConfined\t96\t1\n' 'release createConfined .*2.0000 mallocs per object > 1'
    expect_failure 'checks\tcreatePlain\t40\t1\n' 'checks createPlain .*not measured'
    # Every row within its limit, but one measured kernel has none: that is a failure too.
    printf 'release\tcreatePlain\t40\t1\nrelease\tcreateConfined\t96\t2\n' > "$work/fail.tsv"
    if check "$work/measured.tsv" "$work/fail.tsv" > "$work/out" 2>/dev/null; then
        echo "self-test: passed although a measured kernel has no row" >&2; exit 1
    fi
    grep -q "^UNCHECKED.*checks createConfined .*no row" "$work/out" || { cat "$work/out"; echo "self-test: no line naming the kernel without a row" >&2; exit 1; }
    echo "check-object-cost.sh --self-test: ok (passes within limits; fails naming the row on bytes, mallocs, a missing row, a kernel without a row)"
    exit 0
fi

. scripts/malloc-count.sh
# --disable-sandbox as the benchmark plugin's builds have it (benchmarks.sh): SwiftPM passes it
# to the compiler, and a build with other flags than the one before compiles every module again.
swift build --disable-sandbox -c release --product KernelRunner >/dev/null
swift build --disable-sandbox -c release --traits ChecksOn --scratch-path .build-checks --product KernelRunner >/dev/null

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
malloc_count_build "$work"
results=.build/object-cost-results
mkdir -p "$results"
objects=200000

# One build's rows, kernel after kernel (each run takes milliseconds).
measure() {  # <build> <runner>: prints <build> TAB <kernel> TAB <bytes> TAB <mallocs> per object
    local build=$1 runner=$2 kernel size once twice
    "$runner" bytes > "$work/bytes-$build.tsv"
    while IFS=$'\t' read -r kernel size; do
        once=$(malloc_count "$runner" check "$kernel" "$objects")
        twice=$(malloc_count "$runner" check "$kernel" "$((2 * objects))")
        awk -v b="$build" -v k="$kernel" -v s="$size" -v a="$once" -v c="$twice" -v n="$objects" \
            'BEGIN { printf "%s\t%s\t%s\t%.4f\n", b, k, s, (c - a) / n }'
    done < "$work/bytes-$build.tsv"
}
measure release .build/release/KernelRunner > "$results/measured-release.tsv"
measure checks .build-checks/release/KernelRunner > "$results/measured-checks.tsv"
cat "$results/measured-release.tsv" "$results/measured-checks.tsv" > "$results/measured.tsv"
check "$results/measured.tsv" Thresholds/object-cost.tsv

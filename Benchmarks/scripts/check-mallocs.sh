#!/usr/bin/env bash
# Checks the committed allocation thresholds (Thresholds/mallocs.tsv): a check, and a legitimate slow
# path, allocates nothing per access, and creating an object allocates what its row says, in the
# release build and with the debug tier on (ChecksOn), for every kernel of `KernelRunner list`.
#
# Each kernel runs natively under the LD_PRELOAD counter of scripts/malloc-count.c (every glibc
# allocation of the process) with n and then 2n accesses: (count(2n) - count(n)) / n is what one access
# allocates; process start-up, setup and the runner's own allocations cancel. Other threads allocate a
# few times at moments that vary (under 10 per run measured, 0.00005 per access at n = 200,000): the
# check allows 0.0005 either way. The `exact` rows (createPlain: a plain object is one malloc) must
# measure their figure, not just stay under it, so the run proves its counter counts: a counter that
# counted nothing would pass every 0 row.
#
# It reuses the release and release + ChecksOn builds of scripts/check-instructions.sh (the same flags:
# `swift build` finds them up to date, or makes them when this runs first); no benchmark plugin.
#
#   Benchmarks/scripts/check-mallocs.sh               # measure both builds and check every row
#   Benchmarks/scripts/check-mallocs.sh --self-test   # the checker on made-up figures: must fail where it should
set -euo pipefail
cd "$(dirname "$0")/.."

# Compares measured figures (<build> TAB <kernel> TAB <count(2n) - count(n)> TAB <n>) with the thresholds file;
# prints one line per row and exits 1 if any row is over its limit, an exact row is off its figure, a
# row was not measured, a measured kernel has no row, or a measured build has no exact row above 0.
check() {
    python3 - "$1" "$2" <<'PY'
import sys
measured_path, thresholds_path = sys.argv[1:3]
name = thresholds_path.rsplit("/", 1)[-1]
measured = {}
with open(measured_path) as handle:
    for line in handle:
        build, kernel, extra, accesses = line.rstrip("\n").split("\t")
        measured[(build, kernel)] = (int(extra), int(accesses))
SLACK = 0.0005  # other threads' allocations between the two runs (see the script's header)
failures = 0
rows = {}
controls = set()  # builds with an exact row above 0 that measured its figure
with open(thresholds_path) as handle:
    for number, line in enumerate(handle, 1):
        if line.startswith("#") or not line.strip():
            continue
        fields = line.split()
        if len(fields) not in (3, 4) or (len(fields) == 4 and fields[3] != "exact"):
            sys.exit(f"{name}:{number}: expected 'build kernel max-mallocs-per-access [exact]', got: {line.strip()}")
        build, kernel, limit, exact = fields[0], fields[1], float(fields[2]), len(fields) == 4
        row = f"{build} {kernel}"
        if (build, kernel) in rows:
            sys.exit(f"{name}:{number}: a second row for {row} (the first: line {rows[(build, kernel)]})")
        rows[(build, kernel)] = number
        if (build, kernel) not in measured:
            print(f"REGRESSION {row:40} not measured: no such build or kernel ({name}:{number})")
            failures += 1
            continue
        extra, accesses = measured[(build, kernel)]
        mallocs = extra / accesses
        # The figure, and the count it comes from (a few strays either way show as -0.0000 or 0.0000).
        figure = f"{mallocs:.4f} mallocs per access ({extra:+d} in {accesses})".replace("-0.0000", "0.0000")
        if mallocs > limit + SLACK:
            verdict, detail = "REGRESSION", f"{figure} > {limit:g} ({name}:{number})"
        elif exact and mallocs < limit - SLACK:
            verdict, detail = "COUNTER", (f"{figure}, exactly {limit:g} expected: "
                                         f"the counter misses allocations ({name}:{number})")
        elif mallocs < limit - SLACK:
            verdict, detail = "IMPROVED", f"{figure}, limit {limit:g}: lower the row ({name}:{number})"
        else:
            verdict, detail = "ok", f"{figure}, {'exactly' if exact else 'limit'} {limit:g}"
            if exact and limit > 0:
                controls.add(build)
        failures += verdict in ("REGRESSION", "COUNTER")
        print(f"{verdict:10} {row:40} {detail}")
# A kernel measured without a row would grow unnoticed: every measured figure needs its limit.
for build, kernel in sorted(set(measured) - set(rows)):
    print(f"{'UNCHECKED':10} {build + ' ' + kernel:40} measured but has no row in {name}: add one")
    failures += 1
# Without a count known to be above 0 in the same run, a counter that counts nothing passes every 0 row.
for build in sorted({build for build, _ in measured} - controls):
    print(f"{'COUNTER':10} {build:40} no exact row above 0 measured its figure: nothing proves the counter counts")
    failures += 1
if failures:
    print(f"mallocs: {failures} row(s) failed: find what allocates; lower a limit after an improvement, "
          "never raise one to get green", file=sys.stderr)
sys.exit(1 if failures else 0)
PY
}

if [ "${1:-}" = "--self-test" ]; then
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    printf 'release\tplain\t0\t200000\nrelease\tcreatePlain\t200000\t200000\nchecks\tplain\t-7\t200000\nchecks\tcreatePlain\t199993\t200000\n' \
        > "$work/measured.tsv"
    pass='# build kernel mallocs\nrelease\tplain\t0\nrelease\tcreatePlain\t1\texact\nchecks\tplain\t0\nchecks\tcreatePlain\t1\texact\n'
    printf '%b' "$pass" > "$work/pass.tsv"
    check "$work/measured.tsv" "$work/pass.tsv" > "$work/out" || { cat "$work/out"; echo "self-test: rows within their limits failed" >&2; exit 1; }
    expect_failure() {  # <measured text> <thresholds text> <regular expression the failing line must match>
        printf '%b' "$1" > "$work/measured-fail.tsv"
        printf '%b' "$2" > "$work/fail.tsv"
        if check "$work/measured-fail.tsv" "$work/fail.tsv" > "$work/out" 2>/dev/null; then
            echo "self-test: passed although it should fail: $2" >&2; exit 1
        fi
        grep -q "$3" "$work/out" || { cat "$work/out"; echo "self-test: no line matching '$3'" >&2; exit 1; }
    }
    # A check that allocates once per access, or once per thousand.
    expect_failure 'release\tplain\t200000\t200000\nrelease\tcreatePlain\t200000\t200000\n' \
        'release\tplain\t0\nrelease\tcreatePlain\t1\texact\n' '^REGRESSION release plain .*1.0000 mallocs per access (+200000 in 200000) > 0'
    expect_failure 'release\tplain\t200\t200000\nrelease\tcreatePlain\t200000\t200000\n' \
        'release\tplain\t0\nrelease\tcreatePlain\t1\texact\n' '^REGRESSION release plain .*0.0010 mallocs per access (+200 in 200000) > 0'
    # An object that allocates one more than its row.
    expect_failure 'release\tcreatePlain\t400000\t200000\n' 'release\tcreatePlain\t1\texact\n' '^REGRESSION release createPlain .*2.0000 .* > 1'
    # A counter that counts nothing: every 0 row passes, the exact row does not.
    expect_failure 'release\tplain\t0\t200000\nrelease\tcreatePlain\t0\t200000\n' \
        'release\tplain\t0\nrelease\tcreatePlain\t1\texact\n' '^COUNTER    release createPlain .*exactly 1 expected'
    # No exact row for a measured build: nothing proves its counter counts.
    expect_failure 'release\tplain\t0\t200000\nrelease\tcreatePlain\t200000\t200000\n' \
        'release\tplain\t0\nrelease\tcreatePlain\t1\n' '^COUNTER    release .*nothing proves the counter counts'
    # A row nobody measured, and a measured kernel without a row.
    expect_failure "$(cat "$work/measured.tsv")\n" "$pass"'checks\tconfined\t0\n' '^REGRESSION checks confined .*not measured'
    expect_failure "$(cat "$work/measured.tsv")\nchecks\tconfined\t0\t200000\n" "$pass" '^UNCHECKED  checks confined .*no row'
    echo "check-mallocs.sh --self-test: ok (passes within limits; fails naming the row on a check that allocates, an object over its row," \
        "a counter that counts nothing, a build without a control row, a row not measured, a kernel without a row)"
    exit 0
fi

command -v python3 >/dev/null || { echo "check-mallocs.sh: python3 is not installed" >&2; exit 1; }
. scripts/malloc-count.sh
# --disable-sandbox as the benchmark plugin's builds have it (benchmarks.sh): SwiftPM passes it
# to the compiler, and a build with other flags than the one before compiles every module again.
swift build --disable-sandbox -c release --product KernelRunner >/dev/null
swift build --disable-sandbox -c release --traits ChecksOn --scratch-path .build-checks --product KernelRunner >/dev/null

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
malloc_count_build "$work"
results=.build/malloc-results
mkdir -p "$results"
accesses=200000

# One build's figures, kernel after kernel (each run takes milliseconds).
measure() {  # <build> <runner>: prints <build> TAB <kernel> TAB <count(2n) - count(n)> TAB <n> for every kernel
    local build=$1 runner=$2 kernels kernel once twice
    kernels=$("$runner" list | cut -f1)  # an assignment, so a runner that fails stops the script
    for kernel in $kernels; do
        once=$(malloc_count "$runner" check "$kernel" "$accesses")
        twice=$(malloc_count "$runner" check "$kernel" "$((2 * accesses))")
        printf '%s\t%s\t%d\t%d\n' "$build" "$kernel" "$((twice - once))" "$accesses"
    done
}
measure release .build/release/KernelRunner > "$results/measured-release.tsv"
measure checks .build-checks/release/KernelRunner > "$results/measured-checks.tsv"
cat "$results/measured-release.tsv" "$results/measured-checks.tsv" > "$results/measured.tsv"
check "$results/measured.tsv" Thresholds/mallocs.tsv

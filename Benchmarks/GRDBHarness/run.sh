#!/usr/bin/env bash
# Runs GRDB's own tests with Schedulable asked at every one of GRDB's SchedulingWatchdog decisions, and
# counts the runs that crash (issue 34). Out of the main test path: .ci/run never calls it.
#
#   Benchmarks/GRDBHarness/run.sh [SCHEDULABLE_PATH] [--runs N] [--filter REGEX] [--jobs J] [--control]
#                                 [--stock] [--build-only]
#
# SCHEDULABLE_PATH: the Schedulable checkout (or worktree) GRDB depends on; default: this repository.
# See README.md beside this script.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
schedulable="$(cd "$here/../.." && pwd)"
runs=20
filter='ValueObservationCountTests|DatabasePoolTests|ValueObservationTests'
jobs=1
build_only=0
control=0
stock=0
grdb_version="${GRDB_VERSION:-7.10.0}"
grdb_url="${GRDB_URL:-https://github.com/groue/GRDB.swift}"
run_timeout="${RUN_TIMEOUT:-900}"

while (($#)); do
    case "$1" in
        --runs) runs="$2"; shift 2 ;;
        --filter) filter="$2"; shift 2 ;;
        --jobs) jobs="$2"; shift 2 ;;
        --control) control=1; shift ;;
        --stock) stock=1; shift ;;
        --build-only) build_only=1; shift ;;
        -h|--help) sed -n 2,9p "$0"; exit 0 ;;
        -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
        *) schedulable="$(cd "$1" && pwd)"; shift ;;
    esac
done
[[ -f "$schedulable/Package.swift" && -d "$schedulable/Sources/Schedulable" ]] \
    || { echo "run.sh: $schedulable is not a Schedulable checkout" >&2; exit 2; }

# One scratch folder per Schedulable checkout (gitignored: .build-*), so two checkouts keep two builds.
# --stock: GRDB as published, without the hook or Schedulable (GRDB's own flakiness, for comparison).
tag="$(basename "$schedulable")-$(printf %s "$schedulable" | cksum | cut -c1-6)"
((stock)) && tag=stock
scratch="$here/.build-grdb-$tag"
grdb="$scratch/GRDB.swift"
mkdir -p "$scratch"
((stock)) && echo "run.sh: stock GRDB $grdb_version (no hook, no Schedulable), scratch $scratch" \
    || echo "run.sh: Schedulable at $schedulable ($(git -C "$schedulable" rev-parse --short HEAD 2>/dev/null || echo '?')), GRDB $grdb_version, scratch $scratch"

# 1. GRDB at the tag, unmodified except for our hook (files are rewritten only when they change, so a
#    second run does not rebuild GRDB).
if [[ ! -d "$grdb/.git" ]]; then
    git -c advice.detachedHead=false clone --quiet --branch "$grdb_version" "$grdb_url" "$grdb"
fi
if ((stock)); then
    [[ -z "$(git -C "$grdb" status --porcelain --untracked-files=no)" ]] || git -C "$grdb" checkout --quiet -- .
elif ! git -C "$grdb" apply --reverse --check "$here/hook.patch" 2>/dev/null; then
    git -C "$grdb" checkout --quiet -- GRDB
    git -C "$grdb" apply --whitespace=nowarn "$here/hook.patch"
fi
((stock)) || cmp -s "$here/SchedulableOracle.swift" "$grdb/GRDB/Core/SchedulableOracle.swift" \
    || cp "$here/SchedulableOracle.swift" "$grdb/GRDB/Core/SchedulableOracle.swift"

# 2. Schedulable as a path dependency of the GRDB target (the product names the package by its identity:
#    the path's last component, lower-cased).
identity="$(basename "$schedulable" | tr '[:upper:]' '[:lower:]')"
manifest="$(git -C "$grdb" show HEAD:Package.swift | SCHEDULABLE="$schedulable" IDENTITY="$identity" perl -0pe '
    s{(var dependencies: \[PackageDescription\.Package\.Dependency\] = \[\]\n)}
     {$1// Schedulable harness: Schedulable as a path dependency.\ndependencies.append(.package(path: "$ENV{SCHEDULABLE}"))\n}
        or die "no dependencies line";
    s{(\.target\(name: "GRDBSQLite"\),\n)}
     {$1                .product(name: "Schedulable", package: "$ENV{IDENTITY}"), // Schedulable harness\n}
        or die "no GRDBSQLite dependency line";
')"
((stock)) && manifest="$(git -C "$grdb" show HEAD:Package.swift)"
[[ "$(cat "$grdb/Package.swift")" == "$manifest" ]] || printf '%s\n' "$manifest" > "$grdb/Package.swift"

# 3. Build GRDB's tests (debug: Schedulable's debug tier, assertIsolated(), is compiled in).
started=$SECONDS
swift build --package-path "$grdb" --build-tests 2>&1 | tail -n 3
echo "run.sh: build took $((SECONDS - started)) s"
((build_only)) && exit 0

bin="$(swift build --package-path "$grdb" --show-bin-path)/GRDBPackageTests.xctest"
[[ -x "$bin" ]] || { echo "run.sh: no test binary at $bin" >&2; exit 1; }

# 4. The subset: every test whose name matches the filter (as `swift test --filter` would select them).
#    The binary takes them as one comma-separated argument, which must stay under the kernel's 128 KiB:
#    a class whose every test is selected is named by its class alone.
mapfile -t all < <("$bin" --list-tests 2>/dev/null | grep -E '^[A-Za-z0-9_]+\.[A-Za-z0-9_]+/' || true)
mapfile -t tests < <(printf '%s\n' "${all[@]}" | grep -E "$filter" || true)
((${#tests[@]})) || { echo "run.sh: no test matches $filter" >&2; exit 1; }
selection="$(printf '%s\n' "${all[@]}" | awk -v FS=/ -v re="$filter" '
    { total[$1]++; if ($0 ~ re) { chosen[$1]++; names[$1] = names[$1] "," $0 } }
    END { for (c in chosen) out = out "," (chosen[c] == total[c] ? c : substr(names[c], 2)); print substr(out, 2) }')"
echo "run.sh: $runs runs of ${#tests[@]} tests matching '$filter', $jobs at a time"
# --control: the same build and runs, GRDB's decisions counted but Schedulable not asked.
((control)) && export SCHEDULABLE_ORACLE=off && echo "run.sh: control runs: Schedulable is not asked"

# 5. N runs; a run's log is kept when it did not pass.
logs="$scratch/logs-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$logs"
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=yes,interactive=no,color=no,threads=crashed}"
one_run() {
    local n="$1" log="$logs/run-$1.log" status=0
    local t0=$SECONDS
    ( cd "$grdb" && timeout --signal=KILL "$run_timeout" "$bin" "$selection" ) > "$log" 2>&1 || status=$?
    local outcome=passed
    if ((status == 137)); then outcome="timed out"   # timeout's SIGKILL (a crash is SIGSEGV, SIGBUS, ...)
    elif ((status > 128)); then outcome="crashed (signal $((status - 128)))"
    elif ((status != 0)); then outcome="failed (exit $status)"
    fi
    local executed summary
    executed="$(grep -A1 "^Test Suite 'Selected tests'" "$log" | grep -oE 'Executed [0-9]+ tests?.* failures?' || true)"
    summary="$(grep -E '^schedulable-oracle: (asked|not asked)' "$log" | sed 's/^schedulable-oracle: //' || true)"
    echo "run $n: $outcome in $((SECONDS - t0)) s${executed:+ ($executed)}${summary:+; $summary}" \
        | tee "$logs/run-$n.outcome"
    [[ "$outcome" == passed ]] && rm -f "$log"
    return 0
}
started=$SECONDS
for ((n = 1; n <= runs; n++)); do
    one_run "$n" 2>/dev/null &   # (bash's own "Segmentation fault" line: the outcome says it)
    while (($(jobs -rp | wc -l) >= jobs)); do wait -n || true; done
done
wait

count() { grep -l "^run [0-9]*: $1" "$logs"/*.outcome 2>/dev/null | wc -l || true; }
crashed=$(count crashed); failed=$(count failed); timed_out=$(count "timed out")
first_crash="$(grep -l '^run [0-9]*: crashed' "$logs"/*.outcome 2>/dev/null | sort -V | head -n 1 || true)"
if [[ -n "$first_crash" ]]; then
    echo "run.sh: the crashed thread of ${first_crash%.outcome}.log:"
    awk '/ crashed:$/ {on = 1} on {print} on && /^ *2[0-9] / {exit}' "${first_crash%.outcome}.log" | cut -c1-200
fi
echo "run.sh: logs of runs that did not pass: $logs (runs took $((SECONDS - started)) s)"
echo "runs: $runs, crashed: $crashed, failed: $failed, timed out: $timed_out, passed: $((runs - crashed - failed - timed_out))"

#!/usr/bin/env bash
# Runs GRDB's own tests with Schedulable asked at every one of GRDB's SchedulingWatchdog decisions, and
# counts the runs that crash (issue 34); or (--observe) with GRDB's queue-confined classes adopted as
# Confinement.observed() and the observation files turned into a table (issue 37). Out of the main test
# path: .ci/run never calls it.
#
#   Benchmarks/GRDBHarness/run.sh [SCHEDULABLE_PATH] [--runs N] [--filter REGEX] [--exclude REGEX]
#                                 [--jobs J] [--control] [--stock] [--observe [--wrap-queues]] [--build-only]
#
# SCHEDULABLE_PATH: the Schedulable checkout (or worktree) GRDB depends on; default: this repository.
# See README.md beside this script.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
schedulable="$(cd "$here/../.." && pwd)"
runs=20
filter='ValueObservationCountTests|DatabasePoolTests|ValueObservationTests'
exclude=''
jobs=1
build_only=0
control=0
stock=0
observe=0
runs_given=0
# --observe: the GRDB classes whose owner GRDB states (README.md, "Observing GRDB"), adopted by
# `schedule-audit-tool adopt`. TYPE:FILE adopts TYPE with FILE left out of the sources (see below).
adopt_types="${ADOPT_TYPES:-Database SerializedDatabase Statement RowCursor StatementCursor DatabaseValueCursor FastDatabaseValueCursor SQLStatementCursor}"
grdb_version="${GRDB_VERSION:-7.10.0}"
grdb_url="${GRDB_URL:-https://github.com/groue/GRDB.swift}"
run_timeout="${RUN_TIMEOUT:-900}"

while (($#)); do
    case "$1" in
        --runs) runs="$2"; runs_given=1; shift 2 ;;
        --filter) filter="$2"; shift 2 ;;
        --exclude) exclude="$2"; shift 2 ;;
        --jobs) jobs="$2"; shift 2 ;;
        --control) control=1; shift ;;
        --stock) stock=1; shift ;;
        --build-only) build_only=1; shift ;;
        --observe) observe=1; shift ;;
        --wrap-queues) export SCHEDULABLE_HARNESS_WRAP_QUEUES=1; shift ;;
        -h|--help) sed -n 2,11p "$0"; exit 0 ;;
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
((observe)) && tag="$tag-observe"
((stock && observe)) && { echo "run.sh: --stock and --observe exclude each other" >&2; exit 2; }
((observe && !runs_given)) && runs=1
scratch="$here/.build-grdb-$tag"
grdb="$scratch/GRDB.swift"
mkdir -p "$scratch"
((observe)) && echo "run.sh: observe: GRDB's classes adopted as Confinement.observed() (no hook, no oracle)${SCHEDULABLE_HARNESS_WRAP_QUEUES:+; each connection queue wrapped in a SerialQueueScheduler}"
((stock)) && echo "run.sh: stock GRDB $grdb_version (no hook, no Schedulable), scratch $scratch" \
    || echo "run.sh: Schedulable at $schedulable ($(git -C "$schedulable" rev-parse --short HEAD 2>/dev/null || echo '?')), GRDB $grdb_version, scratch $scratch"

# 1. GRDB at the tag, unmodified except for our hook (files are rewritten only when they change, so a
#    second run does not rebuild GRDB).
if [[ ! -d "$grdb/.git" ]]; then
    git -c advice.detachedHead=false clone --quiet --branch "$grdb_version" "$grdb_url" "$grdb"
fi
if ((stock)); then
    [[ -z "$(git -C "$grdb" status --porcelain --untracked-files=no)" ]] || git -C "$grdb" checkout --quiet -- .
elif ((observe)); then
    # The adopted sources are made in a staging copy of GRDB/ and copied over the clone's only where a
    # file changed, so that a second run does not rebuild GRDB.
    swift build --package-path "$schedulable" --product schedule-audit-tool 2>&1 | tail -n 1
    tool="$(swift build --package-path "$schedulable" --show-bin-path)/schedule-audit-tool"
    stage="$scratch/adopted"
    rm -rf "$stage" && mkdir -p "$stage"
    git -C "$grdb" archive HEAD GRDB | tar -x -C "$stage"
    for entry in $adopt_types; do
        type="${entry%%:*}"
        if [[ "$entry" == *:* ]]; then
            # adopt refuses a name that a nested type also has ('Statement' and
            # 'Database.TraceEvent.Statement'), and has no spelling for the top-level one: adopt it in a
            # copy without the nested type's file, and bring back what changed.
            aside="$scratch/adopt-aside" && rm -rf "$aside" && mkdir -p "$aside"
            cp -R "$stage/GRDB" "$aside/" && rm "$aside/GRDB/${entry#*:}"
            "$tool" adopt "$type" --sources "$aside/GRDB" --apply > "$scratch/adopt-$type.log" 2>&1
            (cd "$aside" && find GRDB -name '*.swift' | while read -r f; do
                cmp -s "$f" "$stage/$f" || cp "$f" "$stage/$f"; done)
        else
            "$tool" adopt "$type" --sources "$stage/GRDB" --apply > "$scratch/adopt-$type.log" 2>&1
        fi
        echo "run.sh: $(tail -n 1 "$scratch/adopt-$type.log")"
    done
    # What adopt left that does not compile, fixed by hand (README.md lists each fix).
    patch --quiet --forward -p1 -d "$stage" < "$here/observe.patch"
    (cd "$stage" && find GRDB -name '*.swift' | while read -r f; do
        cmp -s "$f" "$grdb/$f" || cp "$f" "$grdb/$f"; done)
elif ! git -C "$grdb" apply --reverse --check "$here/hook.patch" 2>/dev/null; then
    git -C "$grdb" checkout --quiet -- GRDB
    git -C "$grdb" apply --whitespace=nowarn "$here/hook.patch"
fi
((stock || observe)) || cmp -s "$here/SchedulableOracle.swift" "$grdb/GRDB/Core/SchedulableOracle.swift" \
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
# --exclude: tests whose names match it are left out of the filter's selection.
mapfile -t tests < <(printf '%s\n' "${all[@]}" | grep -E "$filter" | grep -vE "${exclude:-^$}" || true)
((${#tests[@]})) || { echo "run.sh: no test matches $filter" >&2; exit 1; }
selection="$(printf '%s\n' "${all[@]}" | awk -v FS=/ -v re="$filter" -v skip="${exclude:-^$}" '
    { total[$1]++; if ($0 ~ re && $0 !~ skip) { chosen[$1]++; names[$1] = names[$1] "," $0 } }
    END { for (c in chosen) out = out "," (chosen[c] == total[c] ? c : substr(names[c], 2)); print substr(out, 2) }')"
echo "run.sh: $runs runs of ${#tests[@]} tests matching '$filter'${exclude:+ but not '$exclude'}, $jobs at a time"
# --control: the same build and runs, GRDB's decisions counted but Schedulable not asked.
((control)) && export SCHEDULABLE_ORACLE=off && echo "run.sh: control runs: Schedulable is not asked"

# 5. N runs; a run's log is kept when it did not pass (KEEP_LOGS=1: always, for XCTest's per-test times).
logs="$scratch/logs-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$logs"
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=yes,interactive=no,color=no,threads=crashed}"
one_run() {
    local n="$1" log="$logs/run-$1.log" status=0
    local t0=$SECONDS
    # --observe: each run writes its observation files (one per process) to its own folder.
    ( cd "$grdb"
      if ((observe)); then export SCHEDULABLE_CONFINEMENT_OBSERVATIONS="$logs/observations-$n"; fi
      timeout --signal=KILL "$run_timeout" "$bin" "$selection" ) > "$log" 2>&1 || status=$?
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
    [[ "$outcome" == passed && -z "${KEEP_LOGS:-}" ]] && rm -f "$log"
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
if ((observe)) && ! compgen -G "$logs/observations-*" > /dev/null; then
    echo "run.sh: no observation file was written (a run that crashes or traps writes none)"
elif ((observe)); then
    # The table: per type, the contexts, instances and steps observed and the conclusion. propose when the
    # tool has it (PROPOSE_TOOL names another build of it, e.g. a branch's); the harness's script (the
    # same conclusion rules) in any case, for the columns it adds.
    propose_tool="${PROPOSE_TOOL:-$tool}"
    if "$propose_tool" propose --help > /dev/null 2>&1; then
        "$propose_tool" propose "$logs"/observations-* --output "$logs/proposal.json" | tee "$logs/proposal.txt" || true
    else
        echo "run.sh: $propose_tool has no propose subcommand: the table is observations.py's alone"
    fi
    python3 "$here/observations.py" "$logs"/observations-* | tee "$logs/table.md"
    echo "run.sh: observation files in $logs/observations-*, the table in $logs/table.md"
fi
echo "runs: $runs, crashed: $crashed, failed: $failed, timed out: $timed_out, passed: $((runs - crashed - failed - timed_out))"

#!/usr/bin/env bash
# Checks the committed malloc thresholds (Thresholds/CheckCost.*.p90.json): a check must not allocate.
#
#   Benchmarks/scripts/check-malloc-thresholds.sh              # check the release build (exit 1 on a regression)
#   Benchmarks/scripts/check-malloc-thresholds.sh --checks-on  # check the build with the debug tier on (ChecksOn trait)
#   Benchmarks/scripts/check-malloc-thresholds.sh --update     # re-record the thresholds after a deliberate change
#
# The same committed files serve both builds: with its checks on, a check must allocate no more than
# the release build without them. Neither build has swift-nio (the NIOComparison trait is off by
# default; only scripts/benchmarks.sh, in .build-nio, measures the NIO rows): the thresholds are about
# the library, and CI does not compile swift-nio for them.
# Only the malloc count is checked, because it is deterministic; wall-clock thresholds would fail on a
# shared machine for reasons that have nothing to do with the code. Each CheckCost iteration makes
# 1,000,000 accesses, so one allocation per access would show as +1,000,000; the tolerance (5 per
# iteration, set in CheckCost.swift) only absorbs the benchmark runner's own allocations.
set -euo pipefail
cd "$(dirname "$0")/.."

common=(--target CheckCost --metric mallocCountTotal --no-progress)
build=()
case "${1:-}" in
    "") ;;
    --update)
        exec swift package --disable-sandbox --allow-writing-to-package-directory benchmark thresholds update "${common[@]}" ;;
    --checks-on)
        build=(--traits ChecksOn --scratch-path .build-checks) ;;
    *)
        echo "check-malloc-thresholds.sh: unknown option '$1' (use --checks-on, or --update to re-record)" >&2
        exit 64 ;;
esac

status=0
# A few iterations per benchmark: the malloc count does not change between them (CheckCost.swift).
SCHEDULABLE_BENCHMARK_QUICK=1 swift package "${build[@]}" --disable-sandbox benchmark thresholds check "${common[@]}" \
    || status=$?
case "$status" in
    0) echo "malloc thresholds: every check allocates as recorded" ;;
    4) echo "malloc thresholds: fewer allocations than recorded (improvement); consider --update" ;;
    *) echo "malloc thresholds: REGRESSION (exit $status): a check allocates more than recorded" >&2; exit 1 ;;
esac

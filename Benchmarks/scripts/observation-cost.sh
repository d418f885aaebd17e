#!/usr/bin/env bash
# What observing owners costs per check (Confinement.observed(), the observe level): builds KernelRunner
# with the ChecksOn trait (release + ReleaseChecks), runs `KernelRunner observe`, and writes its table
# into README.md's "observation-cost.sh" block. benchmarks.sh runs it too.
#
#   Benchmarks/scripts/observation-cost.sh [checks per loop]
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --disable-sandbox -c release --traits ChecksOn --scratch-path .build-checks --product KernelRunner >/dev/null
.build-checks/release/KernelRunner observe "${1:-200000}" \
    | awk -F'\t' '{ printf "%s\t%.1f\n", $1, $2 }' \
    | python3 scripts/readme_block.py observation-cost.sh "Check" "ns per check" \
        --caption "release + ReleaseChecks; median of 5 timed loops"

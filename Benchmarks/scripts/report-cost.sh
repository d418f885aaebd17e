#!/usr/bin/env bash
# What a delivered report costs the violating thread (violation made, text built; the whole reporting
# path a printing handler, the JSON Lines sink or a test failure takes): builds KernelRunner with the
# ChecksOn trait, runs `KernelRunner report` with the default stack (8 frames) and without one, each in
# a process of its own, and writes the table into README.md's "report-cost.sh" block. The first report
# of a process symbolicates (reads the image's debug information); later ones from the same site use
# what it found. benchmarks.sh runs it too.
#
#   Benchmarks/scripts/report-cost.sh [reports]
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --disable-sandbox -c release --traits ChecksOn --scratch-path .build-checks --product KernelRunner >/dev/null
for depth in 8 0; do
    .build-checks/release/KernelRunner report "$depth" "${1:-2000}"
done | awk -F'\t' '{ split($2, depth, " "); split($3, first, " "); split($4, then, " ");
        printf "stack of %s frames\t%.1f ms\t%.1f µs\n", depth[2], first[2] / 1e6, then[2] / 1e3 }' \
    | python3 scripts/readme_block.py report-cost.sh "Report" "the process's first" "each later one (median)" \
        --caption "release + ReleaseChecks; one process per row"

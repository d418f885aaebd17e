#!/usr/bin/env bash
# What a report costs: `KernelRunner report` builds each report's whole text where the violation was
# made (what a test failure or a custom handler does); `KernelRunner report-warn` measures the violating
# thread alone under a `warn` policy that writes to standard error (here a file, as a service's log),
# whose reporting thread symbolicates and writes the text: once with the headline the violating thread
# writes itself turned off (`SCHEDULABLE_HEADLINES=off`, the cost before headlines) and once with it, in
# the same run. Builds KernelRunner with the ChecksOn trait, runs each with the default stack (8 frames)
# and without one, each in a process of its own, and writes the table into README.md's "report-cost.sh"
# block. The first report of a process symbolicates (reads the image's debug information); later ones
# from the same site use what it found. A repeat is a known site's later violation under `warn-once`,
# printed only at each doubling. benchmarks.sh runs it too.
#
#   Benchmarks/scripts/report-cost.sh [reports] [warn reports]
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --disable-sandbox -c release --traits ChecksOn --scratch-path .build-checks --product KernelRunner --quiet
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for depth in 8 0; do
    .build-checks/release/KernelRunner report "$depth" "${1:-2000}"
    for headlines in off on; do
        SCHEDULABLE_HEADLINES=$headlines .build-checks/release/KernelRunner report-warn "$depth" "${2:-500}" 2>"$log" \
            | sed "s/^report-warn/headlines-$headlines/"
    done
done | awk -F'\t' '{ split($2, depth, " "); split($3, first, " "); split($4, then, " "); split($5, site, " "); split($6, again, " ");
        what = $1 == "report" ? "text built on the violating thread" : "violating thread, `warn` policy (text built on the reporting thread), headlines " substr($1, 11)
        repeat = $1 == "report" ? "—" : sprintf("%.1f µs", again[2] / 1e3)
        printf "%s, stack of %s frames\t%.3f ms\t%.1f µs\t%.1f µs\t%s\n", what, depth[2], first[2] / 1e6, then[2] / 1e3, site[3] / 1e3, repeat }' \
    | python3 scripts/readme_block.py report-cost.sh "Report" "the process's first" "each later one, same site (median)" \
        "a new site (median of 8)" 'a repeat of a known site, `warn-once` (median)' \
        --caption "release + ReleaseChecks; one process per row"

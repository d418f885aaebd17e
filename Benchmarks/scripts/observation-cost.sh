#!/usr/bin/env bash
# What observing owners costs per check (Confinement.observed(), the observe level): builds KernelRunner
# with the ChecksOn trait (release + ReleaseChecks), runs `KernelRunner observe`, and writes its table
# into README.md's "observation-cost.sh" block. benchmarks.sh runs it too.
#
#   Benchmarks/scripts/observation-cost.sh [checks per loop]
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --disable-sandbox -c release --traits ChecksOn --scratch-path .build-checks --product KernelRunner >/dev/null
rows=$(.build-checks/release/KernelRunner observe "${1:-200000}")
python3 - "$rows" <<'PY'
import datetime, sys
rows = [line.split("\t") for line in sys.argv[1].splitlines() if "\t" in line]
now = datetime.datetime.now(datetime.timezone.utc)
begin, end = "<!-- observation-cost.sh -->", "<!-- /observation-cost.sh -->"
lines = [begin,
         f"`Benchmarks/scripts/observation-cost.sh`, {now:%H:%M} UTC on {now:%Y-%m-%d} (release + ReleaseChecks; "
         "ns per check, median of 5 timed loops):", "",
         "| Check | ns per check |", "|---|---:|"]
lines += [f"| {name} | {float(ns):.1f} |" for name, ns in rows]
lines.append(end)
with open("README.md") as handle:
    text = handle.read()
start, stop = text.find(begin), text.find(end)
if start < 0 or stop < start:
    sys.exit(f"observation-cost.sh: README.md has no '{begin}' … '{end}' block")
with open("README.md", "w") as handle:
    handle.write(text[:start] + "\n".join(lines) + text[stop + len(end):])
print("\n".join(lines))
PY

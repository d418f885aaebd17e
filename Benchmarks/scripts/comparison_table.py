#!/usr/bin/env python3
"""Turns one benchmark run into the comparison table printed by scripts/benchmarks.sh.

Inputs (all from the same invocation of benchmarks.sh, on the same machine, minutes apart):
  --release   influx export of `swift package benchmark` (CheckCost + SchedulerHops), library built -O
              with its debug tier compiled out (the default release build)
  --checks    influx export of the CheckCost target built with the ChecksOn trait (library -O with
              its ReleaseChecks trait: the debug tier stays on)
  --instr-release / --instr-checks   scripts/instructions.sh output for the two builds (optional)
  --workload  scripts/workload.sh output (a Markdown table), included as printed (optional)
  --readme    a Markdown file whose block between the `<!-- benchmarks.sh: latest run -->` and
              `<!-- /benchmarks.sh: latest run -->` markers is replaced by this run's tables
              (benchmarks.sh passes Benchmarks/README.md after a full run)

Wall-clock ratios are taken within one run only (each run has its own plain-access and
DispatchQueue.async baselines); absolute times vary from run to run on a shared VM.
"""
import argparse
import csv
import datetime
import platform
import subprocess
import sys

MEGA = 1_000_000


def read_influx(path):
    """{(benchmark, metric, percentile): value} from the runner's influx export (unscaled values)."""
    data = {}
    with open(path) as handle:
        lines = [line for line in handle if not line.startswith("#")]
    for row in csv.DictReader(lines):
        if not row.get("test"):
            continue
        key = (row["measurement"], row["test"], row["metric"], float(row["percentile"]))
        data[key] = float(row["value"])
    return data


def read_instructions(path):
    if not path:
        return {}
    result = {}
    with open(path) as handle:
        for line in handle:
            name, value = line.rstrip("\n").split("\t")
            result[name] = float(value)
    return result


def value(data, target, name, metric, percentile):
    return data.get((target, name, metric, percentile))


CHECK_ROWS = [
    ("plain", "plain stored property (no check)"),
    ("confined", "`@Confined` property"),
    ("assertIsolated", "`assertIsolated()` + read"),
    ("preconditionIsolated", "`preconditionIsolated()` + read"),
    ("isIsolated", "`isIsolated` + read"),
    ("schedulerBound", "`SchedulerBound.value` (box in a `let`)"),
    ("schedulerBoundInVar", "`SchedulerBound.value` (box in a class `var`)"),
    ("dispatchPrecondition", "`dispatchPrecondition(.onQueue)`"),
    ("getSpecific", "`DispatchQueue.getSpecific`"),
    ("isMainThread", "Foundation `Thread.isMainThread`"),
    ("nioLoopBound", "NIO `NIOLoopBound.value` on its loop"),
    ("actorPreconditionIsolated", "actor `preconditionIsolated()`"),
    ("actorAssumeIsolated", "actor `assumeIsolated { }`"),
    ("mutex", "`Mutex.withLock`"),
]
# The rows whose code the ReleaseChecks trait changes; the others are identical in both builds.
TRAIT_ROWS = ["plain", "confined", "assertIsolated"]

# Legitimate accesses that miss the fast path: (kernel, title, build whose row matters).
SLOW_ROWS = [
    ("confinedRawQueue", "`@Confined`, raw work on the owner's queue", "checks"),
    ("preconditionIsolatedRawQueue", "`preconditionIsolated()`, raw work on the owner's queue", "release"),
    ("schedulerBoundRawQueue", "`SchedulerBound.value`, raw work on the owner's queue", "release"),
    ("confinedOnBranch", "`@Confined`, tree-owned, used on a branch", "checks"),
]
SLOW_TARGET_NS = 30

# Creating (and freeing) one object: the protected ones made in their owner's work (a fixed owner's
# common case), off it (a construction window opens), in a task, and for changing hands.
CREATE_ROWS = [
    ("createPlain", "plain class, two `Int` properties"),
    ("createConfinedOnOwner", "the same, `Confinement(owner:)` + two `@Confined`, made in its owner's work"),
    ("createConfined", "the same, made off its owner (a construction window opens)"),
    ("createTransferable", "the same, `Confinement.transferable(owner:)` (changes hands: a record of its own)"),
    ("createSchedulerBound", "the same with two `SchedulerBound<Int>`"),
    ("createSchedulableObject", "a plain object wrapped in `SchedulableObject`"),
    ("createConfinedInTask", "the protected object, created in a task on the cooperative pool"),
]
# Rows without a target: the plain object, the wrapper object, and a transferable confinement, which
# the issue lets pay for a record of its own.
NO_TARGET = ("createPlain", "createSchedulableObject", "createTransferable")
# Issue targets per build: (extra mallocs per object, extra bytes, creation ratio).
CREATE_TARGETS = {"release": (0, 16, 1.3), "checks": (1, 64, 3.0)}

HOP_ROWS = [
    ("dispatchAsync", "`DispatchQueue.async`"),
    ("queueScheduler", "`SerialQueueScheduler.schedule`"),
    ("threadScheduler", "`ThreadScheduler.schedule`"),
    ("nioExecute", "NIO `EventLoop.execute`"),
    ("actorAwait", "actor: awaited call from a task"),
    ("actorChildTasks", "actor: one child task per call"),
]
ROUND_TRIP_ROWS = [
    ("dispatchSync", "`DispatchQueue.sync`"),
    ("queueSchedulerSync", "`SerialQueueScheduler.sync`"),
    ("threadSchedulerSync", "`ThreadScheduler.sync`"),
    ("nioSubmitWait", "NIO `EventLoop.submit { }.wait()`"),
    ("queueSchedulerFuturePresent", "`SerialQueueScheduler` future + present"),
    ("threadSchedulerFuturePresent", "`ThreadScheduler` future + present"),
    ("dispatchPingPong", "`DispatchQueue` A.async → B.async → signal"),
    ("queueSchedulerPingPong", "`SerialQueueScheduler` A → B → signal"),
    ("threadSchedulerPingPong", "`ThreadScheduler` A → B → signal"),
    ("nioPingPong", "NIO loop A.execute → loop B.execute → signal"),
]


def fmt(number, digits=2):
    # `+ 0.0` after rounding: a count a hair below zero (the runner's own mallocs) prints 0.00, not -0.00.
    return "—" if number is None else f"{round(number, digits) + 0.0:.{digits}f}"


def check_table(out, data, instructions, label, names):
    wall = lambda n: value(data, "CheckCost", n, "Time(wallclock)", 50.0)
    mallocs = lambda n: value(data, "CheckCost", n, "Malloc(total)", 90.0)
    plain_ns = wall("plain") / MEGA if wall("plain") else None
    plain_instr = instructions.get("plain")
    out.append(f"\n**Check cost per access — {label}**\n")
    out.append("| Access | ns (p50) | × plain | ns over plain | instructions | × plain (instr.) | mallocs per 1M (p90) |")
    out.append("|---|---:|---:|---:|---:|---:|---:|")
    for name, title in CHECK_ROWS:
        if name not in names or wall(name) is None:
            continue
        ns = wall(name) / MEGA
        instr = instructions.get(name)
        out.append(
            f"| {title} | {fmt(ns)} | {fmt(ns / plain_ns)} | {fmt(ns - plain_ns)} | {fmt(instr, 1)} | "
            f"{fmt(instr / plain_instr if instr is not None and plain_instr else None)} | "
            f"{fmt(mallocs(name), 0)} |"
        )


def read_bytes(path):
    if not path:
        return {}
    with open(path) as handle:
        return {name: int(value) for name, value in (line.rstrip("\n").split("\t") for line in handle if line.strip())}


def slow_table(out, builds):
    out.append("\n**Legitimate slow paths: accesses that miss the fast path (settled record), per access**\n")
    out.append("| Access | build | ns (p50) | ns over plain | instructions | mallocs per 1M (p90) | target |")
    out.append("|---|---|---:|---:|---:|---:|---|")
    for name, title, build in SLOW_ROWS:
        data, instructions, label = builds[build]
        wall = value(data, "CheckCost", name, "Time(wallclock)", 50.0)
        plain = value(data, "CheckCost", "plain", "Time(wallclock)", 50.0)
        if wall is None or plain is None:
            continue
        ns, over = wall / MEGA, (wall - plain) / MEGA
        mallocs = value(data, "CheckCost", name, "Malloc(total)", 90.0)
        verdict = "met" if over <= SLOW_TARGET_NS and (mallocs or 0) < 10 else "missed"
        out.append(f"| {title} | {label} | {fmt(ns)} | {fmt(over)} | {fmt(instructions.get(name), 1)} | "
                   f"{fmt(mallocs, 0)} | ≤ {SLOW_TARGET_NS} ns, no lock, 0 mallocs: **{verdict}** |")


def object_cost(builds, footprints, build, name):
    """One creation row of one build: (ns, × plain, mallocs per object, extra mallocs, bytes, extra
    bytes, whether the issue's target is met or None where the row has no target), or None when the
    run did not measure it."""
    data = builds[build][0]
    plain = value(data, "CheckCost", "createPlain", "Time(wallclock)", 50.0)
    plain_mallocs = value(data, "CheckCost", "createPlain", "Malloc(total)", 90.0)
    wall = value(data, "CheckCost", name, "Time(wallclock)", 50.0)
    mallocs = value(data, "CheckCost", name, "Malloc(total)", 90.0)
    if wall is None or plain is None:
        return None
    ratio = wall / plain
    per_object = mallocs / MEGA if mallocs is not None else None
    extra_mallocs = (mallocs - plain_mallocs) / MEGA if mallocs is not None and plain_mallocs else None
    sizes = footprints.get(build, {})
    size, extra = sizes.get(name), None
    if size is not None and "createPlain" in sizes:
        extra = size - sizes["createPlain"]
    met = None  # no target, or not measured (no malloc count, no bytes file)
    if name not in NO_TARGET and extra_mallocs is not None and extra is not None:
        max_mallocs, max_bytes, max_ratio = CREATE_TARGETS[build]
        met = extra_mallocs <= max_mallocs + 0.01 and extra <= max_bytes and ratio <= max_ratio
    return wall / MEGA, ratio, per_object, extra_mallocs, size, extra, met


def create_table(out, builds, footprints):
    out.append("\n**Per object: create and free one object**\n")
    out.append("| Object | build | ns (p50) | × plain | mallocs per object | bytes (heap) | extra bytes | "
               "target (extra mallocs, bytes, ×) |")
    out.append("|---|---|---:|---:|---:|---:|---:|---|")
    for build in ("release", "checks"):
        label = builds[build][2]
        for name, title in CREATE_ROWS:
            row = object_cost(builds, footprints, build, name)
            if row is None:
                continue
            ns, ratio, per_object, _, size, extra, met = row
            target = "—"
            if met is not None:
                max_mallocs, max_bytes, max_ratio = CREATE_TARGETS[build]
                target = f"{max_mallocs}, {max_bytes} B, {max_ratio}×: **{'met' if met else 'missed'}**"
            out.append(f"| {title} | {label} | {fmt(ns)} | {fmt(ratio)} | {fmt(per_object)} | "
                       f"{size if size is not None else '—'} | {extra if extra is not None else '—'} | {target} |")


# Issue 25's targets for the -Onone access (× a plain stored property; ns over the unchecked accessor).
DEBUG_TARGET_RATIO, DEBUG_TARGET_NS = 3.0, 10.0


def verdict(met):
    return "not measured" if met is None else f"**{'met' if met else 'missed'}**"


def workload_rows(path):
    """(label, ×, target ×, met) of each row of scripts/workload.sh's table. The verdict is the one
    workload.sh gave from its exact medians: the printed × is rounded to two places, and a ratio of
    1.104 printed as 1.10 is not within a ≤ ×1.10 target."""
    rows = []
    with open(path) as handle:
        for line in handle:
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            if len(cells) != 7 or not cells[6].startswith("≤ ×"):
                continue
            target, verdict_text = cells[6][len("≤ ×"):].split(":", 1)
            # The × from the medians as printed (three places), so that a ratio at the line shows why.
            rows.append((cells[0], float(cells[2]) / float(cells[3]), float(target), "**met**" in verdict_text))
    return rows


def targets_table(out, builds, footprints, debug_ns, debug_instr, workload):
    """Issue 25's targets beside this run's figures; every verdict is computed from them."""
    out.append("\n**Issue 25's targets, from this run**\n")
    out.append("| target | measured | met |")
    out.append("|---|---|---|")
    for build, label in (("release", "release"), ("checks", "release + debug tier")):
        max_mallocs, max_bytes, max_ratio = CREATE_TARGETS[build]
        for name, title in CREATE_ROWS:
            row = object_cost(builds, footprints, build, name) if builds[build][0] else None
            if row is None or name in NO_TARGET:
                continue
            _, ratio, _, extra_mallocs, _, extra, met = row
            out.append(f"| {label} object ({title}): ≤ {max_mallocs} extra mallocs, ≤ +{max_bytes} B, ≤ ×{max_ratio} | "
                       f"{fmt(extra_mallocs)} extra mallocs, +{extra if extra is not None else '—'} B, ×{fmt(ratio)} | "
                       f"{verdict(met)} |")
    plain_ns, plain_instr = debug_ns.get("plain"), debug_instr.get("plain")
    checked_ns, checked_instr = debug_ns.get("confined"), debug_instr.get("confined")
    unchecked_ns = debug_ns.get("uncheckedAccessor")
    if checked_ns is not None and plain_ns:
        ratio = checked_ns / plain_ns
        instr = f", ×{fmt(checked_instr / plain_instr)} in instructions" if checked_instr and plain_instr else ""
        out.append(f"| `-Onone`: checked `@Confined` read ≤ ×{DEBUG_TARGET_RATIO:g} a plain stored property | "
                   f"×{fmt(ratio)} in ns{instr} | {verdict(ratio <= DEBUG_TARGET_RATIO)} |")
    if checked_ns is not None and unchecked_ns is not None:
        over = checked_ns - unchecked_ns
        out.append(f"| `-Onone`: the check ≤ +{DEBUG_TARGET_NS:g} ns over the unchecked accessor | "
                   f"+{fmt(over, 1)} ns | {verdict(over <= DEBUG_TARGET_NS)} |")
    for label, ratio, target, met in workload_rows(workload) if workload else []:
        out.append(f"| workload, {label}: ≤ ×{target:.2f} | ×{fmt(ratio, 3)} | {verdict(met)} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--release", required=True)
    parser.add_argument("--checks")
    parser.add_argument("--instr-release")
    parser.add_argument("--instr-checks")
    parser.add_argument("--bytes-release")
    parser.add_argument("--bytes-checks")
    parser.add_argument("--storm")
    parser.add_argument("--observe")
    parser.add_argument("--debug-ns")
    parser.add_argument("--instr-debug")
    parser.add_argument("--workload")
    parser.add_argument("--readme")
    args = parser.parse_args()

    release = read_influx(args.release)
    checks = read_influx(args.checks) if args.checks else {}
    out = []
    cpu = subprocess.run(["sh", "-c", "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"],
                         capture_output=True, text=True).stdout.strip()
    swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()
    out.append(f"Machine: {platform.system()} {platform.machine()}, {cpu or 'unknown CPU'}, "
               f"{len(__import__('os').sched_getaffinity(0))} cores; {swift[0] if swift else 'swift ?'}; "
               "`-c release`. Wall clock: p50 of iterations of 1,000,000 accesses; instructions: callgrind, "
               "user-space only (system calls not counted).")

    check_table(out, release, read_instructions(args.instr_release),
                "release build (debug tier compiled out)", [n for n, _ in CHECK_ROWS])
    if checks:
        check_table(out, checks, read_instructions(args.instr_checks),
                    "release build + `ReleaseChecks` trait (debug tier on)", TRAIT_ROWS)

    builds = {
        "release": (release, read_instructions(args.instr_release), "release"),
        "checks": (checks, read_instructions(args.instr_checks), "release + ReleaseChecks"),
    }
    if checks:
        slow_table(out, builds)
        create_table(out, builds, {"release": read_bytes(args.bytes_release), "checks": read_bytes(args.bytes_checks)})

    hop = lambda n: value(release, "SchedulerHops", n, "Time(wallclock)", 50.0)
    hop_mallocs = lambda n: value(release, "SchedulerHops", n, "Malloc(total)", 50.0)
    base = hop("dispatchAsync")
    out.append("\n**SerialScheduler hop: 1,000,000 tiny events onto one serial context, then wait for the last**\n")
    out.append("| Hop | ns per event (p50) | × `DispatchQueue.async` | mallocs per event |")
    out.append("|---|---:|---:|---:|")
    for name, title in HOP_ROWS:
        if hop(name) is None:
            out.append(f"| {title} | not measured (not on `main` yet) | | |")
            continue
        out.append(f"| {title} | {fmt(hop(name) / MEGA, 1)} | {fmt(hop(name) / base if base else None)} | "
                   f"{fmt(hop_mallocs(name) / MEGA if hop_mallocs(name) is not None else None, 2)} |")

    trip50 = lambda n: value(release, "SchedulerHops", n, "Time(wallclock)", 50.0)
    trip99 = lambda n: value(release, "SchedulerHops", n, "Time(wallclock)", 99.0)
    sync = trip50("dispatchSync")
    out.append("\n**Round trip: one at a time, measured individually (latency)**\n")
    out.append("| Round trip | p50 µs | p99 µs | p50 × `DispatchQueue.sync` |")
    out.append("|---|---:|---:|---:|")
    for name, title in ROUND_TRIP_ROWS:
        if trip50(name) is None:
            out.append(f"| {title} | not measured (not on `main` yet) | | |")
            continue
        out.append(f"| {title} | {fmt(trip50(name) / 1000)} | {fmt(trip99(name) / 1000)} | "
                   f"{fmt(trip50(name) / sync if sync else None)} |")
    if args.debug_ns:
        debug_ns = read_instructions(args.debug_ns)
        debug_instr = read_instructions(args.instr_debug)
        base, base_instr = debug_ns.get("uncheckedAccessor"), debug_instr.get("uncheckedAccessor")
        out.append("\n**Debug build (`-Onone`, checks on by default): ns per access, median of 5 runs of 2,000,000**\n")
        out.append("| Access | ns | ns over the unchecked accessor | instructions | target |")
        out.append("|---|---:|---:|---:|---|")
        rows = [("plain", "plain stored property"), ("uncheckedAccessor", "the `@Confined` accessor shape, no check"),
                ("confined", "`@Confined` property (checked)"), ("assertIsolated", "`assertIsolated()` + read"),
                ("dispatchPrecondition", "`dispatchPrecondition(.onQueue)`")]
        for name, title in rows:
            ns = debug_ns.get(name)
            over = ns - base if ns is not None and base is not None else None
            target = "—"
            if name == "confined":
                target = f"≤ 10 ns over unchecked: **{'met' if over is not None and over <= 10 else 'missed'}**"
            out.append(f"| {title} | {fmt(ns, 1)} | {fmt(over, 1)} | {fmt(debug_instr.get(name), 0)} | {target} |")
    if args.storm:
        storm = {}
        with open(args.storm) as handle:
            for line in handle:
                if "\t" in line:
                    key, text = line.rstrip("\n").split("\t", 1)
                    storm[key] = text
        out.append("\n**Violation storm (`KernelRunner storm`, release + ReleaseChecks): "
                   f"{storm.get('storm', '?')} under a warn-every-time policy**\n")
        out.append("| ns per violation | violations per second | output | counted |")
        out.append("|---:|---:|---|---|")
        out.append(f"| {float(storm.get('ns per violation', 'nan')):.0f} | {storm.get('violations per second', '?')} | "
                   f"{storm.get('output', '?')} | {storm.get('counted', '?')} |")
    if args.observe:
        # KernelRunner observe: row, ns per check (medians of 5 timed loops, release + ReleaseChecks).
        rows = []
        with open(args.observe) as handle:
            for line in handle:
                if "\t" in line:
                    name, ns = line.rstrip("\n").split("\t", 1)
                    rows.append((name, float(ns)))
        out.append("\n**Observation (`KernelRunner observe`, release + ReleaseChecks): ns per check while "
                   "observing owners; only a miss records anything**\n")
        out.append("| Check | ns per check (median of 5) |")
        out.append("|---|---:|")
        for name, ns in rows:
            out.append(f"| {name} | {ns:.1f} |")
    if args.workload:
        # scripts/workload.sh's table, as it printed it (medians of its interleaved rounds).
        out.append("\n**Realistic workload (`scripts/workload.sh`): three confined services hopping between a "
                   "serial queue, a thread and main; checked vs unchecked builds**\n")
        with open(args.workload) as handle:
            out.append(handle.read().rstrip("\n"))
    if checks:
        targets_table(out, builds, {"release": read_bytes(args.bytes_release), "checks": read_bytes(args.bytes_checks)},
                      read_instructions(args.debug_ns), read_instructions(args.instr_debug), args.workload)
    print("\n".join(out))
    if args.readme:
        write_readme(args.readme, out)


README_BEGIN = "<!-- benchmarks.sh: latest run -->"
README_END = "<!-- /benchmarks.sh: latest run -->"


def write_readme(path, out):
    """Replaces the marked block of `path` with this run's tables, so the published tables are always
    one run's, side by side."""
    with open(path) as handle:
        text = handle.read()
    begin, end = text.find(README_BEGIN), text.find(README_END)
    if begin < 0 or end < begin:
        sys.exit(f"comparison_table.py: '{path}' has no '{README_BEGIN}' … '{README_END}' block to replace")
    now = datetime.datetime.now(datetime.timezone.utc)
    header = (f"Latest run (`Benchmarks/scripts/benchmarks.sh`, {now:%H:%M} UTC on {now:%Y-%m-%d}; one run, so "
              "every ratio below is side by side — wall-clock rows are noisy on a shared VM, instructions and "
              "mallocs are exact; rows with a target say whether this run met it):")
    block = "\n".join([README_BEGIN, header, ""] + out + [README_END])
    with open(path, "w") as handle:
        handle.write(text[:begin] + block + text[end + len(README_END):])
    print(f"comparison_table.py: wrote the tables into {path}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())

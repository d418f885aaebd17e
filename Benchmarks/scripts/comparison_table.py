#!/usr/bin/env python3
"""Turns one benchmark run into the comparison table printed by scripts/benchmarks.sh.

Inputs (all from the same invocation of benchmarks.sh, on the same machine, minutes apart):
  --release   influx export of `swift package benchmark` (CheckCost + SchedulerHops), library built -O
              with its debug tier compiled out (the default release build)
  --checks    influx export of the CheckCost target built with the ChecksOn trait (library -O with
              its ReleaseChecks trait: the debug tier stays on)
  --instr-release / --instr-checks   scripts/instructions.sh output for the two builds (optional)

Wall-clock ratios are taken within one run only (each run has its own plain-access and
DispatchQueue.async baselines); absolute times vary from run to run on a shared VM.
"""
import argparse
import csv
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
    ("queueSchedulerFuturePresent", "`SerialQueueScheduler` future + present"),
    ("threadSchedulerFuturePresent", "`ThreadScheduler` future + present"),
    ("dispatchPingPong", "`DispatchQueue` A.async → B.async → signal"),
    ("queueSchedulerPingPong", "`SerialQueueScheduler` A → B → signal"),
    ("threadSchedulerPingPong", "`ThreadScheduler` A → B → signal"),
    ("nioPingPong", "NIO loop A.execute → loop B.execute → signal"),
]


def fmt(number, digits=2):
    return "—" if number is None else f"{number:.{digits}f}"


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


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--release", required=True)
    parser.add_argument("--checks")
    parser.add_argument("--instr-release")
    parser.add_argument("--instr-checks")
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
    print("\n".join(out))


if __name__ == "__main__":
    sys.exit(main())

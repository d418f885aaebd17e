#!/usr/bin/env python3
"""Writes a table into README.md's block `<!-- NAME -->` … `<!-- /NAME -->`: the rows on standard input
(tab-separated: a row's name, then its values), under a caption naming the script and the time of the run.

    KernelRunner observe | python3 scripts/readme_block.py observation-cost.sh "Check" "ns per check" \
        --caption "release + ReleaseChecks; ns per check, median of 5 timed loops"
"""
import argparse
import datetime
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("name", help="the block's name (the script that writes it)")
    parser.add_argument("columns", nargs="+", help="the column headers")
    parser.add_argument("--caption", default="")
    args = parser.parse_args()
    rows = [line.rstrip("\n").split("\t") for line in sys.stdin if "\t" in line]
    now = datetime.datetime.now(datetime.timezone.utc)
    begin, end = f"<!-- {args.name} -->", f"<!-- /{args.name} -->"
    lines = [begin, f"`Benchmarks/scripts/{args.name}`, {now:%H:%M} UTC on {now:%Y-%m-%d} ({args.caption}):", "",
             "| " + " | ".join(args.columns) + " |", "|---" + "|---:" * (len(args.columns) - 1) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    lines.append(end)
    with open("README.md") as handle:
        text = handle.read()
    start, stop = text.find(begin), text.find(end)
    if start < 0 or stop < start:
        sys.exit(f"readme_block.py: README.md has no '{begin}' … '{end}' block")
    with open("README.md", "w") as handle:
        handle.write(text[:start] + "\n".join(lines) + text[stop + len(end):])
    print("\n".join(lines))


if __name__ == "__main__":
    sys.exit(main())

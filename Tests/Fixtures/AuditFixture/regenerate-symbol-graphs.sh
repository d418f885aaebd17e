#!/bin/sh
# Regenerates the trimmed symbol graphs the ScheduleAuditCore unit tests read, from the sources in
# Sources/AuditFixture, exactly as the plugin obtains them (getSymbolGraph with minimumAccessLevel
# .private for the audited module, .public for Schedulable). Run from anywhere; needs python3.
# Rerun after changing the fixture sources or when the symbol-graph format changes.
set -eu
fixture=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$fixture/../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/AuditFixture"
ln -s "$fixture/Sources" "$work/AuditFixture/Sources"
cat > "$work/AuditFixture/Package.swift" <<MANIFEST
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
    name: "AuditFixture", platforms: [.macOS(.v15)],
    dependencies: [.package(path: "$root")],
    targets: [.target(name: "AuditFixture", dependencies: [.product(name: "Schedulable", package: "$(basename "$root")")])]
)
MANIFEST
swift package --package-path "$work/AuditFixture" schedule-audit >/dev/null
graphs="$work/AuditFixture/.build/x86_64-unknown-linux-gnu/extracted-symbols"
python3 - "$graphs" "$fixture" "$work/AuditFixture/Sources/" <<'PY'
import json, pathlib, sys
graphs, fixture, sources = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), sys.argv[3]
def trim(path, facts_only):
    graph = json.loads(path.read_text())
    symbols = []
    for s in graph["symbols"]:
        if facts_only and s["kind"]["identifier"] not in ("swift.class", "swift.protocol", "swift.struct"):
            continue
        kept = {k: s[k] for k in ("kind", "identifier", "pathComponents", "names", "declarationFragments", "accessLevel", "location") if k in s}
        kept["kind"] = {"identifier": s["kind"]["identifier"]}
        kept["identifier"] = {"precise": s["identifier"]["precise"]}
        kept["names"] = {"title": s["names"]["title"]}
        if "location" in kept:
            # Stable, machine-independent paths; the tests map /fixture/ to this directory.
            kept["location"]["uri"] = kept["location"]["uri"].replace("file://" + sources, "file:///fixture/Sources/")
        symbols.append(kept)
    relations = [r for r in graph["relationships"] if not facts_only or r["kind"] in ("conformsTo", "inheritsFrom")]
    relations = [{k: r[k] for k in ("kind", "source", "target", "targetFallback") if k in r} for r in relations]
    return {"module": {"name": graph["module"]["name"]}, "symbols": symbols, "relationships": relations}
out = fixture / "symbol-graphs"
for name, sub, facts in (("AuditFixture", "module", False), ("Schedulable", "context", True)):
    (out / sub).mkdir(parents=True, exist_ok=True)
    source = next(graphs.glob(f"*/{name}/{name}.symbols.json"))
    (out / sub / f"{name}.symbols.json").write_text(json.dumps(trim(source, facts), indent=1, sort_keys=True) + "\n")
PY
echo "updated $fixture/symbol-graphs"

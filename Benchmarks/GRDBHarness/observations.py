#!/usr/bin/env python3
"""Part of Schedulable's GRDB harness (run.sh --observe): merges observation files and prints the table.

    observations.py <file-or-dir> ...

Each argument is an observation file (format schedulable-observations, version 1, described in the
"Adopting in an Existing Codebase" article) or a directory whose *.json files are all read. Files are
merged as the audit tool's `propose` merges them: contexts by kind and label, types by module and name.

Per type it prints the contexts that used its instances (by kind), the instances and steps kept, the
paths the kept instances took (context kinds in order, most frequent first), and one conclusion, by the
rules of `propose` (ProposingOwners.md, "The conclusions"), tried in this order: contradicted,
not-confinable, first-user, insufficient (the kept instances agree on one owner or hand-off, but a
member was used from a context they do not show), main, owner, hand-off. Written while `propose` was
on its own branch; kept for the columns `propose` does not print, and because it merges a generic
class's specializations (one record line) into one row, where `propose` gives each its own conclusion.
"""
import collections
import json
import os
import sys


def load(paths):
    files = []
    for path in paths:
        if os.path.isdir(path):
            files += sorted(os.path.join(path, n) for n in os.listdir(path) if n.endswith(".json"))
        else:
            files.append(path)
    types = collections.OrderedDict()
    for name in files:
        with open(name) as handle:
            data = json.load(handle)
        if data.get("format") != "schedulable-observations" or data.get("version", 0) > 1:
            sys.exit(f"observations.py: {name}: not a schedulable-observations file of version 1")
        contexts = {c["id"]: (c["kind"], c["label"]) for c in data["contexts"]}
        for entry in data["types"]:
            # A generic class is observed per specialization ('RowCursor' is not generic,
            # 'DatabaseValueCursor<Int>' is); its record line is the same, so its conclusion is one: merged.
            key = (entry.get("module", ""), entry["type"].split("<", 1)[0])
            merged = types.setdefault(key, {"record": entry["record"], "kept": 0, "droppedSteps": 0,
                                            "members": collections.defaultdict(dict), "instances": [],
                                            "contextsDropped": 0, "specializations": set()})
            merged["specializations"].add(entry["type"])
            merged["kept"] += entry["instances"]["kept"]
            merged["droppedSteps"] += entry["instances"]["droppedSteps"]
            for member in entry["members"]:
                for use in member["contexts"]:
                    merged["members"][member["member"]].setdefault(contexts[use["context"]], use.get("site"))
                merged["contextsDropped"] += member.get("contextsDropped", 0)
            for instance in entry["instanceSteps"]:
                steps = [(contexts[s["context"]], s["member"], s.get("site")) for s in instance["steps"]]
                merged["instances"].append({"steps": steps, "dropped": instance.get("stepsDropped", 0)})
    return files, types


def where(site):
    if not site:
        return "(no user frame)"
    text = f"{site['file']}:{site['line']}"
    return text + (f" {site['function']}" if site.get("function") else "")


def name(context):
    kind, label = context
    return "main thread" if kind == "main" else f"{kind} '{label}'"


def conclusion(entry):
    """The conclusion and its first piece of evidence, by propose's rules in propose's order."""
    record = entry["record"]
    instances = [i for i in entry["instances"] if i["steps"]]
    if record.get("kind") == "declared":
        if instances:
            first = instances[0]["steps"][0]
            return "contradicted", f"{name(first[0])} at {where(first[2])}"
        return "insufficient", "a declared type without a recorded miss"
    if not instances:
        return "insufficient", "no kept instance has a step"
    for instance in instances:
        steps = instance["steps"]
        seen = []
        for index, (context, member, site) in enumerate(steps):
            if context[0] == "pool":
                return "not-confinable", f"'{member}' used from a pool thread, {name(context)}, at {where(site)}"
            if index and context[0] in ("task", "thread"):
                before = steps[index - 1]
                return "not-confinable", (f"moves from {name(before[0])} at {where(before[2])} to {name(context)} "
                                          f"at {where(site)}, which no handOff(to:) can name")
            if context in seen:
                before = steps[index - 1]
                return "not-confinable", (f"returns to {name(context)} at {where(site)} {member} after "
                                          f"{name(before[0])} at {where(before[2])} {before[1]}: interleaved")
            seen.append(context)
    tasks = {i["steps"][0][0] for i in instances if i["steps"][0][0][0] == "task"}
    if len(tasks) > 1 and any(len(i["steps"]) > 1 for i in instances):
        return "not-confinable", "used from two tasks"
    moving = [i for i in instances if len(i["steps"]) > 1]
    firsts = {i["steps"][0][0] for i in instances}
    if not moving and (len(firsts) > 1 or next(iter(firsts))[0] == "task"):
        return "first-user", f"{len(instances)} instances, each used from one context only, {len(firsts)} contexts in all"
    # The kept instances agree on one owner or one hand-off: a context they do not show (an instance
    # beyond the limits used a member there) leaves the conclusion open.
    kept_contexts = {s[0] for i in instances for s in i["steps"]}
    for member, uses in entry["members"].items():
        for context, site in uses.items():
            if context not in kept_contexts:
                return "insufficient", (f"the kept instances agree, but '{member}' was also used from "
                                        f"{name(context)} at {where(site)} by an instance whose steps were not kept")
    if not moving:
        only = next(iter(firsts))
        if only[0] == "main":
            return "main", "every use on the main thread; this type could be @MainActor"
        return "owner", f"{name(only)}: every use of {len(instances)} instances"
    moves = collections.Counter((a[0], b[0]) for i in moving for a, b in zip(i["steps"], i["steps"][1:]))
    (a, b), count = moves.most_common(1)[0]
    start = name(next(iter(firsts))) if len(firsts) == 1 else "instances start in different contexts"
    return "hand-off", f"{start}; {len(moves)} distinct moves, e.g. {name(a)} -> {name(b)} ({count}x)"


def short(context):
    """A context in a path: its kind, and the label for a queue or scheduler (tasks and threads are many)."""
    kind, label = context
    return f"{kind} '{label}'" if kind in ("queue", "scheduler") else kind


def kinds(contexts):
    counts = collections.Counter(kind for kind, _ in contexts)
    return ", ".join(f"{kind} {counts[kind]}" for kind in sorted(counts))


def main(arguments):
    if not arguments:
        sys.exit(__doc__.strip().splitlines()[2])
    files, types = load(arguments)
    print(f"{len(types)} types from {len(files)} observation files; the paths of the kept instances follow the table\n")
    print("| Type | Contexts (by kind) | Instances kept (steps of later ones dropped) | Steps kept "
          "(instances that moved) | Conclusion | Evidence |")
    print("| --- | --- | --- | --- | --- | --- |")
    details = []
    for (module, type_name), entry in sorted(types.items(), key=lambda item: item[0][1]):
        contexts = {s[0] for i in entry["instances"] for s in i["steps"]}
        contexts |= {c for uses in entry["members"].values() for c in uses}
        steps = sum(len(i["steps"]) for i in entry["instances"])
        cut = sum(i["dropped"] for i in entry["instances"])
        moved = sum(1 for i in entry["instances"] if len(i["steps"]) > 1)
        kind, evidence = conclusion(entry)
        variants = len(entry["specializations"])
        type_name += f" ({variants} specializations)" if variants > 1 else ""
        print(f"| {type_name} | {kinds(contexts)} | {entry['kept']} ({entry['droppedSteps']}) "
              f"| {steps}{f' (+{cut} cut)' if cut else ''} ({moved}) | {kind} | {evidence} |")
        paths = collections.Counter(" -> ".join(short(s[0]) for s in i["steps"]) for i in entry["instances"])
        labels = collections.Counter(name(c) for c in contexts)
        details.append(f"{type_name}: paths of the kept instances: "
                       + "; ".join(f"{p} ({n})" for p, n in paths.most_common(6))
                       + f"\n    contexts: {', '.join(sorted(labels))[:600]}")
    print()
    print("\n".join(details))


if __name__ == "__main__":
    main(sys.argv[1:])

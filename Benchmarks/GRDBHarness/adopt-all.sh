#!/usr/bin/env bash
# `schedule-audit-tool adopt --apply` on every class of a package's sources, one after the other in one
# copy, then `swift build` of that copy (issue 47, item 5: adopt's edits must be exact Swift, or a class
# is refused with a note before any edit). Out of the main test path: .ci/run never calls it.
#
#   Benchmarks/GRDBHarness/adopt-all.sh TOOL PACKAGE_COPY SOURCES_DIR [--no-build]
#
# TOOL: a built schedule-audit-tool. PACKAGE_COPY: a throwaway copy of the package (it is edited), whose
# manifest already depends on Schedulable. SOURCES_DIR: the sources inside it to adopt (GRDB: GRDB).
# Prints one line per class (adopted, nothing to change, or refused and why) and the counts.
set -uo pipefail
tool="$1"; package="$2"; sources="$package/$3"; build=1
[[ "${4:-}" == "--no-build" ]] && build=0
log="$package/adopt-all.log"; : > "$log"
# Class declarations, by name (`class func`/`class var` and the like are members, not classes).
mapfile -t names < <(find "$sources" -name '*.swift' -print0 | xargs -0 perl -ne '
    next if m{^\s*//};
    while (/\bclass\s+([A-Za-z_][A-Za-z0-9_]*)/g) {
        print "$1\n" unless $1 =~ /^(func|var|let|subscript|override|final|private|fileprivate|public|internal|open|required|convenience|static|nonisolated|init|deinit)$/;
    }' | sort -u)
adopted=0; unchanged=0; refused=0; notes=0
adopt_one() {
    local name="$1" out status
    out="$("$tool" adopt "$name" --sources "$sources" --apply 2>&1)"; status=$?
    printf '%s\n' "$out" >> "$log"
    if ((status != 0)) && [[ "$out" == *"is ambiguous: declared at"* ]]; then
        # Several types of that name: adopt each by its qualified name.
        grep -oE "\('[A-Za-z0-9_.]+'\)" <<< "$out" | tr -d "()'" | while read -r qualified; do adopt_one "$qualified"; done
        return
    fi
    # A type that shares a class's name, reached through its qualified name, is no class to adopt.
    if ((status != 0)) && [[ "$out" == *", not a class: "* ]]; then echo "not a class: $name"; return; fi
    if ((status != 0)); then echo "refused: $name: ${out##*error: }"; return; fi
    if [[ "$out" == *"nothing to change"* ]]; then echo "unchanged: $name"; else echo "adopted: $name"; fi
    grep -E ": note: skipped '[^']+\(" <<< "$out" | grep -vE "private methods|static or class|already guarded" | sed "s/^/  body note: /"
}
for name in "${names[@]}"; do adopt_one "$name"; done | tee "$package/adopt-all.summary"
summary="$package/adopt-all.summary"
echo "classes found: ${#names[@]}; adopted: $(grep -c '^adopted:' "$summary"); unchanged: $(grep -c '^unchanged:' "$summary"); refused: $(grep -c '^refused:' "$summary"); not a class: $(grep -c '^not a class:' "$summary"); methods left unguarded with a note (entry points, builders): $(grep -c '^  body note:' "$summary")"
((build)) || exit 0
started=$SECONDS
swift build --package-path "$package" > "$package/build.log" 2>&1; status=$?
echo "swift build: exit $status in $((SECONDS - started)) s; errors: $(grep -c ': error:' "$package/build.log"), warnings: $(grep -c ': warning:' "$package/build.log")"
exit $status

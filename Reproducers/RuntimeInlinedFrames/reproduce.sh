#!/usr/bin/env bash
# Builds libNested.so and libWrapped.so (swiftc -O -g) and the program that symbolicates their
# backtraces, runs it, then asks llvm-symbolizer about the same addresses.
#
#   reproduce.sh               exits 1 while the Runtime module gets the frame wrong (a failing test)
#   reproduce.sh --expect-bug  exits 1 once it gets it right (CI: the library's DWARF reader then
#                              has one reason fewer to exist; see README.md here)
set -euo pipefail
cd "$(dirname "$0")"
expect_bug=false
[ "${1:-}" = "--expect-bug" ] && expect_bug=true

if [ "$(uname -s)" != Linux ]; then
  echo "reproduce.sh: Linux only (the miss is in the module's ELF and DWARF path); nothing to do here"
  exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swiftc --version 2>&1 | head -1
for library in Nested Wrapped; do
  swiftc -O -g -parse-as-library -emit-library -emit-module -module-name "$library" "$library.swift" \
    -emit-module-path "$work/$library.swiftmodule" -o "$work/lib$library.so"
done
swiftc -g main.swift -I "$work" -L "$work" -lNested -lWrapped -Xlinker -rpath -Xlinker "$work" -o "$work/repro"
status=0
"$work/repro" | tee "$work/output" || status=$?
if [ "$status" -gt 1 ]; then
  echo "reproduce.sh: the program could not symbolicate (exit $status)" >&2
  exit 2
fi

if symbolizer=$(command -v llvm-symbolizer); then
  for library in libNested.so libWrapped.so; do
    address=$(sed -n "s/^  address in $library: //p" "$work/output")
    echo "llvm-symbolizer --inlines, $library $address (innermost first):"
    "$symbolizer" --obj="$work/$library" --inlines --pretty-print "$address" | sed '/^$/d; s/^/  /'
  done
fi

if [ "$status" -eq 1 ]; then
  echo "Reproduced: the Runtime module misses an inlined call that contains the address."
  $expect_bug && exit 0 || exit 1
fi
echo "Not reproduced: the Runtime module names every inlined frame and every line."
if $expect_bug; then
  echo "reproduce.sh: the toolchain's Runtime finds these inlined calls now. Re-measure the library's" >&2
  echo "DWARF reader against it (SCHEDULABLE_DISABLE_DWARF_READER) and update README.md here." >&2
  exit 1
fi

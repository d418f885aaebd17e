#!/usr/bin/env bash
# Checks that no kernel's loop builds or applies a key path, or calls `Confined`'s subscript, at -O.
#
# An access to a `@Confined` property goes through the wrapper's enclosing-instance subscript with two
# key paths. At -O that subscript must be inlined and the key paths folded into a field access; when
# the optimizer declines to inline an accessor (the setter did, outside loops, with the checks compiled
# in), every access calls `swift_getKeyPath` twice and `swift_modifyAtReferenceWritableKeyPath` once:
# ~40 ns instead of ~1. Instruction thresholds catch that only for kernels that exist, and a fast
# path that happens to be inlined into one loop can hide it, so this reads the machine code.
#
# For each kernel (`KernelRunner list`), the loop function and every function of the benchmark module
# it calls (recursively: a kernel may call a function per access, as a method would) are disassembled,
# demangled, and searched for `swift_*KeyPath*` runtime calls and calls of `Confined.subscript`.
#
#   Benchmarks/scripts/check-no-keypaths.sh                 # builds release and release + ChecksOn, checks both
#   Benchmarks/scripts/check-no-keypaths.sh <KernelRunner>  # checks one existing build
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -gt 0 ]; then
    runners=("$@")
else
    swift build -c release --product KernelRunner >/dev/null
    swift build -c release --traits ChecksOn --scratch-path .build-checks --product KernelRunner >/dev/null
    runners=(.build/release/KernelRunner .build-checks/release/KernelRunner)
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
forbidden='swift_[A-Za-z]*KeyPath|Confined(<[^>]*>)?\.subscript'
failures=0

for runner in "${runners[@]}"; do
    # The benchmark module's own functions (mangled), and their demangled names.
    nm "$runner" | awk '$2 ~ /^[tT]$/ && $3 ~ /CheckKernels/ {print $3}' | sort -u > "$work/symbols"
    xargs swift demangle < "$work/symbols" > "$work/demangled"
    "$runner" list > "$work/kernels"
    while IFS=$'\t' read -r kernel function _; do
        root=$(awk -v f="$function(" '{ split($0, parts, " ---> "); d = parts[2];
            if (index(d, "CheckKernels." f) == 1 || index(d, "CheckKernels.IsolatedModel." f) == 1) print parts[1] }' \
            "$work/demangled" | head -n 1)
        if [ -z "$root" ]; then
            echo "check-no-keypaths.sh: no symbol for '$function' (kernel '$kernel') in $runner" >&2
            exit 1
        fi
        # Walk the calls into the benchmark module's own functions, each function once.
        pending=("$root")
        : > "$work/seen"
        : > "$work/code"
        while [ ${#pending[@]} -gt 0 ]; do
            symbol=${pending[0]}
            pending=("${pending[@]:1}")
            grep -qxF "$symbol" "$work/seen" && continue
            echo "$symbol" >> "$work/seen"
            objdump -d --no-show-raw-insn --disassemble="$symbol" "$runner" | sed -n '/>:$/,$p' > "$work/function"
            cat "$work/function" >> "$work/code"
            while read -r callee; do
                grep -qxF "$callee" "$work/symbols" && pending+=("$callee")
            done < <(sed -n -E 's/.*(call|jmp) +[0-9a-f]+ <([^+>@]+)>$/\2/p' "$work/function" | sort -u)
        done
        if [ ! -s "$work/code" ]; then
            echo "check-no-keypaths.sh: empty disassembly for '$function' in $runner" >&2
            exit 1
        fi
        hits=$(swift demangle --simplified < "$work/code" | grep -E "(call|jmp) .*<[^>]*($forbidden)" || true)
        if [ -n "$hits" ]; then
            failures=$((failures + 1))
            echo "KEY PATH  $runner  $kernel ($(wc -l < "$work/seen") functions):"
            printf '%s\n' "$hits" | sed 's/^/    /'
        else
            printf 'ok        %-36s %-28s %s function(s)\n' "$runner" "$kernel" "$(wc -l < "$work/seen")"
        fi
    done < "$work/kernels"
done
if [ "$failures" -gt 0 ]; then
    echo "check-no-keypaths.sh: $failures kernel(s) build or apply a key path at -O (see above)" >&2
    exit 1
fi

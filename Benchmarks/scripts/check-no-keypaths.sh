#!/usr/bin/env bash
# Checks that no kernel's loop, and no function of the Workload, builds or applies a key path or calls
# `Confined`'s subscript at -O.
#
# An access to a `@Confined` property goes through the wrapper's enclosing-instance subscript with two
# key paths. At -O that subscript must be inlined and the key paths folded into a field access; when
# the optimizer declines to inline an accessor (the setter did, outside loops, with the checks compiled
# in), every access calls `swift_getKeyPath` twice and `swift_modifyAtReferenceWritableKeyPath` once:
# ~40 ns instead of ~1. Instruction thresholds catch that only for kernels that exist, and a fast
# path that happens to be inlined into one loop can hide it, so this reads the machine code.
#
# For each kernel (`KernelRunner list`, mapped to its symbol by scripts/kernel-symbols.sh), the loop
# function and every function of the benchmark module it calls (recursively: a kernel may call a
# function per access, as a method would) are disassembled, demangled, and searched for
# `swift_*KeyPath*` runtime calls and calls of `Confined.subscript`.
#
# The Workload (Sources/Workload: three services whose methods make 14 guarded accesses per id, as user
# code would) is checked whole: every function of its module, specialisations of the library's generics
# for its types included. The kernels call each accessor from a loop the optimizer sees; the
# Workload's methods are where a property's own accessor can stop being inlined (last found as every
# read calling `swift_readAtKeyPath`: ~8,800 instructions per id, x8 by wall clock).
#
#   Benchmarks/scripts/check-no-keypaths.sh                     # builds KernelRunner and Workload, release
#                                                               # and release + ChecksOn, checks all four
#   Benchmarks/scripts/check-no-keypaths.sh <binary>...         # checks existing builds: a path ending in
#                                                               # KernelRunner is checked per kernel, one
#                                                               # ending in Workload whole
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -gt 0 ]; then
    binaries=("$@")
else
    # --disable-sandbox as the benchmark plugin's builds have it (benchmarks.sh): SwiftPM passes it
    # to the compiler, and a build with other flags than the one before compiles every module again.
    swift build --disable-sandbox -c release --product KernelRunner >/dev/null
    swift build --disable-sandbox -c release --traits ChecksOn --scratch-path .build-checks --product KernelRunner >/dev/null
    swift build --disable-sandbox -c release --product Workload >/dev/null
    swift build --disable-sandbox -c release --traits ChecksOn --scratch-path .build-checks --product Workload >/dev/null
    binaries=(.build/release/KernelRunner .build-checks/release/KernelRunner .build/release/Workload
        .build-checks/release/Workload)
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
forbidden='swift_[A-Za-z]*KeyPath|Confined(<[^>]*>)?\.subscript'
failures=0

# Prints the calls and jumps in "$work/code" that reach a forbidden function, demangled.
forbidden_calls() {
    swift demangle --simplified < "$work/code" | grep -E "(call|jmp) .*<[^>]*($forbidden)" || true
}

check_kernels() {
    local runner=$1
    # The benchmark module's own functions (mangled).
    nm "$runner" | awk '$2 ~ /^[tT]$/ && $3 ~ /CheckKernels/ {print $3}' | sort -u > "$work/symbols"
    scripts/kernel-symbols.sh "$runner" > "$work/kernels"
    while IFS=$'\t' read -r kernel root _; do
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
            echo "check-no-keypaths.sh: empty disassembly for kernel '$kernel' in $runner" >&2
            exit 1
        fi
        hits=$(forbidden_calls)
        if [ -n "$hits" ]; then
            failures=$((failures + 1))
            echo "KEY PATH  $runner  $kernel ($(wc -l < "$work/seen") functions):"
            printf '%s\n' "$hits" | sed 's/^/    /'
        else
            printf 'ok        %-36s %-28s %s function(s)\n' "$runner" "$kernel" "$(wc -l < "$work/seen")"
        fi
    done < "$work/kernels"
}

check_workload() {
    local binary=$1
    # Every function of the Workload module, and the library's generics specialised for its types (their
    # mangled names spell the module too).
    nm "$binary" | awk '$2 ~ /^[tT]$/ && $3 ~ /8Workload/ {print $3}' | sort -u > "$work/symbols"
    # One disassembly of the whole binary; each kept function's lines prefixed with its symbol.
    objdump -d --no-show-raw-insn "$binary" | awk -v list="$work/symbols" '
        BEGIN { while ((getline line < list) > 0) keep[line] = 1 }
        /^[0-9a-f]+ <[^>]+>:$/ { name = $2; gsub(/^<|>:$/, "", name); inside = (name in keep); next }
        inside && NF > 0 { print name ":" $0 }
    ' > "$work/code"
    local functions
    functions=$(cut -d: -f1 "$work/code" | sort -u | wc -l)
    # The services must be there to be checked: their methods, or the batch loops they are inlined into.
    if [ "$functions" -lt 10 ] || ! grep -q 'Pipeline' <(swift demangle --simplified < "$work/symbols"); then
        echo "check-no-keypaths.sh: no Workload functions found in $binary ($functions)" >&2
        exit 1
    fi
    hits=$(forbidden_calls)
    if [ -n "$hits" ]; then
        failures=$((failures + 1))
        echo "KEY PATH  $binary  ($functions functions of the Workload module):"
        printf '%s\n' "$hits" | sed 's/^/    /'
    else
        printf 'ok        %-36s %-28s %s function(s)\n' "$binary" "Workload module" "$functions"
    fi
}

for binary in "${binaries[@]}"; do
    case "$binary" in
        *KernelRunner) check_kernels "$binary" ;;
        *Workload) check_workload "$binary" ;;
        *) echo "check-no-keypaths.sh: '$binary' is neither a KernelRunner nor a Workload build" >&2; exit 64 ;;
    esac
done
if [ "$failures" -gt 0 ]; then
    echo "check-no-keypaths.sh: $failures build(s) or kernel(s) build or apply a key path at -O (see above)" >&2
    exit 1
fi

#!/usr/bin/env bash
# Maps each kernel of a KernelRunner build to the mangled symbol of its loop function, for the scripts
# that count or read that function (instructions.sh: callgrind's --toggle-collect; check-no-keypaths.sh:
# objdump). One mapping, so the two cannot disagree on which function a kernel is.
#
# `KernelRunner list` prints `<kernel> TAB <loop function> TAB <name>`; the loop function is a free
# function of the CheckKernels module or a method of its `IsolatedModel`, and its symbol is the first
# (in mangled order) whose demangled name is `CheckKernels.<function>(` or
# `CheckKernels.IsolatedModel.<function>(` (specialisations, closures and merged copies begin otherwise).
#
#   usage: scripts/kernel-symbols.sh <KernelRunner>
#   prints: <kernel> TAB <mangled symbol> TAB <loop function>; exits 1 if a kernel has no symbol
set -euo pipefail

runner=${1:?usage: scripts/kernel-symbols.sh <KernelRunner>}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The module's own functions, mangled, each once; then `mangled ---> demangled`, in the same order.
nm "$runner" | awk '$2 ~ /^[tT]$/ && $3 ~ /CheckKernels/ { print $3 }' | sort -u > "$work/symbols"
xargs swift demangle < "$work/symbols" > "$work/demangled"
"$runner" list > "$work/kernels"

awk -F'\t' -v runner="$runner" '
    # First file: the demangled symbols.
    FNR == NR {
        split($0, parts, " ---> ")
        mangled[FNR] = parts[1]
        demangled[FNR] = parts[2]
        count = FNR
        next
    }
    # Second file: the kernels.
    {
        kernel = $1
        function_name = $2
        symbol = ""
        for (i = 1; i <= count && symbol == ""; i++) {
            if (index(demangled[i], "CheckKernels." function_name "(") == 1 ||
                index(demangled[i], "CheckKernels.IsolatedModel." function_name "(") == 1) {
                symbol = mangled[i]
            }
        }
        if (symbol == "") {
            printf "kernel-symbols.sh: no symbol for '\''%s'\'' (kernel '\''%s'\'') in %s\n", function_name, kernel, runner > "/dev/stderr"
            failed = 1
            exit 1
        }
        printf "%s\t%s\t%s\n", kernel, symbol, function_name
    }
    END { if (failed) exit 1 }
' "$work/demangled" "$work/kernels"

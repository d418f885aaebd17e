#!/usr/bin/env bash
# Checks out the oracle's corpus from the local bare repositories into Oracle/.corpus (git-ignored):
# real packages nobody shaped for the audit. Nothing of theirs is committed; this script is the corpus.
#
#   Oracle/scripts/fetch-corpus.sh [--subset]
#
# --subset: only the packages that CI's subset (ci-subset.txt, .ci/benchmarks' oracle step) takes
# files from. Prints one line per package: its directory and its Swift lines.
set -euo pipefail
cd "$(dirname "$0")/.."
repos=${SWIFT_PACKAGES:-/opt/swift-packages}
corpus=.corpus

# owner/name tag, one a line: the whole corpus.
all="apple/swift-nio 2.101.3
groue/GRDB.swift 7.10.0
apple/swift-collections 1.6.0
swiftlang/swift-syntax 602.0.0
pointfreeco/swift-dependencies 1.17.1
pointfreeco/swift-parsing 0.15.2
pointfreeco/swift-case-paths 1.10.0
vapor/vapor 4.122.3"
list=$all
if [ "${1:-}" = "--subset" ]; then
  list=$(while read -r repo tag; do
    if grep -q "^${repo#*/}-$tag/" ci-subset.txt; then echo "$repo $tag"; fi
  done <<< "$all")
fi
mkdir -p "$corpus"
while read -r repo tag; do
  dir="$corpus/${repo#*/}-$tag"
  if [ ! -d "$dir" ]; then
    git -C "$repos/$repo.git" rev-parse --verify -q "refs/tags/$tag" >/dev/null \
      || { echo "fetch-corpus: no tag '$tag' in $repos/$repo.git (tags: $(git -C "$repos/$repo.git" tag | tr '\n' ' '))" >&2; exit 1; }
    mkdir -p "$dir.partial"
    git -C "$repos/$repo.git" archive "$tag" | tar -x -C "$dir.partial"
    mv "$dir.partial" "$dir"
  fi
  lines=$(find "$dir" -name '*.swift' -print0 | xargs -0 cat | wc -l)
  echo "$dir $lines"
done <<< "$list"

#!/usr/bin/env bash
# Builds the oracle, fetches its corpus and compares the audit's front end with swift-syntax's parser
# over this repository's Swift sources and the corpus (Oracle/README.md says what is compared).
#
#   Oracle/scripts/oracle.sh            the whole corpus (fetch-corpus.sh's list)
#   Oracle/scripts/oracle.sh --subset   CI's subset (.ci/benchmarks' oracle step): the files under
#                                       the prefixes of Oracle/ci-subset.txt
#
# Fails on a disagreement not listed in Oracle/known-disagreements.txt, and on a listed one that no
# longer occurs (remove its line). Builds in debug, in Oracle/.build: a first build of swift-syntax
# takes minutes; the comparison then runs on what it built.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-}
swift build --scratch-path .build -Xswiftc -warnings-as-errors --product swift-audit-oracle
corpus=$(scripts/fetch-corpus.sh $mode | awk '{ print $1 }')
# This repository's own Swift sources, each folder a root of its own.
own="../Sources ../Tests ../Plugins ../Examples ../Benchmarks ../Adapters ../Reproducers"
only=()
[ "$mode" = "--subset" ] && only=(--only ci-subset.txt)
# shellcheck disable=SC2086
.build/debug/swift-audit-oracle --known known-disagreements.txt ${only[@]+"${only[@]}"} $own $corpus

#!/usr/bin/env bash
# Counts the instructions the one-core loop (IngestBench cpu: inflate, validate, fold, redact) spends per batch,
# under valgrind's callgrind, counting only inside `loopStep`, which runs those four steps for one batch. (Callgrind
# turns counting on and off at every entry to and exit from a function the pattern matches, so the pattern must match
# one function and nothing it calls or contains.) Unlike time, the count does not move with
# this machine's speed, so two builds can be compared in one run each; it does not see cache misses or the
# cost of atomic reference counting, so confirm a change with compare-ingest.sh too. It counts on 2,000 realistic
# batches (`IngestBench generate`); counts recorded before 2026-11-29 were taken on the light shape (`--light`).
# Needs Debian's valgrind and libdeflate-dev (IngestBench links it).
# Usage: Benchmarks/count-instructions.sh [INGESTBENCH_BINARY] [seconds]
set -euo pipefail
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bench=${1:-}
if [ -z "$bench" ]; then
    swift build -c release --product IngestBench >/dev/null
    bench=.build/release/IngestBench
fi
"$bench" generate "$work/batches" 2000 >/dev/null
valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" --collect-atstart=no \
    --toggle-collect='*loopStep*' \
    "$bench" cpu "$work/batches" "${2:-8}" >"$work/loop.txt" 2>"$work/valgrind.txt"
batches=$(awk 'NR == 1 { print $2 }' "$work/loop.txt")
instructions=$(awk '/^(summary|totals):/ { print $2; exit }' "$work/callgrind.out")
echo "$batches batches under callgrind: $((instructions / batches / 1000)) k instructions per batch"

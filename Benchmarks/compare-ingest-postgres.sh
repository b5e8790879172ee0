#!/usr/bin/env bash
# Compares two collector binaries on PostgreSQL in one session, interleaved, on this machine's moving speed: each
# round runs each binary as REPLICAS replicas behind nginx (run-ingest-postgres.sh's set-up) on a fresh schema, for
# 10 s at 32 connections, counting the folds that follow, then for 10 s at RATE batches/s offered at a fixed rate
# (ingest-fixed-rate.lua) with batches of their own. It prints the folded rate and the CPU per folded batch of the
# collectors and of PostgreSQL, which move less with the machine's speed than throughput does.
# The batches are realistic ones from `IngestBench generate` (the distributions of shared/bench/realistic_batches.py:
# 100 reports of 30 skewed groups, about 6 KB deflate and 37 KB JSON each). Needs Debian's postgresql, nginx and wrk.
# Usage: Benchmarks/compare-ingest-postgres.sh BEFORE_BINARY AFTER_BINARY [rounds] [replicas] [batches/s offered]
set -euo pipefail
before=$(realpath "$1")
after=$(realpath "$2")
cd "$(dirname "$0")"
rounds=${3:-3}
replicas=${4:-3}
rate=${5:-250}
source ./postgres-replicas.sh
# Enough distinct batches for 10 s at 2,000 batches/s (PostgreSQL replicas have folded at most about 900 here).
count=20000

swift build -c release --product IngestBench >/dev/null
.build/release/IngestBench generate "$work/batches" $count >/dev/null
.build/release/IngestBench generate "$work/paced" $count --seed 2 >/dev/null
postgres_start

# measure BINARY SCHEMA: the full-rate run, its folded rate and CPU per batch, then the paced run's latency.
measure() {
    replicas_start "$1" "$2" "$replicas"
    local postgres_before collectors_before
    postgres_before=$(postgres_cpu_ticks)
    collectors_before=$(replicas_cpu_ticks)
    wrk -t2 -c32 -d10s -s ingest.lua http://127.0.0.1:18099 -- "$work/batches" $count 2 >/dev/null
    # Not in a subshell: it sets folded_rate and stored_batches.
    replicas_folded "$2" 10 >/dev/null
    echo -n "full rate $folded_rate batches/s folded, $(replicas_cpu_per_batch "$collectors_before" "$postgres_before"); "
    wrk -t2 -c32 -d10s --latency -s ingest-fixed-rate.lua http://127.0.0.1:18099 -- "$work/paced" $count 2 "$rate" |
        awk -v rate="$rate" '$1 ~ /^(50|99)(\.000)?%$/ { p[$1 + 0] = $2 } /^Sent late/ { late = $3 }
            END { printf "at %s batches/s offered p50 %s, p99 %s, %s sent late\n", rate, p[50], p[99], late }'
    replicas_stop
}

for round in $(seq 1 "$rounds"); do
    echo "== round $round: $(.build/release/IngestBench cpu "$work/batches" 5)"
    for label in before after; do
        binary=$before
        [ $label = after ] && binary=$after
        echo "$label: $(measure "$binary" "${label}_$round")"
    done
done

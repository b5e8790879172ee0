#!/usr/bin/env bash
# Compares two collector binaries in one session, interleaved, on this machine's moving speed: each round
# runs the one-core loop for 5 s, then each binary on a fresh SQLite file for 10 s at 32 connections and for
# 10 s at a fixed offered rate (ingest-fixed-rate.lua). At full rate it also prints the
# collector's CPU time per stored batch, which moves less with the machine's speed than throughput does.
# The batches are realistic ones from `IngestBench generate` (the distributions of shared/bench/realistic_batches.py:
# 100 reports of 30 skewed groups, about 6 KB deflate and 37 KB JSON each).
# Needs Debian's wrk, sqlite3 and libdeflate-dev (IngestBench links it).
# Usage: Benchmarks/compare-ingest.sh BEFORE_BINARY AFTER_BINARY [rounds] [batches/s offered]
set -euo pipefail
before=$(realpath "$1")
after=$(realpath "$2")
cd "$(dirname "$0")"
source ./cpu-ticks.sh
rounds=${3:-3}
rate=${4:-450}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
# Enough distinct batches for 10 s at 4,000 batches/s (the fastest full rate seen on realistic batches was 1,056): a
# batch sent twice is a duplicate, answered without storing.
count=40000

swift build -c release --product IngestBench >/dev/null
.build/release/IngestBench generate "$work/batches" $count >/dev/null

# Runs one binary on a fresh database with one wrk script; prints wrk's report, then the collector's CPU
# milliseconds (user and system) per batch stored.
measure() {
    rm -f "$work"/bench.sqlite*
    "$1" serve --port 18080 --db "$work/bench.sqlite" >"$work/serve.log" 2>&1 &
    local serve=$!
    sleep 1
    wrk -t2 -c32 -d10s --latency -s "$2" http://127.0.0.1:18080 -- "$work/batches" $count 2 $rate
    echo "cpu per batch: $(per_batch "$(cpu_ticks $serve)" "$(sqlite3 "$work/bench.sqlite" 'SELECT COUNT(*) FROM batches')")"
    kill $serve
    wait $serve 2>/dev/null || true
}

for round in $(seq 1 "$rounds"); do
    echo "== round $round: $(.build/release/IngestBench cpu "$work/batches" 5)"
    for label in before after; do
        binary=$before
        [ $label = after ] && binary=$after
        full=$(measure "$binary" ingest.lua | awk '/Requests\/sec/ { rate = $2 } /cpu per batch/ { cpu = $4 }
            END { printf "%s batches/s, %s ms CPU per batch", rate, cpu }')
        fixed=$(measure "$binary" ingest-fixed-rate.lua | awk '/Requests\/sec/ { rate = $2 } $1 ~ /^(50|99)(\.000)?%$/ { p[$1 + 0] = $2 }
            /^Sent late/ { late = $3 } END { printf "%s batches/s, p50 %s, p99 %s, %s sent late", rate, p[50], p[99], late }')
        echo "$label: full rate $full; at $rate batches/s offered $fixed"
    done
done

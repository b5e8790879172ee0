#!/usr/bin/env bash
# The retry storm alone, for alternating builds quickly: a new collector on an empty SQLite file (default serve
# flags), 1,024 connections for 20 s, each sending its next batch as soon as it has an answer, and GET /healthz on a
# new connection every 0.25 s. Prints the stored and refused batches and the probes' mean and slowest time.
# Usage: BATCHES=DIR Benchmarks/run-storm.sh BINARY...   (DIR/storm written by run-overload.sh: 48,000 batches)
set -euo pipefail
cd "$(dirname "$0")"
port=18091
url=http://127.0.0.1:$port
ulimit -n 20000 2>/dev/null || true
for binary in "$@"; do
    work=$(mktemp -d)
    "$binary" serve --port $port --db "$work/storm.sqlite" >"$work/serve.log" 2>&1 &
    serve=$!
    for _ in $(seq 100); do curl -s -o /dev/null "$url/healthz" && break; sleep 0.1; done
    wrk -t2 -c1024 -d20s --timeout 10s -s ingest.lua "$url" -- "$BATCHES/storm" 48000 2 >"$work/wrk.txt" &
    load=$!
    while kill -0 $load 2>/dev/null; do
        curl -s -o /dev/null -w '%{http_code} %{time_total}\n' --max-time 5 "$url/healthz" || echo "000 5"
        sleep 0.25
    done >"$work/probes.txt"
    metrics=$(curl -s "$url/metrics")
    count() { echo "$metrics" | awk -v name="$1" '/^decodewatch_ingest_batches_total/ && index($1, "\"" name "\"") { print int($2) }'; }
    awk -v binary="$binary" -v stored="$(count stored)" -v refused="$(count refused)" '
        { n++; total += $2; if ($2 > worst) worst = $2; if ($1 != 200) bad++ }
        END { printf "%s: stored %d, refused %d; /healthz %d probes, %d not 200, mean %.3f s, slowest %.3f s\n",
            binary, stored, refused, n, bad, total / n, worst }' "$work/probes.txt"
    kill "$serve"
    wait "$serve" 2>/dev/null || true
    rm -rf "$work"
done

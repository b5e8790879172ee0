#!/usr/bin/env bash
# Measures durable ingest with PostgreSQL and 1, 2 and 3 collector replicas behind nginx, after the references of
# the same run: the one-core decode loop, nginx answering 202 to the same bodies, and one collector on SQLite.
# Measured the way run-ingest.sh measures SQLite: distinct realistic deflate batches of 100 reports from
# `IngestBench generate` (the distributions of shared/bench/realistic_batches.py, about 6 KB deflate each), default
# serve flags (logging included), a 202 once the batch is in the log, the rate counting the folds that follow.
# PostgreSQL runs with its durable defaults (fsync and synchronous_commit on). Needs Debian's postgresql, nginx,
# wrk and libdeflate-dev (for IngestBench); run as root or as a user that may run PostgreSQL's initdb.
# INGEST_MODE=direct runs the collectors with
# `--ingest-mode direct`. After each full-rate run, the same replicas get half the rate they folded, offered at a
# fixed rate (ingest-fixed-rate.lua) with batches of their own, for their latency below capacity.
# Each full-rate run also prints CPU per stored batch (cpu-ticks.sh: user + system time from /proc, from just before
# wrk starts until its last batch is folded, over the batches stored in that run), the collectors' and, on
# PostgreSQL, PostgreSQL's own (its postmaster and the postmaster's children): with other work on this machine,
# throughput says more about that work than about ingest, CPU per batch much less.
# Usage: Benchmarks/run-ingest-postgres.sh [seconds] [connections]
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-10}
connections=${2:-16}
mode=${INGEST_MODE:-logged}
count=20000
source ./postgres-replicas.sh

swift build -c release --package-path .. --product decodewatch >/dev/null
swift build -c release --product IngestBench >/dev/null
.build/release/IngestBench generate "$work/batches" $count >/dev/null
# The paced runs send batches of their own: the full run's again would be duplicates, answered without storing.
.build/release/IngestBench generate "$work/paced" $count --seed 2 >/dev/null

echo "== CPU limit: inflate + validate + fold + redact, one core"
.build/release/IngestBench cpu "$work/batches" "$seconds"

echo "== HTTP limit: nginx answering 202 to the same batches"
cat >"$work/nginx-202.conf" <<NGINX
worker_processes 1;
pid $work/nginx-202.pid;
error_log $work/nginx-202-error.log;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $work/nginx-body;
  server {
    listen 127.0.0.1:18098;
    location /v1/reports { client_max_body_size 2m; return 202 '{"accepted":100,"rejected":[],"duplicate":false}'; }
  }
}
NGINX
nginx -c "$work/nginx-202.conf" -g 'daemon off;' &
reference_pid=$!
sleep 0.5
wrk -t2 -c"$connections" -d"${seconds}s" -s ingest.lua http://127.0.0.1:18098 -- "$work/batches" $count 2 |
    grep -E 'Requests/sec|Latency|requests in'
kill "$reference_pid"
wait "$reference_pid" 2>/dev/null || true

# The reference of the same run: one collector on SQLite, its default store, sent the same batches directly.
echo "== SQLite, one collector (reference)"
../.build/release/decodewatch serve --port 18100 --db "$work/bench.sqlite" --ingest-mode "$mode" \
    2>"$work/serve-sqlite.log" &
sqlite_pid=$!
sleep 1
sqlite_ticks=$(cpu_ticks "$sqlite_pid")
wrk -t2 -c"$connections" -d"${seconds}s" --latency -s ingest.lua http://127.0.0.1:18100 -- "$work/batches" $count 2 |
    grep -E 'Requests/sec|Latency|^ +99%|requests in|Non-2xx'
started=$(date +%s.%N)
while pending=$(curl -s http://127.0.0.1:18100/metrics |
    awk '/^decodewatch_ingest_pending_batches / { print int($2) }') && [ "${pending:-0}" -gt 0 ]; do
    sleep 0.02
done
wait_s=$(awk -v a="$(date +%s.%N)" -v b="$started" 'BEGIN { printf "%.2f", a - b }')
stored=$(curl -s http://127.0.0.1:18100/metrics |
    awk '/^decodewatch_ingest_batches_total\{outcome="stored"/ { print int($2) }')
echo "stored batches: $stored (x100 reports), the last folded $wait_s s after the run:" \
    "$(awk -v n="$stored" -v s="$seconds" -v w="$wait_s" 'BEGIN { printf "%.0f", n / (s + w) }') batches/s folded"
echo "CPU per stored batch: collector $(per_batch $(($(cpu_ticks "$sqlite_pid") - sqlite_ticks)) "$stored")"
kill "$sqlite_pid"
wait "$sqlite_pid" 2>/dev/null || true

postgres_start

for replicas in 1 2 3; do
    schema="bench_$replicas"
    replicas_start ../.build/release/decodewatch "$schema" "$replicas" --ingest-mode "$mode"
    echo "== PostgreSQL, $replicas replica(s) behind nginx"
    collectors_ticks=$(replicas_cpu_ticks)
    postgres_ticks=$(postgres_cpu_ticks)
    wrk -t2 -c"$connections" -d"${seconds}s" --latency -s ingest.lua http://127.0.0.1:18099 -- "$work/batches" $count 2 |
        grep -E 'Requests/sec|Latency|^ +99%|requests in|Non-2xx'
    replicas_folded "$schema" "$seconds"
    replicas_cpu_per_batch "$collectors_ticks" "$postgres_ticks"
    rate=$((folded_rate / 2))
    echo "== PostgreSQL, $replicas replica(s) at half that rate: $rate batches/s, offered at a fixed rate"
    wrk -t2 -c"$connections" -d"${seconds}s" --latency -s ingest-fixed-rate.lua http://127.0.0.1:18099 -- \
        "$work/paced" $count 2 "$rate" | grep -E 'Requests/sec|^ +(50|90|99)(\.000)?%|Non-2xx|Sent late'
    replicas_stop
done

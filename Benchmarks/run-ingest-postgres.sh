#!/usr/bin/env bash
# Measures durable ingest with PostgreSQL and 1, 2 and 3 collector replicas behind nginx, after the references of
# the same run: the one-core decode loop, nginx answering 202 to the same bodies, and one collector on SQLite.
# Measured the way run-ingest.sh measures SQLite: distinct realistic deflate batches of 100 reports from
# `IngestBench generate` (the distributions of shared/bench/realistic_batches.py, about 6 KB deflate each), default
# serve flags (logging included), a 202 once the batch is in the log, the rate counting the folds that follow.
# PostgreSQL runs with its durable defaults (fsync and synchronous_commit on). Needs Debian's postgresql, nginx and
# wrk; run as root or as a user that may run PostgreSQL's initdb. INGEST_MODE=direct runs the collectors with
# `--ingest-mode direct`. After each full-rate run, the same replicas get half the rate they folded, offered at a
# fixed rate (ingest-fixed-rate.lua) with batches of their own, for their latency below capacity.
# Usage: Benchmarks/run-ingest-postgres.sh [seconds] [connections]
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-10}
connections=${2:-16}
mode=${INGEST_MODE:-logged}
count=20000
work=$(mktemp -d)
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
as_owner=()
if [ "$(id -u)" -eq 0 ]; then chown postgres: "$work"; as_owner=(runuser -u postgres --); fi
cleanup() {
    kill $(jobs -p) 2>/dev/null || true
    "${as_owner[@]}" "$bin/pg_ctl" -D "$work/pg" -m fast stop >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

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
wrk -t2 -c"$connections" -d"${seconds}s" -s ingest.lua http://127.0.0.1:18100 -- "$work/batches" $count 2 |
    grep -E 'Requests/sec|Latency|requests in|Non-2xx'
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
kill "$sqlite_pid"
wait "$sqlite_pid" 2>/dev/null || true

"${as_owner[@]}" "$bin/initdb" -D "$work/pg" -U bench --auth=trust -E UTF8 >/dev/null
"${as_owner[@]}" "$bin/pg_ctl" -D "$work/pg" -l "$work/pg.log" -w \
    -o "-c listen_addresses=127.0.0.1 -p 55499 -k $work -c max_connections=200" start >/dev/null
url='postgres://bench@127.0.0.1:55499/postgres?sslmode=disable'

for replicas in 1 2 3; do
    schema="bench_$replicas"
    upstream=""
    for index in $(seq 1 "$replicas"); do
        port=$((18100 + index))
        ../.build/release/decodewatch serve --port $port --database-url "$url&schema=$schema" --ingest-mode "$mode" \
            2>"$work/serve-$replicas-$index.log" &
        upstream+="server 127.0.0.1:$port; "
    done
    sleep 2
    cat >"$work/nginx.conf" <<NGINX
worker_processes 1;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $work/nginx-body;
  upstream collectors { $upstream keepalive 64; }
  server {
    listen 127.0.0.1:18099;
    client_max_body_size 2m;
    location / { proxy_pass http://collectors; proxy_http_version 1.1; proxy_set_header Connection ""; }
  }
}
NGINX
    nginx -c "$work/nginx.conf" -g 'daemon off;' &
    nginx_pid=$!
    sleep 0.5
    echo "== PostgreSQL, $replicas replica(s) behind nginx"
    wrk -t2 -c"$connections" -d"${seconds}s" -s ingest.lua http://127.0.0.1:18099 -- "$work/batches" $count 2 |
        grep -E 'Requests/sec|Latency|requests in|Non-2xx'
    # A batch is acknowledged once it is in ingest_log and folded into the rollups in the background: wait until no
    # batch is left unfolded, so that the rate counts the folding too.
    started=$(date +%s.%N)
    while [ "$(psql -h 127.0.0.1 -p 55499 -U bench -d postgres -tAc \
        "SELECT COUNT(*) FROM $schema.ingest_log WHERE NOT folded")" -gt 0 ]; do
        sleep 0.05
    done
    wait_s=$(awk -v a="$(date +%s.%N)" -v b="$started" 'BEGIN { printf "%.2f", a - b }')
    stored=$(psql -h 127.0.0.1 -p 55499 -U bench -d postgres -tAc "SELECT COUNT(*) FROM $schema.batches")
    echo "stored batches: $stored (x100 reports), the last folded $wait_s s after the run:" \
        "$(awk -v n="$stored" -v s="$seconds" -v w="$wait_s" 'BEGIN { printf "%.0f", n / (s + w) }') batches/s folded"
    rate=$(awk -v n="$stored" -v s="$seconds" -v w="$wait_s" 'BEGIN { printf "%d", n / (s + w) / 2 }')
    echo "== PostgreSQL, $replicas replica(s) at half that rate: $rate batches/s, offered at a fixed rate"
    wrk -t2 -c"$connections" -d"${seconds}s" --latency -s ingest-fixed-rate.lua http://127.0.0.1:18099 -- \
        "$work/paced" $count 2 "$rate" | grep -E 'Requests/sec|^ +(50|90|99)(\.000)?%|Non-2xx|Sent late'
    kill "$nginx_pid"
    kill $(jobs -p) 2>/dev/null || true
    wait 2>/dev/null || true
done

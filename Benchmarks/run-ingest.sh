#!/usr/bin/env bash
# Measures ingest throughput of a release collector against two references run in the same session:
# nginx answering the same compressed batches (the HTTP limit) and a bare inflate + parse loop
# (the CPU limit). Then the collector's resident memory idle and at full load, and its latency at half
# the rate it reached, offered at a fixed rate (ingest-fixed-rate.lua), and the disk's fsync latency, the
# floor under it. Every collector run also prints the collector's CPU per stored batch (user + system time of the
# `decodewatch serve` process from /proc, from just before wrk starts until the run's last batch is folded, over the
# batches the collector counted as stored in that run): with other work on this machine, throughput says more about
# that work than about the collector, CPU per batch much less. The resident memory idle is taken after start and
# again 10 s after the last load, with the allocator the collector was run with (glibc malloc unless LD_PRELOAD).
# The batches are realistic ones from `IngestBench generate` (the distributions of shared/bench/realistic_batches.py,
# checked by check-workload.py: 100 reports of 30 skewed groups from raw endpoints with ids, about 6 KB deflate and
# 37 KB JSON each), each from one of 500 installs at random unless `installs` says otherwise; a large app's are
# nearly all different, which makes most install rows new (`run-ingest.sh 10 32 20000`: most batches from an install
# the collector has not seen).
# Needs Debian's wrk, nginx, curl and libdeflate-dev (IngestBench measures libdeflate's inflate), and python3; with
# Debian's libjemalloc2 it also measures the collector as the deploy files run it.
# Usage: Benchmarks/run-ingest.sh [seconds] [connections] [installs]
set -euo pipefail
cd "$(dirname "$0")"
source ./cpu-ticks.sh
seconds=${1:-10}
connections=${2:-32}
installs=${3:-500}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
# Enough distinct batches for a full rate of 4,000 batches/s and a half rate of 2,000 (the fastest full rate seen on
# realistic batches was 1,056): a batch sent twice is a duplicate, which the collector answers
# without storing, and `outcomes` below fails the run when one was.
count=$((seconds * 4000))
later=$((seconds * 2000))
# 125,000 reports/s: half the 250,000 a collector on two cores is expected to store, at which its p99 is expected to
# stay under 10 ms, whatever rate this host reached.
target=1250
# A tenth more than the run sends, as wrk may send a few past its time.
targetCount=$((seconds * target * 11 / 10))

swift build -c release --package-path .. --product decodewatch >/dev/null
swift build -c release --product IngestBench >/dev/null
.build/release/IngestBench generate "$work/batches" $count "$installs" --seed 1 >/dev/null
# The half-rate run sends batches of its own: the same ones again would be duplicates, which the collector answers
# without writing anything, and their latency is not a stored batch's. Another seed gives other batch ids.
.build/release/IngestBench generate "$work/later" $later "$installs" --seed 2 >/dev/null
.build/release/IngestBench generate "$work/target" $targetCount "$installs" --seed 3 >/dev/null

echo "== CPU limit: inflate + validate + fold + redact, one core"
.build/release/IngestBench cpu "$work/batches" "$seconds"

echo "== HTTP limit: nginx answering 202 to the same batches"
cat > "$work/nginx.conf" <<NGINX
worker_processes 1;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $work;
  server {
    listen 127.0.0.1:18081;
    location /v1/reports { client_max_body_size 2m; return 202 '{"accepted":100,"rejected":[],"duplicate":false}'; }
  }
}
NGINX
nginx -c "$work/nginx.conf" -g 'daemon off;' &
sleep 0.5
wrk -t2 -c"$connections" -d"${seconds}s" -s ingest.lua http://127.0.0.1:18081 -- "$work/batches" $count 2 | grep -E 'Requests/sec|Latency|requests in'
kill %1 2>/dev/null || true

# The running collector's batches so far by outcome, from its metrics; fails when any was a duplicate or refused,
# since then the figures above are not those of stored batches.
outcomes() {
    curl -s http://127.0.0.1:18080/metrics | awk '
        /^decodewatch_ingest_batches_total/ { split($1, a, "\""); n[a[2]] = $2 }
        END {
            printf "batches so far: %d stored (x100 reports), %d duplicate, %d refused\n", n["stored"], n["duplicate"], n["refused"]
            exit (n["duplicate"] + n["refused"] > 0)
        }'
}

# Waits until no acknowledged batch is left to fold, and prints how many seconds that took.
settle() {
    local started pending
    started=$(date +%s.%N)
    while pending=$(curl -s http://127.0.0.1:18080/metrics | awk '/^decodewatch_ingest_pending_batches / { print int($2) }') \
        && [ "${pending:-0}" -gt 0 ]; do
        sleep 0.02
    done
    awk -v a="$(date +%s.%N)" -v b="$started" 'BEGIN { print a - b }'
}

# The batches the running collector has stored so far, from its metrics.
stored() {
    curl -s http://127.0.0.1:18080/metrics |
        awk '/^decodewatch_ingest_batches_total\{outcome="stored"/ { n = $2 } END { print int(n) }'
}

# cpu_since TICKS STORED: the collector's CPU per batch stored since it had used TICKS and stored STORED.
cpu_since() {
    local ticks=$(($(cpu_ticks "$serve") - $1)) batches=$(($(stored) - $2))
    echo "collector CPU per stored batch: $(per_batch "$ticks" "$batches") ($ticks ticks, $batches batches)"
}

# On SQLite a batch is acknowledged once it is in the log of acknowledged batches, and folded into the rollups in
# the background: waits until none is pending, then prints how long that took and the rate counting it, so that
# the throughput includes the folding and the half-rate run starts with nothing left over.
folded() {
    local wait
    wait=$(settle)
    curl -s http://127.0.0.1:18080/metrics | awk -v wait="$wait" -v seconds="$seconds" '
        /^decodewatch_ingest_folded_batches_total / { folded = $2 }
        /^decodewatch_ingest_folds_total / { folds = $2 }
        END {
            if (folds == 0) exit
            printf "folded: %d batches in %d transactions of %.1f, the last %.2f s after the run: %.0f batches/s folded\n", \
                folded, folds, folded / folds, wait, folded / (seconds + wait)
        }'
}

# fixedRate DIR COUNT RATE: the running collector's latency with DIR's batches offered at RATE batches/s, then the
# batches so far by outcome, and its CPU per batch stored in this run, counting the folds after it.
fixedRate() {
    local ticks batches
    ticks=$(cpu_ticks "$serve")
    batches=$(stored)
    wrk -t2 -c"$connections" -d"${seconds}s" --latency -s ingest-fixed-rate.lua http://127.0.0.1:18080 -- \
        "$1" "$2" 2 "$3" | grep -E 'Requests/sec|^ +(50|90|99)(\.000)?%|Non-2xx|Sent late'
    outcomes
    settle >/dev/null
    cpu_since "$ticks" "$batches"
}

# collector LABEL [NAME=VALUE...]: a new collector (default flags, logging included) on a new file, with those
# variables in its environment: its RSS idle after start, at full load and 10 s after the last load, its rate and CPU
# per stored batch at full load, then its latency and CPU per stored batch at half the rate it reached.
collector() {
    local label=$1 allocator="glibc malloc" setting ticks batches
    shift
    for setting in "$@"; do
        if [[ $setting == LD_PRELOAD=* ]]; then allocator=${setting#LD_PRELOAD=}; fi
    done
    echo "== DecodeWatch collector (release, SQLite, default flags$label)"
    rm -f "$work"/bench.sqlite*
    env "$@" ../.build/release/decodewatch serve --port 18080 --db "$work/bench.sqlite" >"$work/serve.log" 2>&1 &
    serve=$!
    sleep 1
    rss() { awk '/VmRSS/ { printf "%.1f MiB", $2 / 1024 }' "/proc/$serve/status"; }
    echo "RSS idle after start ($allocator): $(rss)"
    ticks=$(cpu_ticks "$serve")
    batches=$(stored)
    wrk -t2 -c"$connections" -d"${seconds}s" --latency -s ingest.lua http://127.0.0.1:18080 -- "$work/batches" $count 2 \
        >"$work/full.txt" &
    sleep $((seconds * 2 / 3))
    echo "RSS at full load: $(rss)"
    wait $!
    grep -E 'Requests/sec|Latency|^ +99%|requests in|Non-2xx' "$work/full.txt"
    outcomes
    # Commits run one at a time: when they ran for the whole run (seconds), the commit chain set the rate.
    curl -s http://127.0.0.1:18080/metrics | awk '
        /^decodewatch_ingest_commit_duration_seconds_sum / { busy = $2 }
        /^decodewatch_ingest_batches_per_commit_sum / { stored = $2 }
        /^decodewatch_ingest_batches_per_commit_count / { commits = $2 }
        END { printf "commits: %d of %.1f batches on average, running for %.1f s in all\n", commits, stored / commits, busy }'
    folded
    cpu_since "$ticks" "$batches"
    awk '/Requests\/sec/ { rate = $2 } $1 == "99%" { p99 = $2 }
        END { printf "full rate: %.0f reports/s acknowledged, p99 %s\n", rate * 100, p99 }' "$work/full.txt"

    rate=$(awk '/Requests\/sec/ { print int($2 / 2) }' "$work/full.txt")
    echo "== The same collector at half that rate: $rate batches/s, offered at a fixed rate"
    fixedRate "$work/later" $later "$rate"
    if [ "$rate" -gt "$target" ]; then
        echo "== The same collector at $target batches/s (125,000 reports/s), offered at a fixed rate"
        fixedRate "$work/target" $targetCount "$target"
    fi
    sleep 10
    echo "RSS 10 s after the last load ($allocator): $(rss)"
    kill "$serve"
    wait "$serve" 2>/dev/null || true
}
collector ""
# The Docker image and the systemd unit preload jemalloc (deploy/docker/Dockerfile says why).
if ldconfig -p | grep 'libjemalloc\.so\.2 ' >/dev/null; then
    collector ", with jemalloc as deploy/ runs it" LD_PRELOAD=libjemalloc.so.2
else
    echo "== (Debian's libjemalloc2 is not installed: the collector as deploy/ runs it is not measured)"
fi

# Every 202 waits for an fsync, and one that arrives during a commit waits for that commit's too: the
# disk's own fsync latency is the floor under the latency above.
echo "== Disk limit: fsync after appending 40 KiB, 200 times, in the database's folder"
python3 - "$work/fsync" <<'PYTHON'
import os, sys, time
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT)
times = []
for _ in range(200):
    os.write(fd, b"x" * 40960)
    start = time.perf_counter()
    os.fsync(fd)
    times.append((time.perf_counter() - start) * 1000)
times.sort()
print("fsync p50 %.2f ms, p90 %.2f ms, p99 %.2f ms" % (times[100], times[180], times[198]))
PYTHON

#!/usr/bin/env bash
# Measures the release collector (SQLite, default serve flags, logging on) under a retry storm and whether it
# gives memory back, in one run:
# 1. capacity: stored batches/s with 32 connections;
# 2. storm: 1,024 connections for 30 s, each sending its next batch as soon as it has an answer (after a 429 with
#    `Connection: close`, on a new connection), with GET /healthz probed on a new connection every 0.5 s: stored
#    batches/s against the capacity, answers by status, the slowest probe, the peak RSS;
# 3. after the storm: one client sends one new batch every 0.5 s for 5 s: the time to each 202;
# 4. memory: a new collector's RSS once started, at half the capacity offered at a fixed rate for `soak` seconds,
#    then 10 s after, with its anonymous and file-backed parts (/proc/PID/status).
# The batches come from `IngestBench generate` (the distributions of shared/bench/realistic_batches.py: 6 KB deflate,
# 100 reports); a batch is never sent twice to one database unless the run outlasts the batches written (the
# duplicates are counted).
# Needs wrk, curl and libdeflate-dev (IngestBench links it).
# Usage: Benchmarks/run-overload.sh [capacity-seconds] [soak-seconds] [storm-connections] [binary]
#   BATCHES=DIR   batches written by an earlier run (cap/, storm/, after/), to skip writing them again
#   REFERENCE=path/to/decodewatch   another build measured the same way first, in the same run
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-10}
soak=${2:-240}
storm=${3:-1024}
binary=${4:-../.build/release/decodewatch}
port=18090
url=http://127.0.0.1:$port
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
ulimit -n 20000 2>/dev/null || true

# Stored batches/s at 32 connections reach about 1,100 on two cores: enough batches for 1,500/s, then for 30 s of
# storm and a soak at half that, on a new database.
capCount=$((seconds * 1500))
stormCount=$((soak * 560 > 48000 ? soak * 560 : 48000))
batches=${BATCHES:-$work/batches}
write() { # DIR COUNT SEED
    [ -f "$1/$(printf %06d $(($2 - 1))).bin" ] || .build/release/IngestBench generate "$1" "$2" --seed "$3" >/dev/null
}
swift build -c release --product IngestBench >/dev/null
if [ "$binary" = ../.build/release/decodewatch ]; then
    swift build -c release --package-path .. --product decodewatch >/dev/null
fi
write "$batches/cap" $capCount 11
write "$batches/storm" $stormCount 12
write "$batches/after" 20 13

echo "== $(date -u '+%Y-%m-%d %H:%M:%S UTC'), $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)),"\
    "load $(cut -d' ' -f1-3 /proc/loadavg)"

serve() { # DB: starts a collector, sets $serve
    rm -f "$1"*
    "$binary" serve --port $port --db "$1" >>"$work/serve.log" 2>&1 &
    serve=$!
    for _ in $(seq 100); do curl -s -o /dev/null "$url/healthz" && return; sleep 0.1; done
    echo "the collector did not start"; exit 1
}
stop() { kill "$serve"; wait "$serve" 2>/dev/null || true; }
rss() { awk '/VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$serve/status"; }
memory() { # RSS with its anonymous and file-backed parts
    awk '/^VmRSS:/ { r = $2 } /^RssAnon:/ { a = $2 } /^RssFile:/ { f = $2 } /^RssShmem:/ { s = $2 }
        END { printf "RSS %.1f MiB (anonymous %.1f, file %.1f, shared %.1f)", r / 1024, a / 1024, f / 1024, s / 1024 }' \
        "/proc/$serve/status"
}
outcome() { # NAME: batches so far with that outcome
    curl -s --max-time 60 "$url/metrics" | awk -v name="$1" '
        /^decodewatch_ingest_batches_total/ && index($1, "\"" name "\"") { n = $2 } END { print int(n) }'
}

# overload LABEL BINARY: the four phases for one collector binary.
overload() {
    local binary=$2 # serve() starts this one; the global binary stays the one measured last
    echo "== $1 1. Capacity: $seconds s, 32 connections"
    serve "$work/overload.sqlite"
    echo "RSS after start: $(memory)"
    wrk -t2 -c32 -d"${seconds}s" -s ingest.lua "$url" -- "$batches/cap" $capCount 2 >"$work/cap.txt"
    grep -E 'Requests/sec|Non-2xx' "$work/cap.txt" || true
    stored=$(outcome stored)
    capacity=$((stored / seconds))
    echo "stored: $stored batches, $capacity batches/s; duplicate $(outcome duplicate), refused $(outcome refused)"

    echo "== $1 2. Storm: $storm connections for 30 s, each sending again as soon as it has an answer; /healthz every 0.5 s"
    before=$(outcome stored)
    beforeDuplicates=$(outcome duplicate)
    beforeRefused=$(outcome refused)
    wrk -t2 -c"$storm" -d30s --timeout 10s -s ingest.lua "$url" -- "$batches/storm" $stormCount 2 >"$work/storm.txt" &
    load=$!
    : >"$work/probes.txt"
    peak=0
    while kill -0 $load 2>/dev/null; do
        curl -s -o /dev/null -w '%{http_code} %{time_total}\n' --max-time 5 "$url/healthz" >>"$work/probes.txt" \
            || echo "000 5" >>"$work/probes.txt"
        now=$(rss)
        peak=$(awk -v a="$now" -v b="$peak" 'BEGIN { print (a > b ? a : b) }')
        sleep 0.5
    done
    ended=$(date +%s.%N)
    echo "== $1 3. After the storm: one client, one new batch every 0.5 s for 5 s"
    after=0
    for index in $(seq 0 9); do
        file=$(printf "%s/after/%06d.bin" "$batches" $index)
        answer=$(curl -s -o /dev/null -w '%{http_code} %{time_total}' --max-time 10 -X POST \
            -H 'Content-Type: application/json' -H 'Content-Encoding: deflate' --data-binary "@$file" "$url/v1/reports" \
            || echo "000 10")
        [ "${answer%% *}" = 202 ] && after=$((after + 1))
        awk -v at="$(date +%s.%N)" -v ended="$ended" -v answer="$answer" \
            'BEGIN { split(answer, a, " "); printf "%.1f s after the load stopped: %s in %.1f ms\n", at - ended, a[1], a[2] * 1000 }'
        sleep 0.5
    done
    grep -E 'Requests/sec|requests in|Non-2xx|Socket errors' "$work/storm.txt" || true
    stored=$(($(outcome stored) - before - after))
    echo "stored: $stored batches, $((stored / 30)) batches/s, $((stored * 100 / 30 / capacity)) % of capacity;" \
        "duplicate $(($(outcome duplicate) - beforeDuplicates)), refused (429) $(($(outcome refused) - beforeRefused))"
    awk '{ n++; if ($1 != 200) bad++; if ($2 > worst) worst = $2 }
        END { printf "healthz: %d probes, %d not 200, slowest %.3f s\n", n, bad, worst }' "$work/probes.txt"
    echo "RSS peak during the storm: $peak MiB"

    echo "RSS 10 s after the storm: $(sleep 5; memory)"
    stop

    echo "== $1 4. Memory: a new collector, $soak s at half the capacity ($((capacity / 2)) batches/s), fixed rate"
    serve "$work/soak.sqlite"
    sleep 1
    echo "RSS after start: $(memory)"
    wrk -t2 -c32 -d"${soak}s" -s ingest-fixed-rate.lua "$url" -- "$batches/storm" $stormCount 2 $((capacity / 2)) \
        >"$work/soak.txt" &
    load=$!
    peak=0
    while kill -0 $load 2>/dev/null; do
        now=$(rss)
        peak=$(awk -v a="$now" -v b="$peak" 'BEGIN { print (a > b ? a : b) }')
        sleep 1
    done
    grep -E 'Requests/sec|Non-2xx|Sent late' "$work/soak.txt" || true
    echo "stored: $(outcome stored), duplicate $(outcome duplicate), refused $(outcome refused); RSS peak $peak MiB"
    sleep 10
    echo "RSS 10 s after the soak: $(memory)"
    stop
}

# A reference binary (the collector before a change) is measured first, in the same run.
if [ -n "${REFERENCE:-}" ]; then overload "reference ($REFERENCE):" "$REFERENCE"; fi
overload "" "$binary"

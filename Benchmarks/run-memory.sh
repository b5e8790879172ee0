#!/usr/bin/env bash
# Measures what a release collector keeps resident once ingest stops, and what that costs in CPU, for one or more
# builds alternated in the same session (the soak of run-overload.sh's phase 4, without the storm before it). For each
# round, for each binary in turn:
# 1. full rate: a new collector (SQLite, default serve flags, logging on) with 32 connections for `full` seconds: its
#    stored batches/s and CPU per stored batch (user + system ticks of the process from just before wrk starts until
#    the last batch is folded), then its RSS 10 s after;
# 2. soak: a new collector offered `rate` batches/s at a fixed rate for `soak` seconds (ingest-fixed-rate.lua): its
#    RSS after start, its peak, its CPU per stored batch, and its RSS 10 s after the last batch, with the anonymous
#    part split by where it lives in /proc/PID/smaps: glibc's main arena ([heap]), glibc's other arenas (the heaps
#    it maps 64 MiB-aligned), thread stacks (a mapping right after its guard page), and the rest (what the split
#    leaves out of the anonymous total is pages written in the binary's and libraries' own mappings).
# The binaries run as a user runs them (glibc malloc unless the caller's environment says otherwise); ENV="NAME=VALUE
# ..." adds variables to every collector's environment.
# Needs wrk, curl, python3, and batches from `IngestBench generate` (BATCHES=DIR, by default written here: enough for
# the soak, never sent twice to one database).
# Usage: Benchmarks/run-memory.sh [soak-seconds] [rate] [rounds] [full-seconds] BINARY...
set -euo pipefail
cd "$(dirname "$0")"
source ./cpu-ticks.sh
soak=${1:-240}
rate=${2:-450}
rounds=${3:-2}
full=${4:-10}
shift 4 || { echo "usage: $0 soak-seconds rate rounds full-seconds BINARY..."; exit 2; }
[ $# -gt 0 ] || { echo "usage: $0 soak-seconds rate rounds full-seconds BINARY..."; exit 2; }
port=18095
url=http://127.0.0.1:$port
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
# A tenth more than the soak sends, as wrk may send a few past its time; at least what the full-rate run can send.
count=$((soak * rate * 11 / 10 > full * 2000 ? soak * rate * 11 / 10 : full * 2000))
batches=${BATCHES:-$work/batches}
if [ ! -f "$batches/$(printf %06d $((count - 1))).bin" ]; then
    swift build -c release --product IngestBench >/dev/null
    .build/release/IngestBench generate "$batches" $count --seed 12 >/dev/null
fi

serve() { # BINARY: a new collector on a new database, sets $serve
    rm -f "$work"/memory.sqlite*
    # shellcheck disable=SC2086
    env ${ENV:-} "$1" serve --port $port --db "$work/memory.sqlite" >>"$work/serve.log" 2>&1 &
    serve=$!
    for _ in $(seq 100); do curl -s -o /dev/null "$url/healthz" && return; sleep 0.1; done
    echo "the collector did not start"; exit 1
}
stop() { kill "$serve"; wait "$serve" 2>/dev/null || true; }
rss() { awk '/VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$serve/status"; }
stored() {
    curl -s "$url/metrics" | awk '/^decodewatch_ingest_batches_total\{outcome="stored"/ { n = $2 } END { print int(n) }'
}
duplicates() {
    curl -s "$url/metrics" | awk '/^decodewatch_ingest_batches_total\{outcome="duplicate"/ { n = $2 } END { print int(n) }'
}
settle() { # until no acknowledged batch is left to fold
    while [ "$(curl -s "$url/metrics" | awk '/^decodewatch_ingest_pending_batches / { print int($2) }')" -gt 0 ]; do
        sleep 0.05
    done
}
# RSS with its anonymous part split by mapping (see the header) and its file-backed part.
memory() {
    python3 - "/proc/$serve/smaps" "/proc/$serve/status" <<'PYTHON'
import re, sys
kib = {"heap": 0, "arenas": 0, "stacks": 0, "other": 0, "file": 0}
arenas = 0
previous = None
current = None
def close(m):
    global arenas
    if m is None: return
    start, end, perms, name, rss = m
    if name.startswith("/"): kib["file"] += rss
    elif name == "[heap]": kib["heap"] += rss
    elif name.startswith("["): kib["other"] += rss
    elif perms.startswith("rw") and start % (64 << 20) == 0 and end - start <= 64 << 20:
        kib["arenas"] += rss; arenas += 1
    elif perms.startswith("rw") and previous and previous[1] == start and previous[2].startswith("---") \
            and previous[1] - previous[0] <= 64 << 10 and not previous[3]:
        kib["stacks"] += rss
    else: kib["other"] += rss
for line in open(sys.argv[1]):
    head = re.match(r"^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$", line)
    if head:
        close(current)
        if current: previous = current
        current = [int(head[1], 16), int(head[2], 16), head[3], head[4].strip(), 0]
    elif line.startswith("Rss:"):
        current[4] = int(line.split()[1])
close(current)
status = {l.split(":")[0]: l.split()[1] for l in open(sys.argv[2]) if len(l.split()) > 1}
print("RSS %.1f MiB (anonymous %.1f: main arena %.1f, %d other arenas %.1f, thread stacks %.1f, other %.1f; "
      "file %.1f), %s threads" % (int(status["VmRSS"]) / 1024, int(status["RssAnon"]) / 1024, kib["heap"] / 1024,
      arenas, kib["arenas"] / 1024, kib["stacks"] / 1024, kib["other"] / 1024, int(status["RssFile"]) / 1024,
      status["Threads"]))
PYTHON
}

echo "== $(date -u '+%Y-%m-%d %H:%M:%S UTC'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg);" \
    "soak $soak s at $rate batches/s, full rate $full s, ${ENV:+environment $ENV, }$rounds rounds"
for round in $(seq "$rounds"); do
    for binary in "$@"; do
        echo "== round $round: $binary ($(git -C "$(dirname "$binary")" rev-parse --short HEAD 2>/dev/null || echo "?"))"
        serve "$binary"
        ticks=$(cpu_ticks "$serve")
        wrk -t2 -c32 -d"${full}s" -s ingest.lua "$url" -- "$batches" $count 2 >"$work/full.txt"
        settle
        used=$(($(cpu_ticks "$serve") - ticks))
        batches_stored=$(stored)
        echo "full rate: $((batches_stored / full)) batches/s stored, CPU per stored batch" \
            "$(per_batch "$used" "$batches_stored") ($used ticks, $batches_stored batches)"
        sleep 10
        echo "10 s after full rate: $(memory)"
        stop

        serve "$binary"
        sleep 1
        echo "soak, after start: $(memory)"
        ticks=$(cpu_ticks "$serve")
        wrk -t2 -c32 -d"${soak}s" -s ingest-fixed-rate.lua "$url" -- "$batches" $count 2 "$rate" >"$work/soak.txt" &
        load=$!
        peak=0
        while kill -0 $load 2>/dev/null; do
            peak=$(awk -v a="$(rss)" -v b="$peak" 'BEGIN { print (a > b ? a : b) }')
            sleep 1
        done
        settle
        used=$(($(cpu_ticks "$serve") - ticks))
        batches_stored=$(stored)
        echo "soak: $batches_stored stored ($(duplicates) duplicate), RSS peak $peak MiB, CPU per stored batch" \
            "$(per_batch "$used" "$batches_stored") ($used ticks); $(grep -E 'Sent late' "$work/soak.txt" || true)"
        sleep 10
        echo "10 s after the soak: $(memory)"
        stop
    done
done

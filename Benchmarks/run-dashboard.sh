#!/usr/bin/env bash
# Measures the dashboard with many breaking fields: a release collector on a fresh SQLite file is seeded
# with N groups through POST /v1/reports, then each page is fetched R times with curl (sequentially,
# after one warm-up) and the median and worst times and the bytes are printed. Each group is reported
# `hits` times at random times of the last 24 hours (see dashboard-seed.py).
# Usage: Benchmarks/run-dashboard.sh [groups] [runs] [hits]
set -euo pipefail
cd "$(dirname "$0")"
groups=${1:-10000}
runs=${2:-21}
hits=${3:-1}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

swift build -c release --package-path .. --product decodewatch >/dev/null
../.build/release/decodewatch serve --port 18082 --db "$work/dashboard.sqlite" &  # default flags, logging included
for _ in $(seq 50); do curl -sf http://127.0.0.1:18082/healthz >/dev/null && break; sleep 0.2; done
python3 dashboard-seed.py http://127.0.0.1:18082 "$groups" "$hits"
group=$(curl -sf 'http://127.0.0.1:18082/v1/fields?limit=1' | python3 -c 'import json,sys; print(json.load(sys.stdin)["fields"][0]["group"])')

measure() {
    local name=$1 path=$2
    curl -s -o /dev/null "http://127.0.0.1:18082$path"
    for _ in $(seq "$runs"); do
        curl -s -o /dev/null -w '%{time_total} %{size_download}\n' "http://127.0.0.1:18082$path"
    done | sort -n | awk -v name="$name" '{ t[NR] = $1; b = $2 } END {
        printf "%-28s median %6.1f ms  worst %6.1f ms  %7d bytes (%d runs)\n", name, t[int((NR + 1) / 2)] * 1000, t[NR] * 1000, b, NR }'
}

measure "GET / (page 1 of all)" "/"
measure "GET /?status=new&sort=rate" "/?status=new&sort=rate"
measure "GET /?window=14d" "/?window=14d"
measure "GET /?page=20" "/?page=20"
measure "GET /groups/{id}" "/groups/$group"
measure "GET /v1/fields (50)" "/v1/fields"

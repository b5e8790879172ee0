#!/usr/bin/env bash
# Fault soak: does every acknowledged report survive crashes? Runs three collector replicas over one
# private PostgreSQL (fsync on: durability is what is measured) under a steady load of distinct batches
# (Benchmarks/fault_soak_load.py, 16 workers, round-robin, re-sent until a 202), kills one replica with
# SIGKILL every minute (in turn; restarted on its port a second later) and restarts PostgreSQL
# (`pg_ctl stop -m fast`, 5 s, start) every three minutes. At the end it checks that the reports stored
# (`decodewatch fields`, `GET /v1/fields`, the batches table) equal the reports acknowledged by a 202,
# exactly, and that every replica came back: /healthz within 30 s of each fault, a 202 at least once a
# minute during the load, a stored batch after it and /readyz 200 at the end. Exits 1 otherwise.
# Needs a built collector (DECODEWATCH=/path/to/decodewatch, default ../.build/release/decodewatch),
# Debian's postgresql (server programs in /usr/lib/postgresql/*/bin), curl and python3; run as root or as
# a user that may run PostgreSQL's initdb. WORKERS sets the load's workers; SOAK_KEEP=1 keeps the logs.
# Usage: Benchmarks/fault-soak.sh [minutes] [rate]   (defaults: 10 minutes, 200 batches/s in total)
set -euo pipefail
cd "$(dirname "$0")"
minutes=${1:-10}
rate=${2:-200}
workers=${WORKERS:-16}
if ! [[ $minutes =~ ^[1-9][0-9]*$ && $rate =~ ^[0-9]+([.][0-9]+)?$ && $rate =~ [1-9] && $workers =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: Benchmarks/fault-soak.sh [minutes] [rate]: whole minutes, batches per second in total" >&2
    exit 2
fi
seconds=$((minutes * 60))
collector=${DECODEWATCH:-../.build/release/decodewatch}
replicas=3
# How long retries may go on after the load, and how long each replica gets to store a batch after that.
give_up=60
probe_seconds=60

if [ ! -x "$collector" ]; then
    echo "fault-soak: no collector at $collector: run 'swift build -c release --product decodewatch'" \
        "or set DECODEWATCH=/path/to/decodewatch" >&2
    exit 1
fi
collector=$(cd "$(dirname "$collector")" && pwd)/$(basename "$collector")
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$pg_bin" ] || [ ! -x "$pg_bin/initdb" ]; then
    echo "fault-soak: needs PostgreSQL's server programs (/usr/lib/postgresql/*/bin): apt-get install postgresql" >&2
    exit 1
fi

work=$(mktemp -d /tmp/decodewatch-soak.XXXXXX)
# initdb and pg_ctl refuse to run as root: then the server runs as the postgres user, from a directory it
# can enter.
as_owner=()
if [ "$(id -u)" -eq 0 ]; then
    chown postgres: "$work"
    as_owner=(runuser -u postgres --)
fi
pids=()      # each replica's process id, by index
ports=()     # each replica's port, by index
load_pid=""
watchers=()  # the recovery watchers still running
failures="$work/fault-failures"   # one line per replica that did not come back after a fault
: >"$failures"

server() { (cd "$work" && "${as_owner[@]}" "$pg_bin/$1" "${@:2}"); }
now() { date -u +%H:%M:%S; }
log() { echo "[$(now) +$(($(date +%s) - ${started:-$(date +%s)}))s] $*"; }
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

cleanup() {
    local status=$?
    trap - EXIT INT TERM
    [ -n "$load_pid" ] && kill "$load_pid" 2>/dev/null || true
    for pid in "${watchers[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    sleep 1
    for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    server pg_ctl -D "$work/cluster" -m immediate stop >/dev/null 2>&1 || true
    if [ "${SOAK_KEEP:-0}" = 1 ]; then echo "fault-soak: logs kept in $work" >&2; else rm -rf "$work"; fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# A private cluster on a free loopback port, its socket in the private directory, durable settings.
start_postgres_cluster() {
    local password
    password=$(head -c 18 /dev/urandom | base64 | tr '+/' '-_')
    printf '%s\n' "$password" >"$work/password"
    server initdb -D "$work/cluster" -U decodewatch --pwfile="$work/password" \
        --auth-local=trust --auth-host=scram-sha-256 -E UTF8 --locale=C.UTF-8 >"$work/initdb.log" ||
        { cat "$work/initdb.log" >&2; exit 1; }
    pg_port=$(free_port)
    url="postgres://decodewatch:$password@127.0.0.1:$pg_port/postgres?sslmode=disable"
    start_postgres
}

start_postgres() {
    server pg_ctl -D "$work/cluster" -l "$work/postgres.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $pg_port -k $work -c max_connections=200" start >/dev/null ||
        { tail -n 20 "$work/postgres.log" >&2; return 1; }
}

# Appends to the replica's log, so that a restarted replica's lines follow those of the one killed.
start_replica() {
    local index=$1
    echo "=== started $(now)" >>"$work/replica-$index.log"
    "$collector" serve --port "${ports[$index]}" --database-url "$url" >>"$work/replica-$index.log" 2>&1 &
    pids[$index]=$!
}

# The HTTP status of a GET, or 000 when nothing answers within 2 s.
status_of() { curl -s -o /dev/null -m 2 -w '%{http_code}' "http://127.0.0.1:${ports[$1]}$2" || true; }

# Polls a replica's path until it answers 200: prints the seconds it took, or fails after `limit` seconds.
# Seconds are counted from `begun` (date +%s%N), the fault, when given.
wait_for() {
    local index=$1 path=$2 limit=$3 begun=${4:-$(date +%s%N)} elapsed
    while [ "$(status_of "$index" "$path")" != 200 ]; do
        elapsed=$((($(date +%s%N) - begun) / 1000000))
        [ "$elapsed" -lt $((limit * 1000)) ] || return 1
        sleep 0.2
    done
    elapsed=$((($(date +%s%N) - begun) / 100000000))
    echo "$((elapsed / 10)).$((elapsed % 10))"
}

# After a fault, in the background so that the schedule keeps its pace: a replica that does not answer
# /healthz within 30 s is a failure; how long /readyz took is logged, as it tells a pool that came back.
watch_recovery() {
    local fault=$1 index took begun
    begun=$(date +%s%N)
    shift
    for index in "$@"; do
        (
            if took=$(wait_for "$index" /healthz 30 "$begun"); then
                log "replica $((index + 1)): /healthz 200 ${took} s after $fault"
            else
                log "FAIL: replica $((index + 1)): no /healthz 200 within 30 s after $fault"
                echo "replica $((index + 1)) did not answer /healthz within 30 s after $fault at $(now)" >>"$failures"
            fi
            if took=$(wait_for "$index" /readyz 60 "$begun"); then
                log "replica $((index + 1)): /readyz 200 ${took} s after $fault"
            else
                log "replica $((index + 1)): /readyz not 200 within 60 s after $fault"
            fi
        ) &
        watchers+=($!)
    done
}

kill_replica() {
    local index=$1
    log "fault: kill -9 replica $((index + 1)) (pid ${pids[$index]}, port ${ports[$index]})"
    kill -KILL "${pids[$index]}" 2>/dev/null || log "replica $((index + 1)) had already exited"
    wait "${pids[$index]}" 2>/dev/null || true
    sleep 1
    start_replica "$index"
    log "replica $((index + 1)) restarted (pid ${pids[$index]})"
    watch_recovery "replica $((index + 1)) was restarted" "$index"
}

restart_postgres() {
    log "fault: PostgreSQL stop -m fast"
    server pg_ctl -D "$work/cluster" -m fast -w -t 60 stop >/dev/null ||
        { log "FAIL: PostgreSQL did not stop"; echo "PostgreSQL did not stop at $(now)" >>"$failures"; }
    sleep 5
    if start_postgres; then
        log "PostgreSQL started again"
    else
        log "FAIL: PostgreSQL did not start again"
        echo "PostgreSQL did not start again at $(now)" >>"$failures"
    fi
    watch_recovery "PostgreSQL was started again" $(seq 0 $((replicas - 1)))
}

# The faults, by second of the load: a kill each minute, a PostgreSQL restart every three minutes starting
# at 1:30, so that no two faults coincide and each recovery is seen on its own. The last fault comes a minute
# or more before the load ends, so that it has a minute of load in which to recover.
schedule() {
    local t
    for ((t = 60; t <= seconds - 60; t += 60)); do echo "$t kill"; done
    for ((t = 90; t <= seconds - 60; t += 180)); do echo "$t postgres"; done
}

run_faults() {
    local at kind victim=0
    while read -r at kind; do
        while [ $(($(date +%s) - started)) -lt "$at" ]; do
            kill -0 "$load_pid" 2>/dev/null || return 0
            sleep 0.2
        done
        if [ "$kind" = kill ]; then
            kill_replica "$victim"
            victim=$(((victim + 1) % replicas))
        else
            restart_postgres
        fi
    done < <(schedule | sort -n)
}

# The replicas' last lines but the one logged per stored batch, which would hide what went wrong.
print_tails() {
    local index
    for index in $(seq 0 $((replicas - 1))); do
        echo "--- replica $((index + 1)) log: last batch stored at" \
            "$(grep 'Batch stored' "$work/replica-$index.log" | tail -n 1 | cut -d' ' -f1); last other lines:"
        grep -v 'Batch stored' "$work/replica-$index.log" | tail -n 15 | cut -c1-400 || true
    done
    echo "--- PostgreSQL log, last lines:"
    tail -n 15 "$work/postgres.log"
}

echo "fault soak: $minutes min at $rate batches/s, $workers workers, $replicas replicas, collector $collector"
echo "host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
start_postgres_cluster
echo "PostgreSQL $("$pg_bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$pg_port, fsync on, logs in $work"
for index in $(seq 0 $((replicas - 1))); do ports[$index]=$(free_port); done
# The first replica creates the schema alone; the others start once it is ready.
start_replica 0
wait_for 0 /readyz 60 >/dev/null || { echo "fault-soak: replica 1 never became ready" >&2; print_tails; exit 1; }
for index in $(seq 1 $((replicas - 1))); do start_replica "$index"; done
for index in $(seq 1 $((replicas - 1))); do
    wait_for "$index" /readyz 60 >/dev/null ||
        { echo "fault-soak: replica $((index + 1)) never became ready" >&2; print_tails; exit 1; }
done
echo "replicas on ports ${ports[*]}"

started=$(date +%s)
since=$(date -u -d "@$((started / 60 * 60 - 60))" +%Y-%m-%dT%H:%M:%SZ)
python3 fault_soak_load.py load --ports "$(IFS=,; echo "${ports[*]}")" --seconds "$seconds" --rate "$rate" \
    --workers "$workers" --give-up "$give_up" --probe-seconds "$probe_seconds" --out "$work/results.json" &
load_pid=$!
log "load started"
run_faults
wait "$load_pid" || { log "the load client failed"; print_tails; exit 1; }
load_pid=""
# The watchers are bounded (90 s at most); their lines belong before the figures.
for pid in "${watchers[@]}"; do wait "$pid" 2>/dev/null || true; done
watchers=()
log "load, retries and probes done"

# Every report occurred within a few seconds before it was sent: whole minutes around the run hold them all.
until=$(date -u -d "@$(($(date +%s) / 60 * 60 + 120))" +%Y-%m-%dT%H:%M:%SZ)
ready=$(for index in $(seq 0 $((replicas - 1))); do status_of "$index" /readyz; echo; done | paste -sd, -)
for index in $(seq 0 $((replicas - 1))); do
    kill -0 "${pids[$index]}" 2>/dev/null || log "replica $((index + 1)) (pid ${pids[$index]}) is no longer running"
done
if ! "$collector" fields --database-url "$url" --app com.example.soak --format json --since "$since" \
    --until "$until" --limit 1000 >"$work/fields.json" 2>"$work/fields.err"; then
    echo "fault-soak: decodewatch fields failed:" >&2
    cat "$work/fields.err" >&2
    print_tails
    exit 1
fi
# The same summary from the HTTP API, from the first replica that gives it; skipped if none does.
http_fields=()
for index in $(seq 0 $((replicas - 1))); do
    if curl -sf -m 30 -o "$work/http-fields.json" \
        "http://127.0.0.1:${ports[$index]}/v1/fields?app=com.example.soak&since=$since&until=$until&limit=1000"; then
        http_fields=(--http-fields "$work/http-fields.json" --http-replica "$((index + 1))")
        break
    fi
    echo "fault-soak: no GET /v1/fields answer from replica $((index + 1))" >&2
done
# A third count, from the table of stored batches; skipped (with a word) if its shape has changed.
db=$(psql "$url" -tA -F ' ' -c \
    "SELECT count(*), coalesce(sum(reports), 0) FROM batches WHERE app_id = 'com.example.soak'" 2>"$work/psql.err") ||
    { echo "fault-soak: no count from the batches table: $(head -n 1 "$work/psql.err")" >&2; db=""; }
echo "window $since .. $until"
verdict=0
python3 fault_soak_load.py verdict --results "$work/results.json" --fields "$work/fields.json" \
    "${http_fields[@]}" --db "$db" --ready "$ready" --fault-failures "$failures" \
    --probe-seconds "$probe_seconds" || verdict=$?
if [ "$verdict" -ne 0 ]; then print_tails; fi
exit "$verdict"

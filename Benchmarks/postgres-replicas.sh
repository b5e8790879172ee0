# Sourced by the PostgreSQL benchmarks: a private PostgreSQL, collector replicas on it behind nginx, and the rate
# they fold at. Sourcing it makes the temporary folder `work`, removed on exit with PostgreSQL and every job.
#   postgres_start              initdb and start PostgreSQL 127.0.0.1:55499 in $work/pg; sets `url`
#   postgres_stop
#   replicas_start BINARY SCHEMA COUNT [serve flags...]
#                               COUNT collectors (ports 18101…) on SCHEMA, behind nginx at 127.0.0.1:18099
#   replicas_folded SCHEMA SECONDS
#                               waits until every acknowledged batch is folded and prints the rate, counting the
#                               folding after a SECONDS-long run; sets `folded_rate` (batches/s)
#                               and `stored_batches`
#   replicas_stop
#   postgres_cpu_ticks          CPU ticks PostgreSQL's processes (its postmaster and the postmaster's children,
#                               exited ones included) have used so far
#   replicas_cpu_ticks          CPU ticks the running replicas have used so far
#   replicas_cpu_per_batch COLLECTOR_TICKS POSTGRES_TICKS
#                               the replicas' and PostgreSQL's CPU per batch stored since they had used those ticks
#                               (after replicas_folded, over its `stored_batches`: on a fresh schema)
# It sources cpu-ticks.sh, which reads the ticks from /proc.

source ./cpu-ticks.sh
work=$(mktemp -d)
postgres_bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
postgres_owner=()
if [ "$(id -u)" -eq 0 ]; then postgres_owner=(runuser -u postgres --); fi

postgres_start() {
    mkdir -p "$work/pg"
    if [ "$(id -u)" -eq 0 ]; then chown postgres: "$work" "$work/pg"; fi
    "${postgres_owner[@]}" "$postgres_bin/initdb" -D "$work/pg" -U bench --auth=trust -E UTF8 >/dev/null
    "${postgres_owner[@]}" "$postgres_bin/pg_ctl" -D "$work/pg" -l "$work/pg.log" -w \
        -o "-c listen_addresses=127.0.0.1 -p 55499 -k $work -c max_connections=200" start >/dev/null
    url='postgres://bench@127.0.0.1:55499/postgres?sslmode=disable'
}

postgres_stop() {
    "${postgres_owner[@]}" "$postgres_bin/pg_ctl" -D "$work/pg" -m fast stop >/dev/null 2>&1 || true
}

replicas_start() {
    local binary=$1 schema=$2 count=$3 upstream="" index port
    shift 3
    replica_pids=()
    for index in $(seq 1 "$count"); do
        port=$((18100 + index))
        "$binary" serve --port $port --database-url "$url&schema=$schema" "$@" >"$work/serve-$schema-$index.log" 2>&1 &
        replica_pids+=($!)
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
    nginx -c "$work/nginx.conf" -g 'daemon off;' >/dev/null 2>&1 &
    nginx_pid=$!
    sleep 0.5
}

replicas_folded() {
    local schema=$1 seconds=$2 started wait_s
    # A batch is acknowledged once it is in ingest_log and folded into the rollups in the background: wait until no
    # batch is left unfolded, so that the rate counts the folding too.
    started=$(date +%s.%N)
    while [ "$(psql -h 127.0.0.1 -p 55499 -U bench -d postgres -tAc \
        "SELECT COUNT(*) FROM $schema.ingest_log WHERE NOT folded")" -gt 0 ]; do
        sleep 0.05
    done
    wait_s=$(awk -v a="$(date +%s.%N)" -v b="$started" 'BEGIN { printf "%.2f", a - b }')
    stored_batches=$(psql -h 127.0.0.1 -p 55499 -U bench -d postgres -tAc "SELECT COUNT(*) FROM $schema.batches")
    folded_rate=$(awk -v n="$stored_batches" -v s="$seconds" -v w="$wait_s" 'BEGIN { printf "%.0f", n / (s + w) }')
    echo "stored batches: $stored_batches (x100 reports), the last folded $wait_s s after the run: $folded_rate batches/s folded"
}

replicas_stop() {
    kill "$nginx_pid" "${replica_pids[@]}" 2>/dev/null || true
    wait "$nginx_pid" "${replica_pids[@]}" 2>/dev/null || true
}

# The postmaster's own processes only: another PostgreSQL on this machine (a test run's) is not counted.
postgres_cpu_ticks() {
    tree_cpu_ticks "$(head -n 1 "$work/pg/postmaster.pid")"
}

replicas_cpu_ticks() {
    cpu_ticks "${replica_pids[@]}"
}

replicas_cpu_per_batch() {
    echo "CPU per stored batch: collectors $(per_batch $(($(replicas_cpu_ticks) - $1)) "$stored_batches")," \
        "PostgreSQL $(per_batch $(($(postgres_cpu_ticks) - $2)) "$stored_batches")"
}

cleanup() {
    kill $(jobs -p) 2>/dev/null || true
    postgres_stop
    rm -rf "$work"
}
trap cleanup EXIT

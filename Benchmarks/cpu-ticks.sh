# Sourced by the ingest benchmarks: the CPU processes have used, from /proc/PID/stat, to report a server's CPU per
# stored batch, which moves less with this machine's speed (and with other work on it) than throughput does.
#   cpu_ticks PID...            user + system clock ticks the processes (all their threads) have used so far
#   tree_cpu_ticks PID          the same for PID, the children it has waited for, and its live children: a
#                               postmaster and its backends, counting backends that have exited
#   per_batch TICKS BATCHES     TICKS as milliseconds per batch, e.g. "0.412 ms"

# proc_stat_fields PID FIELD...: the fields of /proc/PID/stat, numbered as in proc(5), or 0 each for a process that
# has gone. The name (field 2) may hold spaces, so fields are counted after its closing parenthesis.
proc_stat_fields() {
    local pid=$1
    shift
    awk -v fields="$*" '{
        sub(/^.*\) /, "")
        n = split(fields, f, " ")
        for (i = 1; i <= n; i++) total += $(f[i] - 2)
        print total + 0
    }' "/proc/$pid/stat" 2>/dev/null || echo 0
}

cpu_ticks() {
    local pid total=0
    for pid in "$@"; do total=$((total + $(proc_stat_fields "$pid" 14 15))); done
    echo "$total"
}

tree_cpu_ticks() {
    # utime, stime, and cutime + cstime: the children it has waited for; then its live children's utime + stime.
    # cat, not awk, reads /proc: it goes on past a process that has gone in the meantime.
    echo $(($(proc_stat_fields "$1" 14 15 16 17) + $(cat /proc/[0-9]*/stat 2>/dev/null |
        awk -v parent="$1" '{ sub(/^.*\) /, ""); if ($2 == parent) total += $12 + $13 } END { print total + 0 }')))
}

per_batch() {
    awk -v ticks="$1" -v batches="$2" -v hz="$(getconf CLK_TCK)" \
        'BEGIN { if (batches > 0) printf "%.3f ms", ticks * 1000 / hz / batches; else print "n/a (no batch stored)" }'
}

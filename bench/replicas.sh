#!/usr/bin/env bash
# Throughput of pope_lookup in one run: one replica on embedded SQLite (in-process limits), one
# replica on PostgreSQL + Redis, and two PostgreSQL + Redis replicas behind HAProxy.
#
#   bench/replicas.sh [STORE]        (default ./store, what `ecclesia serve` builds; it is copied, never written)
#
# Needs: wrk, haproxy, PostgreSQL and redis-server (started by scripts/services.sh on loopback
# ports), target/release/ecclesia (cargo build --release -p ecclesia). DURATION (default 10s),
# CONNECTIONS (default 16). Every call passes the rate limiter (a plan of 10^7 a minute), so
# the Redis script runs on each request.
#
# BIN (default target/release/ecclesia) is the binary measured; with BEFORE=/path/to/an/older
# binary, one more replica of that binary runs on a database of its own beside the same Redis,
# and is measured in the same run (before/after of a change).

set -euo pipefail
cd "$(dirname "$0")/.."
STORE=${1:-store}
D=${DURATION:-10s}
BIN=${BIN:-target/release/ecclesia}
BEFORE=${BEFORE:-}
C=${CONNECTIONS:-16}
WORK=$(mktemp -d)
PIDS=()
# shellcheck source=../scripts/services.sh
source scripts/services.sh
cleanup() {
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
    services_stop
    rm -rf "$WORK"
}
trap cleanup EXIT
: "${ECCLESIA_TEST_POSTGRES:?PostgreSQL did not start}" "${ECCLESIA_TEST_REDIS:?Redis did not start}"

printf '[plans.anonymous]\nsend_per_minute = 10000000\nqa_per_minute = 10000000\n[corpus]\nembeddings = "off"\n' >"$WORK/bench.toml"
for s in a b c d; do
    cp -r "$STORE" "$WORK/store-$s"
    rm -f "$WORK/store-$s/state.sqlite"*
done
sync # the copies to disk now, not as the kernel's 30 s writeback in the middle of a run

serve() { # name port extra-args...
    local name=$1 port=$2 bin=$BIN
    shift 2
    if [ "$name" = d ]; then bin=$BEFORE; fi
    "$bin" --config "$WORK/bench.toml" serve --store "$WORK/store-$name" \
        --anonymous --listen "127.0.0.1:$port" "$@" >"$WORK/$name.log" 2>&1 &
    PIDS+=($!)
    for _ in $(seq 1 240); do curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && return; sleep 0.5; done
    echo "replica $name did not become ready:" >&2
    tail -20 "$WORK/$name.log" >&2
    exit 1
}
run() { # label url
    local line
    line=$(QUERY="Benedict XVI" wrk -t1 -c"$C" -d"$D" -s bench/send.lua "$2" | tail -1)
    printf '%-44s %s\n' "$1" "$line"
}

shared=(--state "$ECCLESIA_TEST_POSTGRES" --limits "$ECCLESIA_TEST_REDIS")
serve c 18300
serve a 18301 "${shared[@]}"
serve b 18302 "${shared[@]}"
if [ -n "$BEFORE" ]; then
    before_db="${ECCLESIA_TEST_POSTGRES%/*}/bench_before"
    "$(services_pg_bin)/psql" -q "$ECCLESIA_TEST_POSTGRES" -c "CREATE DATABASE bench_before" >/dev/null
    serve d 18303 --state "$before_db" --limits "$ECCLESIA_TEST_REDIS"
fi
cat >"$WORK/haproxy.cfg" <<EOF
global
    maxconn 2000
defaults
    mode http
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    http-reuse always
frontend f
    bind 127.0.0.1:18310
    default_backend replicas
backend replicas
    balance roundrobin
    server a 127.0.0.1:18301
    server b 127.0.0.1:18302
EOF
haproxy -db -f "$WORK/haproxy.cfg" >"$WORK/haproxy.log" 2>&1 &
PIDS+=($!)
sleep 1

echo "pope_lookup, wrk -t1 -c$C -d$D, $(nproc) cores (load $(cut -d' ' -f1-3 /proc/loadavg))"
run "1 replica, SQLite + in-process limits" "http://127.0.0.1:18300"
if [ -n "$BEFORE" ]; then
    run "1 replica, PostgreSQL + Redis (BEFORE)" "http://127.0.0.1:18303"
fi
run "1 replica, PostgreSQL + Redis" "http://127.0.0.1:18301"
if [ -n "$BEFORE" ]; then
    run "1 replica, PostgreSQL + Redis (BEFORE, again)" "http://127.0.0.1:18303"
    run "1 replica, PostgreSQL + Redis (again)" "http://127.0.0.1:18301"
fi
run "2 replicas, PostgreSQL + Redis, HAProxy" "http://127.0.0.1:18310"
run "1 replica, SQLite + in-process limits (again)" "http://127.0.0.1:18300"

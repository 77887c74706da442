#!/usr/bin/env bash
# PostgreSQL and Redis for the scale-out tests (crates/postgres, crates/redis), on loopback
# ports, in a temporary directory, with bounded waits.
#
#   source scripts/services.sh      # services_start; call services_stop at exit (test.sh does)
#   bash scripts/services.sh run CMD [ARGS…]   # start, run CMD with the variables, stop
#
# Exports, for what started:
#   ECCLESIA_TEST_POSTGRES   postgres://ecclesia@127.0.0.1:PORT/postgres (trust auth; tests
#                            create a database of their own in it)
#   ECCLESIA_TEST_REDIS      redis://127.0.0.1:PORT/
#   ECCLESIA_TEST_HAPROXY    the haproxy binary (the two-replica test runs its own)
# A service that cannot start is reported and left out: its tests skip, unless
# ECCLESIA_REQUIRE_SERVICES=1 (CI), where they fail.
# PostgreSQL refuses to run as root: as root, the cluster runs as the `postgres` user (the
# Debian package's) or `nobody`.

services_free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

services_pg_bin() {
    local d
    d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
    if [ -n "$d" ] && [ -x "$d/initdb" ]; then echo "$d"; return; fi
    command -v initdb >/dev/null 2>&1 && dirname "$(command -v initdb)"
}

# Run a command as the cluster's user (this one, unless root).
services_as_pg() {
    if [ "$(id -u)" = 0 ]; then
        runuser -u "$SERVICES_PG_USER" -- "$@"
    else
        "$@"
    fi
}

services_start_postgres() {
    local bin port dir
    bin=$(services_pg_bin) || true
    if [ -z "$bin" ]; then
        echo "services: PostgreSQL is not installed (initdb not found): its tests skip" >&2
        return 0
    fi
    dir="$SERVICES_DIR/pg"
    mkdir -p "$dir"
    SERVICES_PG_USER=$(id -un)
    if [ "$(id -u)" = 0 ]; then
        SERVICES_PG_USER=postgres
        id postgres >/dev/null 2>&1 || SERVICES_PG_USER=nobody
        chown -R "$SERVICES_PG_USER" "$dir"
        chmod 755 "$SERVICES_DIR"
    fi
    port=$(services_free_port)
    if ! services_as_pg timeout 60 "$bin/initdb" -D "$dir/data" -U ecclesia --auth=trust \
            -E UTF8 --locale=C.UTF-8 --no-sync >"$dir/initdb.log" 2>&1; then
        echo "services: initdb failed (see $dir/initdb.log): PostgreSQL tests skip" >&2
        tail -n 5 "$dir/initdb.log" >&2
        return 0
    fi
    if ! services_as_pg timeout 60 "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
            -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
            start >/dev/null 2>&1; then
        echo "services: PostgreSQL did not start (see $dir/server.log): its tests skip" >&2
        tail -n 5 "$dir/server.log" >&2
        return 0
    fi
    SERVICES_PG_CTL="$bin/pg_ctl"
    export ECCLESIA_TEST_POSTGRES="postgres://ecclesia@127.0.0.1:$port/postgres"
    echo "services: PostgreSQL $("$bin/postgres" --version | awk '{print $3}' | sed s/v=//) on 127.0.0.1:$port" >&2
}

services_start_redis() {
    local port i
    if ! command -v redis-server >/dev/null 2>&1; then
        echo "services: redis-server is not installed: the Redis tests skip" >&2
        return 0
    fi
    port=$(services_free_port)
    mkdir -p "$SERVICES_DIR/redis"
    if ! redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no \
            --dir "$SERVICES_DIR/redis" --daemonize yes \
            --pidfile "$SERVICES_DIR/redis/redis.pid" --logfile "$SERVICES_DIR/redis/redis.log" >/dev/null; then
        echo "services: redis-server did not start: the Redis tests skip" >&2
        return 0
    fi
    for i in $(seq 1 50); do
        if redis-cli -h 127.0.0.1 -p "$port" ping 2>/dev/null | grep -q PONG; then
            export ECCLESIA_TEST_REDIS="redis://127.0.0.1:$port/"
            echo "services: Redis $(redis-server --version | awk '{print $3}' | sed s/v=//) on 127.0.0.1:$port" >&2
            return 0
        fi
        sleep 0.1
    done
    echo "services: Redis did not answer within 5 s: the Redis tests skip" >&2
}

services_start() {
    SERVICES_DIR=$(mktemp -d -t ecclesia-services.XXXXXX)
    services_start_postgres
    services_start_redis
    if command -v haproxy >/dev/null 2>&1; then
        export ECCLESIA_TEST_HAPROXY
        ECCLESIA_TEST_HAPROXY=$(command -v haproxy)
    fi
}

services_stop() {
    [ -n "${SERVICES_DIR:-}" ] || return 0
    if [ -n "${SERVICES_PG_CTL:-}" ]; then
        services_as_pg timeout 30 "$SERVICES_PG_CTL" -D "$SERVICES_DIR/pg/data" -m immediate -w -t 20 stop \
            >/dev/null 2>&1 || true
    fi
    if [ -f "$SERVICES_DIR/redis/redis.pid" ]; then
        kill "$(cat "$SERVICES_DIR/redis/redis.pid")" 2>/dev/null || true
    fi
    rm -rf "$SERVICES_DIR"
    SERVICES_DIR=
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    set -euo pipefail
    if [ "${1:-}" != run ] || [ $# -lt 2 ]; then
        echo "usage: bash scripts/services.sh run CMD [ARGS…]   (or: source scripts/services.sh)" >&2
        exit 2
    fi
    shift
    trap services_stop EXIT
    services_start
    "$@"
else
    services_start
fi

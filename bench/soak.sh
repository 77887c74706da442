#!/usr/bin/env bash
# Soak test (not in CI): a release server under 80 % of its measured peak for
# SOAK_SECONDS (default 600), sampling every 10 s: throughput, p99 latency,
# RSS, open descriptors and the task store's size. Writes bench/out/soak.csv
# and bench/out/soak.png.
#   bench/soak.sh                   # starts its own server on 127.0.0.1:18080 (store ./store)
#   URL=http://127.0.0.1:8080 PID=1234 STATE=store/state.sqlite bench/soak.sh   # an already running one
# Needs wrk (Debian package `wrk`) and python3 (the chart is drawn without any library).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "soak.sh needs wrk (apt-get install wrk)"; exit 1; }
SECONDS_TOTAL=${SOAK_SECONDS:-600}
CONNS=${CONNS:-16}
SKILL=${SKILL:-pope_lookup}
QUERY=${QUERY:-Benedict XVI}
OUT=bench/out
mkdir -p "$OUT"
if [ -z "${URL:-}" ]; then
    cargo build --release -q
    CFG=$(mktemp --suffix=.toml)
    # Load from one address: lift the anonymous limits for the soak only.
    printf '[plans.anonymous]\n' > "$CFG"
    ./target/release/ecclesia serve --anonymous --listen 127.0.0.1:18080 --config "$CFG" \
        ${STORE:+--store "$STORE"} >"$OUT/soak-server.log" 2>&1 &
    PID=$!
    trap 'kill $PID 2>/dev/null || true; rm -f "$CFG"' EXIT
    URL=http://127.0.0.1:18080
    STATE=${STORE:-store}/state.sqlite
    for _ in $(seq 1 600); do curl -sf "$URL/healthz" >/dev/null && break; sleep 1; done
fi
: "${PID:?set PID of the server}" "${STATE:=store/state.sqlite}"
export SKILL QUERY
run() { wrk -t2 -c"$CONNS" -d"$1" -s bench/send.lua "$URL" | tail -1; }
# requests N, errors N, rps X, p50 X ms, p99 X ms, max X ms
field() { sed -E "s/.*$1 ([0-9.]+).*/\1/"; }
peak=$(run 10s | field rps)
lat=$(run 5s | field p50)
# Each connection pauses so that all of them together make 80 % of the peak.
DELAY_MS=$(python3 -c "print(max(0, int(1000 * $CONNS / (0.8 * $peak) - $lat)))")
export DELAY_MS
echo "peak ${peak} req/s; soak at 80 % (${CONNS} connections, ${DELAY_MS} ms pause) for ${SECONDS_TOTAL} s"
echo "t_s,rps,p99_ms,errors,rss_mb,fds,store_mb" > "$OUT/soak.csv"
start=$(date +%s)
while [ $(( $(date +%s) - start )) -lt "$SECONDS_TOTAL" ]; do
    line=$(run 10s)
    rss=$(awk '/VmRSS/ {print $2 / 1024}' "/proc/$PID/status")
    fds=$(ls "/proc/$PID/fd" | wc -l)
    store=$(du -cm "$STATE"* 2>/dev/null | tail -1 | cut -f1)
    t=$(( $(date +%s) - start ))
    echo "$t,$(echo "$line" | field rps),$(echo "$line" | field p99),$(echo "$line" | field errors),$rss,$fds,$store" | tee -a "$OUT/soak.csv"
done
python3 bench/chart.py "$OUT/soak.csv" "$OUT/soak.png"
echo "wrote $OUT/soak.csv and $OUT/soak.png"

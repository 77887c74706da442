#!/usr/bin/env bash
# Throughput of pope_lookup, side by side in one run: Ecclesia (release build, A2A 0.3 and
# 1.0 on the same endpoint) and the official Python SDK server (a2a-sdk 0.3.26 on uvicorn,
# bench/python_peer/server.py) answering from the same directory store.
#
#   bench/throughput.sh [STORE]      (default ./store, what `ecclesia serve` builds; it is copied, never written)
#
# Needs: wrk; target/release/ecclesia (cargo build --release -p ecclesia); a Python with
# a2a-sdk[http-server]==0.3.26 and uvicorn (PEER_PYTHON, default .venv-bench/bin/python).
# DURATION (default 15s), CONNECTIONS (default 16). wrk -t1, as in the issue.
set -euo pipefail
cd "$(dirname "$0")/.."
STORE=${1:-store}
D=${DURATION:-15s}
C=${CONNECTIONS:-16}
PY=${PEER_PYTHON:-.venv-bench/bin/python}
EPORT=${ECCLESIA_PORT:-18080}
PPORT=${PEER_PORT:-18090}
WORK=$(mktemp -d)
cleanup() { kill "${EPID:-}" "${PPID_:-}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT
cp -r "$STORE" "$WORK/store"
rm -f "$WORK/store/state.sqlite"*
# The copy to disk now, not 30 s into the runs: the kernel writes dirty pages back after 30 s,
# and the store's copy (hundreds of MB) made the task store's fsyncs wait up to 200 ms then.
sync
# No rate limits for the load test (the loopback anonymous plan allows 1,200 a minute), and
# no background embedding (it would take CPU from the requests measured).
printf '[plans.anonymous]\na2a = true\n\n[corpus]\nembeddings = "off"\n' > "$WORK/bench.toml"
target/release/ecclesia --config "$WORK/bench.toml" serve --store "$WORK/store" --anonymous --listen "127.0.0.1:$EPORT" >"$WORK/ecclesia.log" 2>&1 &
EPID=$!
"$PY" bench/python_peer/server.py --store "$WORK/store" --port "$PPORT" >"$WORK/peer.log" 2>&1 &
PPID_=$!
for url in "http://127.0.0.1:$EPORT/healthz" "http://127.0.0.1:$PPORT/.well-known/agent-card.json"; do
  for _ in $(seq 1 120); do curl -sf "$url" >/dev/null && break; sleep 0.5; done
done
run() { # name url script
  local line
  line=$(QUERY="Benedict XVI" wrk -t1 -c"$C" -d"$D" -s "bench/$3" "$2" | tail -1)
  printf '%-34s %s\n' "$1" "$line"
}
echo "pope_lookup, wrk -t1 -c$C -d$D, $(nproc) cores (load $(cut -d' ' -f1-3 /proc/loadavg))"
run "python a2a-sdk 0.3.26 (0.3)" "http://127.0.0.1:$PPORT" send.lua
run "ecclesia A2A 0.3 message/send" "http://127.0.0.1:$EPORT" send.lua
run "ecclesia A2A 1.0 SendMessage" "http://127.0.0.1:$EPORT" send_v1.lua
run "python a2a-sdk 0.3.26 (again)" "http://127.0.0.1:$PPORT" send.lua

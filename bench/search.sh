#!/usr/bin/env bash
# document_search through the server (A2A message/send), at 1 and 16
# connections, each request another query of the corpus's search query sets,
# against a running release server (anonymous on a loopback port, or
# KEY=ecc_… for a key whose plan has room for the load):
#   bench/search.sh http://127.0.0.1:8080 [server pid]
# wrk (Debian package `wrk`), DURATION per run (default 20s). With the server's
# pid it also reports the server's CPU milliseconds per request (what the
# figures would be on free cores: on a shared machine say they are contended),
# and its resident memory (VmRSS, VmHWM). Coverage of the transformer vectors
# is whatever the server has (see /readyz); a warm-up run fills the query memo.
set -euo pipefail
URL=${1:-http://127.0.0.1:8080}
PID=${2:-}
D=${DURATION:-20s}
cd "$(dirname "$0")"
queries=$(mktemp)
trap 'rm -f "$queries"' EXIT
for f in ../crates/corpus/tests/fixtures/search_dev.tsv ../crates/corpus/tests/fixtures/search_test.tsv; do
  grep -v '^#' "$f" | cut -f2 | grep -v '^$'
done | tr -d '"\\' > "$queries"
export QUERIES=$queries
out=$(curl -sS -H 'content-type: application/json' "$URL/api/v1/a2a" -d '{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","role":"user","messageId":"m","parts":[{"kind":"data","data":{"query":"grace and free will"}}],"metadata":{"skillId":"document_search"}}}}')
printf '%s' "$out" | python3 -c "import json,sys; v=json.load(sys.stdin); assert v['result']['artifacts'][0]['parts'][0]['data']['results'], v" \
  || { echo "probe failed: ${out:0:300}" >&2; exit 1; }
cpu() { [ -n "$PID" ] && awk '{print $14 + $15}' "/proc/$PID/stat" || echo 0; }
wrk -t1 -c1 -d8s -s search.lua "$URL" > /dev/null # warm-up
for c in 1 16; do
  t=$(( c < 2 ? 1 : 2 ))
  before=$(cpu)
  line=$(wrk -t"$t" -c"$c" -d"$D" -s search.lua "$URL" | tail -1)
  after=$(cpu)
  n=$(sed -E 's/^requests ([0-9]+).*/\1/' <<<"$line")
  printf 'c=%-3s %s' "$c" "$line"
  [ -n "$PID" ] && awk -v t=$((after - before)) -v n="$n" 'BEGIN { printf ", server CPU %.1f ms/request", t * 10 / n }'
  echo " (load $(cut -d' ' -f1-3 /proc/loadavg))"
done
[ -n "$PID" ] && grep -E 'VmRSS|VmHWM' "/proc/$PID/status" | tr -s ' \n' ' ' && echo

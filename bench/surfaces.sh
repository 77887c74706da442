#!/usr/bin/env bash
# Latency per surface: the same pope_lookup through A2A (message/send) and MCP
# (a stateless tools/call get_pope over Streamable HTTP), and the same search
# through A2A document_search and the Search API, and a catholic_qa chat completion through
# the OpenAI API (QUESTION), against a running release
# server (anonymous on a loopback port, or KEY=ecc_… for a key whose plan has
# room for the load):
#   bench/surfaces.sh http://127.0.0.1:8080
# wrk (Debian package `wrk`), CONNS connections (default 16) on 2 threads for the
# look-ups, SEARCH_CONNS (default 4: the slow lane takes 32 waiting runs a caller by default,
# more are refused 503) for the searches, DURATION per scenario (default 20s). Each surface is called once first and
# its answer checked, so a refusal or a tool error is never timed as a result.
set -euo pipefail
URL=${1:-http://127.0.0.1:8080}
D=${DURATION:-20s}
C=${CONNS:-16}
SC=${SEARCH_CONNS:-4}
POPE=${POPE:-John Paul II}
SEARCH=${SEARCH:-grace and free will}
QUESTION=${QUESTION:-What is sanctifying grace?}
cd "$(dirname "$0")"
auth=()
[ -n "${KEY:-}" ] && auth=(-H "Authorization: Bearer $KEY")

probe() { # surface path body python-check
  local out
  out=$(curl -sS "${auth[@]}" -H 'content-type: application/json' \
    -H 'accept: application/json, text/event-stream' -H 'mcp-protocol-version: 2026-07-28' -H 'mcp-method: tools/call' -H 'mcp-name: get_pope' \
    "$URL$1" -d "$2")
  printf '%s' "$out" | python3 -c "
import json, sys
t = sys.stdin.read()
t = next((l[6:] for l in t.splitlines() if l.startswith('data: ')), t)
v = json.loads(t)
assert $3, t[:300]
" || { echo "probe of $1 failed: ${out:0:300}" >&2; exit 1; }
}
meta='"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"probe","version":"0"},"io.modelcontextprotocol/clientCapabilities":{}}'
probe /api/v1/a2a "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"message/send\",\"params\":{\"message\":{\"kind\":\"message\",\"role\":\"user\",\"messageId\":\"m\",\"parts\":[{\"kind\":\"data\",\"data\":{\"query\":\"$POPE\"}}],\"metadata\":{\"skillId\":\"pope_lookup\"}}}}" \
  "v['result']['artifacts'][0]['parts'][0]['data']['pope_id']"
probe /mcp "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"get_pope\",\"arguments\":{\"query\":\"$POPE\"},$meta}}" \
  "v['result']['isError'] is False and v['result']['structuredContent']['pope_id']"
probe /api/v1/search "{\"query\":\"$SEARCH\",\"numResults\":10}" "len(v['results']) == 10"
probe /v1/chat/completions "{\"model\":\"ecclesia-1\",\"messages\":[{\"role\":\"user\",\"content\":\"$QUESTION\"}]}" \
  "v['choices'][0]['message']['content']"

run() { # connections, label, then env for surfaces.lua
  local conns=$1 label=$2; shift 2
  printf '%-34s c=%-3s ' "$label" "$conns"
  env "$@" wrk -t2 -c"$conns" -d"$D" -s surfaces.lua "$URL" | tail -1
}
run "$C" "A2A message/send pope_lookup" SURFACE=a2a SKILL=pope_lookup QUERY="$POPE"
run "$C" "MCP tools/call get_pope" SURFACE=mcp TOOL=get_pope QUERY="$POPE"
run "$SC" "A2A message/send document_search" SURFACE=a2a SKILL=document_search QUERY="$SEARCH"
run "$SC" "Search API /api/v1/search" SURFACE=search QUERY="$SEARCH"
run "$SC" "OpenAI chat catholic_qa" SURFACE=openai QUERY="$QUESTION"

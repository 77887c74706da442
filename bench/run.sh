#!/usr/bin/env bash
# Load test of a running release server (started with --anonymous on a loopback port):
#   bench/run.sh http://127.0.0.1:8080
# Uses wrk (Debian package `wrk`), 2 threads, 16 connections, 20 s per scenario.
set -euo pipefail
URL=${1:-http://127.0.0.1:8080}
D=${DURATION:-20s}
cd "$(dirname "$0")"
echo "== message/send pope_lookup"
SKILL=pope_lookup QUERY="Benedict XVI" wrk -t2 -c16 -d"$D" -s send.lua "$URL" | tail -1
echo "== message/send liturgical_readings"
SKILL=liturgical_readings QUERY="next Sunday" wrk -t2 -c16 -d"$D" -s send.lua "$URL" | tail -1
echo "== message/send document_search"
SKILL=document_search QUERY="grace and free will" wrk -t2 -c16 -d"$D" -s send.lua "$URL" | tail -1
TASK=$(curl -s "$URL/api/v1/a2a" -H 'content-type: application/json' -d '{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","role":"user","messageId":"m","parts":[{"kind":"text","text":"Leo XIII"}],"metadata":{"skillId":"pope_lookup"}}}}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["result"]["id"])')
echo "== tasks/get"
TASK_ID=$TASK wrk -t2 -c16 -d"$D" -s send.lua "$URL" | tail -1

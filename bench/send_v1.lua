-- wrk script: A2A 1.0 SendMessage (JSON-RPC, A2A-Version: 1.0) to pope_lookup.
local query = os.getenv("QUERY") or "Benedict XVI"
wrk.method = "POST"
wrk.path = os.getenv("RPC_PATH") or "/api/v1/a2a"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["A2A-Version"] = "1.0"
wrk.body = '{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"' .. query .. '"}],"metadata":{"skillId":"pope_lookup"}}}}'
done = function(summary, latency, requests)
  io.write(string.format("requests %d, errors %d, rps %.1f, p50 %.2f ms, p99 %.2f ms, max %.2f ms\n",
    summary.requests, summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end

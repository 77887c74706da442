-- wrk script: message/send to a cheap skill (default pope_lookup), or tasks/get with TASK_ID.
local skill = os.getenv("SKILL") or "pope_lookup"
local query = os.getenv("QUERY") or "Benedict XVI"
local task = os.getenv("TASK_ID")
wrk.method = "POST"
wrk.path = "/api/v1/a2a"
wrk.headers["Content-Type"] = "application/json"
if task then
  wrk.body = '{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":"' .. task .. '","historyLength":1}}'
else
  wrk.body = '{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","role":"user","messageId":"m","parts":[{"kind":"text","text":"' .. query .. '"}],"metadata":{"skillId":"' .. skill .. '"}}}}'
end
-- DELAY_MS: pause of each connection between requests (bench/soak.sh sets it for a target rate).
local delay_ms = tonumber(os.getenv("DELAY_MS") or "0")
if delay_ms > 0 then
  delay = function() return delay_ms end
end
done = function(summary, latency, requests)
  io.write(string.format("requests %d, errors %d, rps %.1f, p50 %.2f ms, p99 %.2f ms, max %.2f ms\n",
    summary.requests, summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end

-- wrk script: document_search through A2A message/send, cycling through the
-- queries of QUERIES (one a line; bench/search.sh writes it from the corpus's
-- query sets), so each request searches another query. KEY, when set, is sent
-- as a bearer key. Non-2xx answers count as errors in the summary line.
local path = os.getenv("QUERIES") or "queries.txt"
local key = os.getenv("KEY")
local queries = {}
for line in io.lines(path) do
  if line ~= "" then
    queries[#queries + 1] = line:gsub("\\", "\\\\"):gsub('"', '\\"')
  end
end
assert(#queries > 0, "no queries in " .. path)
local headers = { ["Content-Type"] = "application/json" }
if key then
  headers["Authorization"] = "Bearer " .. key
end
local i = 0
local threads = 0
setup = function(thread)
  thread:set("offset", threads)
  threads = threads + 1
end
init = function()
  -- threads start at different places in the list
  i = (offset or 0) * 37
end
request = function()
  i = i + 1
  local q = queries[(i % #queries) + 1]
  local body = '{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","role":"user","messageId":"m","parts":[{"kind":"data","data":{"query":"' .. q .. '"}}],"metadata":{"skillId":"document_search"}}}}'
  return wrk.format("POST", "/api/v1/a2a", headers, body)
end
done = function(summary, latency, requests)
  io.write(string.format("requests %d, errors %d, rps %.1f, p50 %.2f ms, p99 %.2f ms, max %.2f ms\n",
    summary.requests, summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end

-- wrk script: the same look-up through each surface (bench/surfaces.sh sets SURFACE).
--   a2a     message/send to SKILL (default pope_lookup) with data {"query": QUERY}
--   mcp     a stateless MCP tools/call (revision 2026-07-28: one JSON-RPC request a POST,
--           the version and client capabilities in the request's _meta) of TOOL (default get_pope)
--   search  the Search API, POST /api/v1/search {"query": QUERY, "numResults": 10}
--   openai  a chat completion (POST /v1/chat/completions, model "ecclesia-1", catholic_qa) asking QUERY
-- KEY, when set, is sent as a bearer key.
local surface = os.getenv("SURFACE") or "a2a"
local skill = os.getenv("SKILL") or "pope_lookup"
local tool = os.getenv("TOOL") or "get_pope"
local query = os.getenv("QUERY") or "John Paul II"
local key = os.getenv("KEY")
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
if key then
  wrk.headers["Authorization"] = "Bearer " .. key
end
if surface == "a2a" then
  wrk.path = "/api/v1/a2a"
  wrk.body = '{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","role":"user","messageId":"m","parts":[{"kind":"data","data":{"query":"' .. query .. '"}}],"metadata":{"skillId":"' .. skill .. '"}}}}'
elseif surface == "mcp" then
  wrk.path = "/mcp"
  wrk.headers["Accept"] = "application/json, text/event-stream"
  wrk.headers["MCP-Protocol-Version"] = "2026-07-28"
  wrk.headers["Mcp-Method"] = "tools/call"
  wrk.headers["Mcp-Name"] = tool
  wrk.body = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"' .. tool .. '","arguments":{"query":"' .. query .. '"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"wrk","version":"0"},"io.modelcontextprotocol/clientCapabilities":{}}}}'
elseif surface == "search" then
  wrk.path = "/api/v1/search"
  wrk.body = '{"query":"' .. query .. '","numResults":10}'
elseif surface == "openai" then
  wrk.path = "/v1/chat/completions"
  wrk.body = '{"model":"ecclesia-1","messages":[{"role":"user","content":"' .. query .. '"}]}'
else
  error("SURFACE must be a2a, mcp, search or openai, not " .. surface)
end
-- Non-2xx answers count as errors in the summary line (a refused call must not pass for a fast one).
done = function(summary, latency, requests)
  io.write(string.format("requests %d, errors %d, rps %.1f, p50 %.2f ms, p99 %.2f ms, max %.2f ms\n",
    summary.requests, summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end

-- One request against every pool it needs: a sliding window of WINDOW ms per key, all
-- pools or none. KEYS: the pools' counters. ARGV: window ms, a unique member, then each
-- pool's limit. Time is the Redis server's, the same for every replica.
-- Returns {allowed, now_ms, used_1, oldest_1, used_2, oldest_2, ...} (oldest -1: empty).
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1])
local member = ARGV[2]
local out = {1, now}
for i = 1, #KEYS do
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - window)
  local used = redis.call('ZCARD', KEYS[i])
  local first = redis.call('ZRANGE', KEYS[i], 0, 0, 'WITHSCORES')
  local oldest = -1
  if first[2] then oldest = tonumber(first[2]) end
  if used >= tonumber(ARGV[2 + i]) then out[1] = 0 end
  out[#out + 1] = used
  out[#out + 1] = oldest
end
if out[1] == 1 then
  for i = 1, #KEYS do
    redis.call('ZADD', KEYS[i], now, member)
    redis.call('PEXPIRE', KEYS[i], window)
  end
end
return out

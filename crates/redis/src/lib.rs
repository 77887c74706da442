//! Rate limits shared by many Ecclesia replicas, on Redis.
//!
//! [`RedisLimiter`] implements the server's [`RateLimiter`]: the same sliding one-minute
//! window per pool as the in-process [`InMemoryLimiter`](ecclesia_state::InMemoryLimiter),
//! the same decisions (and so the same `RateLimit-*` headers and errors), but counted in
//! Redis by one Lua script per request (`window.lua`) that takes a slot from every pool the
//! call needs or from none, atomically, with the Redis server's clock. Replicas behind one
//! balancer therefore hold a plan's limit together, within one request.
//!
//! **When Redis is down** every call is bounded ([`RedisOptions::timeout`]), and then, for
//! [`RedisOptions::retry_after`], Redis is not asked at all; meanwhile [`OnOutage`] decides:
//! `Closed` refuses limited calls (a 429 naming the outage, `Retry-After` the retry
//! interval), `Open` lets them through unlimited with a logged warning. Unlimited calls (no
//! pools) never touch Redis.

mod bus;
mod limiter;

pub use bus::RedisBus;

pub use limiter::{OnOutage, RedisError, RedisLimiter, RedisOptions};

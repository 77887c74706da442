//! Per-caller rate limits: a sliding one-minute window per pool, behind the
//! [`RateLimiter`] trait so that a shared (Redis) limiter can replace the
//! in-process one when replicas share callers.

use futures::future::BoxFuture;
use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// One pool to draw from: `pool` names it in errors, `key` is the caller's counter.
#[derive(Debug, Clone)]
pub struct PoolRequest {
    /// Pool name (`message/send`, `catholic_qa`).
    pub pool: String,
    /// Counter key (pool + caller).
    pub key: String,
    /// Requests allowed per window.
    pub limit: u32,
}

/// The verdict, for the most constrained pool; or, with [`unavailable`](Self::unavailable),
/// that the limiter's store cannot be reached and the request is refused for it (a shared
/// limiter that fails closed).
#[derive(Debug, Clone, PartialEq)]
pub struct RateDecision {
    /// Whether the request may go on.
    pub allowed: bool,
    /// The limiter could not count (its store is unreachable) and refuses: `allowed` is
    /// false and `reset_secs` is when to try again. Encoded as 503, not 429: the caller is
    /// not over its plan.
    pub unavailable: bool,
    /// The pool this decision describes.
    pub pool: String,
    /// Its limit.
    pub limit: u32,
    /// Requests left in the window after this one.
    pub remaining: u32,
    /// Seconds until the window frees a slot.
    pub reset_secs: u64,
}

impl RateDecision {
    /// The refusal of a limiter whose store cannot be reached (fail closed): retry in
    /// `retry_secs`.
    pub fn unavailable(retry_secs: u64) -> Self {
        RateDecision {
            allowed: false,
            unavailable: true,
            pool: String::new(),
            limit: 0,
            remaining: 0,
            reset_secs: retry_secs.max(1),
        }
    }
}

/// Counts requests per caller and pool.
pub trait RateLimiter: Send + Sync {
    /// Take one slot from every pool, or none if any is full.
    /// `None` when `pools` is empty (unlimited), or when the limiter cannot count and lets
    /// the request through (a shared limiter that fails open).
    ///
    /// Called on the request path: a limiter over the network awaits its store here and
    /// never blocks the async worker.
    fn acquire<'a>(
        &'a self,
        pools: &'a [PoolRequest],
        now: Instant,
    ) -> BoxFuture<'a, Option<RateDecision>>;
}

/// In-process sliding-window limiter (one replica).
#[derive(Debug)]
pub struct InMemoryLimiter {
    window: Duration,
    hits: Mutex<HashMap<String, VecDeque<Instant>>>,
}

impl Default for InMemoryLimiter {
    fn default() -> Self {
        InMemoryLimiter {
            window: Duration::from_secs(60),
            hits: Mutex::new(HashMap::new()),
        }
    }
}

impl RateLimiter for InMemoryLimiter {
    fn acquire<'a>(
        &'a self,
        pools: &'a [PoolRequest],
        now: Instant,
    ) -> BoxFuture<'a, Option<RateDecision>> {
        Box::pin(std::future::ready(self.take(pools, now)))
    }
}

impl InMemoryLimiter {
    /// [`RateLimiter::acquire`], at once (the counters are in memory).
    pub fn take(&self, pools: &[PoolRequest], now: Instant) -> Option<RateDecision> {
        if pools.is_empty() {
            return None;
        }
        let mut hits = self.hits.lock().unwrap_or_else(|e| e.into_inner());
        if hits.len() > 100_000 {
            // Forget idle callers so memory stays bounded.
            let window = self.window;
            hits.retain(|_, q| q.back().is_some_and(|t| now.duration_since(*t) < window));
        }
        let mut decisions = Vec::with_capacity(pools.len());
        for p in pools {
            let q = hits.entry(p.key.clone()).or_default();
            while q
                .front()
                .is_some_and(|t| now.duration_since(*t) >= self.window)
            {
                q.pop_front();
            }
            let used = q.len() as u32;
            let reset = q
                .front()
                .map(|t| (self.window - now.duration_since(*t)).as_secs().max(1))
                .unwrap_or(self.window.as_secs());
            decisions.push(RateDecision {
                allowed: used < p.limit,
                unavailable: false,
                pool: p.pool.clone(),
                limit: p.limit,
                remaining: p.limit.saturating_sub(used),
                reset_secs: reset,
            });
        }
        if let Some(denied) = decisions.iter().find(|d| !d.allowed) {
            return Some(denied.clone());
        }
        for p in pools {
            hits.entry(p.key.clone()).or_default().push_back(now);
        }
        decisions
            .into_iter()
            .map(|mut d| {
                d.remaining = d.remaining.saturating_sub(1);
                d
            })
            .min_by_key(|d| d.remaining)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(name: &str, limit: u32) -> PoolRequest {
        PoolRequest {
            pool: name.into(),
            key: format!("{name}:k"),
            limit,
        }
    }

    #[test]
    fn window_slides() {
        let l = InMemoryLimiter::default();
        let t0 = Instant::now();
        for i in 0..3 {
            let d = l.take(&[pool("a", 3)], t0).unwrap();
            assert!(d.allowed);
            assert_eq!(d.remaining, 2 - i);
        }
        let d = l
            .take(&[pool("a", 3)], t0 + Duration::from_secs(10))
            .unwrap();
        assert!(!d.allowed);
        assert_eq!(d.reset_secs, 50);
        assert!(
            l.take(&[pool("a", 3)], t0 + Duration::from_secs(61))
                .unwrap()
                .allowed
        );
    }

    #[test]
    fn all_or_nothing() {
        let l = InMemoryLimiter::default();
        let t = Instant::now();
        assert!(
            l.take(&[pool("send", 5), pool("qa", 1)], t)
                .unwrap()
                .allowed
        );
        let d = l.take(&[pool("send", 5), pool("qa", 1)], t).unwrap();
        assert!(!d.allowed);
        assert_eq!(d.pool, "qa");
        // The refused request took nothing from the send pool: 4 left.
        let d = l.take(&[pool("send", 5)], t).unwrap();
        assert_eq!(d.remaining, 3);
    }

    #[test]
    fn acquire_is_take() {
        let l = InMemoryLimiter::default();
        let d = futures::executor::block_on(l.acquire(&[pool("a", 1)], Instant::now()));
        assert!(d.is_some_and(|d| d.allowed && d.remaining == 0));
    }

    #[test]
    fn zero_limit_refuses() {
        let l = InMemoryLimiter::default();
        assert!(!l.take(&[pool("a", 0)], Instant::now()).unwrap().allowed);
        assert!(l.take(&[], Instant::now()).is_none());
    }
}

//! [`RedisLimiter`]: the script, the connection, the outage breaker.

use ecclesia_state::{PoolRequest, RateDecision, RateLimiter};
use futures::future::BoxFuture;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What a limited call gets while Redis cannot be reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnOutage {
    /// Refuse it (503 "rate-limit store unavailable", `Retry-After`): no caller exceeds a
    /// plan, at the cost of availability.
    Closed,
    /// Let it through unlimited, with a warning logged once per probe of Redis (not per
    /// call): availability first.
    Open,
}

impl std::str::FromStr for OnOutage {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "closed" | "fail-closed" => Ok(OnOutage::Closed),
            "open" | "fail-open" => Ok(OnOutage::Open),
            other => Err(format!(
                "unknown Redis outage policy {other:?}: use \"closed\" or \"open\""
            )),
        }
    }
}

/// Where and how to count.
#[derive(Debug, Clone)]
pub struct RedisOptions {
    /// The longest a request waits for Redis (connecting included).
    pub timeout: Duration,
    /// After a failure, how long Redis is not asked (calls follow [`OnOutage`] at once).
    pub retry_after: Duration,
    /// The outage policy.
    pub on_outage: OnOutage,
    /// The sliding window.
    pub window: Duration,
    /// Prefix of every key (several deployments may share one Redis).
    pub prefix: String,
}

impl Default for RedisOptions {
    fn default() -> Self {
        RedisOptions {
            timeout: Duration::from_millis(250),
            retry_after: Duration::from_secs(2),
            on_outage: OnOutage::Closed,
            window: Duration::from_secs(60),
            prefix: "ecclesia:rl:".into(),
        }
    }
}

/// A failure to set the limiter up.
#[derive(Debug, thiserror::Error)]
pub enum RedisError {
    /// The URL is not a Redis URL.
    #[error("bad Redis URL: {0}")]
    Url(redis::RedisError),
}

/// The sliding-window limiter on Redis. Its calls run on the caller's runtime (the
/// connection is made there on first use) and never block a worker: each waits at most
/// the timeout, connecting included.
pub struct RedisLimiter {
    client: redis::Client,
    /// The connection, once made (reconnects itself after a drop). Held while connecting,
    /// so that one call connects and the others wait for it (within their timeout).
    conn: tokio::sync::Mutex<Option<ConnectionManager>>,
    script: redis::Script,
    options: RedisOptions,
    /// Until when Redis is taken as down (no call waits on it meanwhile; the first call
    /// after it probes Redis, the others meanwhile follow the policy at once).
    down_until: Mutex<Option<Instant>>,
    /// Limited calls let through unlimited (fail open) since the last warning.
    unlimited: AtomicU64,
}

impl std::fmt::Debug for RedisLimiter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisLimiter")
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

/// What the script answered for one request.
struct Counted {
    allowed: bool,
    now_ms: i64,
    /// (used, oldest ms or -1) per pool.
    pools: Vec<(i64, i64)>,
}

impl RedisLimiter {
    /// A limiter on the Redis at `url` (`redis://host:port/db`). Connecting waits for the
    /// first request, so a replica starts while Redis is down (and follows the policy).
    pub fn new(url: &str, options: RedisOptions) -> Result<Self, RedisError> {
        let client = redis::Client::open(url).map_err(RedisError::Url)?;
        Ok(RedisLimiter {
            client,
            conn: tokio::sync::Mutex::new(None),
            script: redis::Script::new(include_str!("window.lua")),
            options,
            down_until: Mutex::new(None),
            unlimited: AtomicU64::new(0),
        })
    }

    /// The policy in force while Redis is unreachable.
    pub fn on_outage(&self) -> OnOutage {
        self.options.on_outage
    }

    /// Whether Redis answers now (a `PING` within the timeout, on a connection of its own,
    /// so that it may run on any runtime: the start-up check runs on one of its own).
    pub async fn ping(&self) -> bool {
        self.bounded(async {
            let mut conn = self.client.get_multiplexed_async_connection().await.ok()?;
            redis::cmd("PING")
                .query_async::<String>(&mut conn)
                .await
                .ok()
        })
        .await
        .is_some()
    }

    /// `fut`, given at most the timeout; `None` when it did not finish or gave nothing.
    async fn bounded<T>(&self, fut: impl std::future::Future<Output = Option<T>>) -> Option<T> {
        tokio::time::timeout(self.options.timeout, fut)
            .await
            .ok()
            .flatten()
    }

    /// The connection, made on first use.
    async fn connection(&self) -> Option<ConnectionManager> {
        let mut guard = self.conn.lock().await;
        if let Some(c) = guard.as_ref() {
            return Some(c.clone());
        }
        let timeout = self.options.timeout;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(timeout))
            .set_response_timeout(Some(timeout))
            .set_number_of_retries(1)
            .set_max_delay(timeout);
        match ConnectionManager::new_with_config(self.client.clone(), config).await {
            Ok(c) => {
                *guard = Some(c.clone());
                Some(c)
            }
            Err(e) => {
                tracing::warn!(error = %e, "connecting to Redis failed");
                None
            }
        }
    }

    /// Whether calls skip Redis now (it is down and another call is probing it, or the
    /// retry time has not come); the first call past the retry time is let through to
    /// probe, and the time is pushed on meanwhile, so an outage costs one wait per period.
    fn skip_redis(&self, now: Instant) -> bool {
        let mut down = self.down_until.lock().unwrap_or_else(|e| e.into_inner());
        match *down {
            Some(until) if now < until => true,
            Some(_) => {
                *down = Some(now + self.options.retry_after);
                false
            }
            None => false,
        }
    }

    fn mark(&self, up: bool, now: Instant) {
        let mut down = self.down_until.lock().unwrap_or_else(|e| e.into_inner());
        let was_down = down.is_some();
        *down = (!up).then(|| now + self.options.retry_after);
        drop(down);
        let unlimited = self.unlimited.swap(0, Ordering::Relaxed);
        if up && was_down {
            tracing::info!(
                unlimited_during_outage = unlimited,
                "Redis answers again: shared rate limits are back"
            );
        } else if !up {
            let retry_in_secs = self.options.retry_after.as_secs_f64();
            match self.options.on_outage {
                OnOutage::Closed => tracing::warn!(
                    retry_in_secs,
                    "rate-limit store unavailable: Redis is unreachable, limited calls are refused with 503 (fail closed)"
                ),
                OnOutage::Open => tracing::warn!(
                    retry_in_secs,
                    unlimited_since_last_warning = unlimited,
                    "rate-limit store unavailable: Redis is unreachable, limited calls go through unlimited (fail open)"
                ),
            }
        }
    }

    /// Run the script for `pools`; `None` when Redis did not answer in time.
    async fn count(&self, pools: &[PoolRequest]) -> Option<Counted> {
        let keys: Vec<String> = pools
            .iter()
            .map(|p| format!("{}{}", self.options.prefix, p.key))
            .collect();
        let limits: Vec<u32> = pools.iter().map(|p| p.limit).collect();
        let window_ms = i64::try_from(self.options.window.as_millis()).unwrap_or(i64::MAX);
        let member = format!("{:016x}", rand::random::<u64>());
        let reply = self
            .bounded(async {
                let mut conn = self.connection().await?;
                let mut inv = self.script.prepare_invoke();
                for k in &keys {
                    inv.key(k);
                }
                inv.arg(window_ms).arg(&member);
                for l in &limits {
                    inv.arg(*l);
                }
                Some(match inv.invoke_async::<Vec<i64>>(&mut conn).await {
                    // A connection found broken on first use after an outage: the manager
                    // has reconnected meanwhile, so one more try (within the same deadline).
                    Err(e) if e.is_io_error() || e.is_connection_dropped() => {
                        inv.invoke_async::<Vec<i64>>(&mut conn).await
                    }
                    other => other,
                })
            })
            .await?;
        let v = match reply {
            Ok(v) => v,
            Err(e) => {
                tracing::warn!(error = %e, "the rate-limit script failed");
                return None;
            }
        };
        if v.len() != 2 + 2 * pools.len() {
            tracing::warn!(
                len = v.len(),
                "the rate-limit script answered an unexpected shape"
            );
            return None;
        }
        Some(Counted {
            allowed: v[0] == 1,
            now_ms: v[1],
            pools: v[2..].chunks(2).map(|c| (c[0], c[1])).collect(),
        })
    }

    fn decide(&self, pools: &[PoolRequest], c: &Counted) -> RateDecision {
        let window_ms = i64::try_from(self.options.window.as_millis()).unwrap_or(i64::MAX);
        let decisions: Vec<RateDecision> = pools
            .iter()
            .zip(&c.pools)
            .map(|(p, &(used, oldest))| {
                let used = u32::try_from(used.max(0)).unwrap_or(u32::MAX);
                let reset_secs = if oldest >= 0 {
                    ((window_ms - (c.now_ms - oldest)).max(0) / 1000).max(1) as u64
                } else {
                    self.options.window.as_secs()
                };
                RateDecision {
                    allowed: used < p.limit,
                    unavailable: false,
                    pool: p.pool.clone(),
                    limit: p.limit,
                    remaining: p.limit.saturating_sub(used),
                    reset_secs,
                }
            })
            .collect();
        if !c.allowed {
            if let Some(denied) = decisions.iter().find(|d| !d.allowed) {
                return denied.clone();
            }
        }
        decisions
            .into_iter()
            .map(|mut d| {
                d.remaining = d.remaining.saturating_sub(1);
                d
            })
            .min_by_key(|d| d.remaining)
            .unwrap_or_else(|| RateDecision::unavailable(self.options.retry_after.as_secs()))
    }

    /// What a limited call gets while Redis is unreachable.
    fn on_failure(&self) -> Option<RateDecision> {
        match self.options.on_outage {
            OnOutage::Closed => Some(RateDecision::unavailable(
                self.options.retry_after.as_secs().max(1),
            )),
            OnOutage::Open => {
                self.unlimited.fetch_add(1, Ordering::Relaxed);
                None
            }
        }
    }
}

impl RateLimiter for RedisLimiter {
    fn acquire<'a>(
        &'a self,
        pools: &'a [PoolRequest],
        now: Instant,
    ) -> BoxFuture<'a, Option<RateDecision>> {
        Box::pin(async move {
            if pools.is_empty() {
                return None;
            }
            if self.skip_redis(now) {
                return self.on_failure();
            }
            match self.count(pools).await {
                Some(c) => {
                    self.mark(true, now);
                    Some(self.decide(pools, &c))
                }
                None => {
                    self.mark(false, now);
                    self.on_failure()
                }
            }
        })
    }
}

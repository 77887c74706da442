//! Where the state that replicas share lives.
//!
//! - Tasks, keys, push-notification configs and the published store generation: the embedded SQLite file under the store
//!   (default, one replica), or PostgreSQL (`--state postgres://…`, `ECCLESIA_STATE`,
//!   `[state] url`), shared by every replica.
//! - Rate limits: in process (default), or Redis (`--limits redis://…`, `ECCLESIA_LIMITS`,
//!   `[limits] url`), so that a plan's limit holds across replicas; with both, running tasks'
//!   events and cancels cross replicas on Redis pub/sub ([`RedisBus`]).

use crate::config::{LimitsSection, StateSection};
use anyhow::{bail, Context, Result};
use ecclesia_postgres::{PgOptions, PgStore};
use ecclesia_redis::{OnOutage, RedisBus, RedisLimiter, RedisOptions};
use ecclesia_server::{
    AppState, KeyStore, RateLimiter, ServerConfig, SqliteStore, StoreLimits, SystemClock,
};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// The task and key store in use.
pub enum SharedState {
    /// `<store>/state.sqlite`.
    Sqlite(PathBuf),
    /// One PostgreSQL database for every replica.
    Postgres(Arc<PgStore>),
}

impl SharedState {
    /// The store `url` names (`postgres://…`), or the SQLite file under `store` when none.
    /// `serving`: a server holds a replica lease (tools such as `keys` do not).
    pub fn open(
        url: Option<&str>,
        section: &StateSection,
        store: &Path,
        serving: bool,
    ) -> Result<Self> {
        let Some(url) = url.filter(|u| !u.trim().is_empty()) else {
            return Ok(SharedState::Sqlite(store.join("state.sqlite")));
        };
        if !(url.starts_with("postgres://") || url.starts_with("postgresql://")) {
            bail!("--state {url:?}: expected a postgres://… URL (or none, for the embedded store)");
        }
        let mut options = PgOptions {
            hold_lease: serving,
            ..PgOptions::default()
        };
        if let Some(n) = section.pool_size {
            options.pool_size = n.clamp(1, 1024);
        }
        if let Some(secs) = section.lease_secs {
            options.lease = Duration::from_secs(secs.max(1));
            options.heartbeat = (options.lease / 5).max(Duration::from_millis(200));
        }
        let db = PgStore::connect(url, options)
            .with_context(|| format!("connecting to the shared state at {}", redact(url)))?;
        tracing::info!(replica = db.replica_id(), "shared state on PostgreSQL");
        Ok(SharedState::Postgres(Arc::new(db)))
    }

    /// The key store.
    pub fn keys(&self) -> Result<Arc<dyn KeyStore>> {
        Ok(match self {
            SharedState::Sqlite(path) => {
                if let Some(dir) = path.parent() {
                    std::fs::create_dir_all(dir)?;
                }
                Arc::new(SqliteStore::open(path)?)
            }
            SharedState::Postgres(db) => db.clone(),
        })
    }

    /// The server's state over this store (SQLite: [`AppState::open`], which fails the
    /// tasks a previous process left; PostgreSQL: the replica lease does that).
    pub fn app_state(
        &self,
        config: ServerConfig,
        registry: ecclesia_core::SkillRegistry,
        store: &Path,
    ) -> Result<AppState> {
        match self {
            SharedState::Sqlite(_) => AppState::open(config, registry, store),
            SharedState::Postgres(db) => {
                db.set_limits(StoreLimits {
                    max_bytes: config.max_store_mb.saturating_mul(1024 * 1024),
                    max_per_caller: config.max_tasks_per_caller,
                });
                let push = config.push_notifications;
                let state = AppState::with_parts(
                    config,
                    registry,
                    db.clone(),
                    db.clone(),
                    None,
                    Arc::new(SystemClock),
                );
                // Webhooks in the shared store: set through one replica, delivered by the one
                // running the task (or, through the task bus, by the one that took the config).
                Ok(if push {
                    state.with_push(db.clone())
                } else {
                    state
                })
            }
        }
    }

    /// With PostgreSQL and Redis, running tasks are shared through the task bus on Redis
    /// (streams, resubscriptions and cancels reach the replica that runs the task).
    pub fn with_bus(&self, state: AppState, redis: Option<&str>) -> Result<AppState> {
        let (SharedState::Postgres(db), Some(url)) = (self, redis.filter(|u| !u.trim().is_empty()))
        else {
            return Ok(state);
        };
        let bus = RedisBus::connect(
            url,
            "ecclesia:bus:",
            db.replica_id(),
            Duration::from_millis(500),
        )
        .with_context(|| format!("the task bus on {}", redact(url)))?;
        tracing::info!("running tasks shared through the task bus on Redis");
        Ok(state.with_bus(Arc::new(bus)))
    }

    /// The generation directory replicas should serve, when the shared state names one
    /// that this replica has under `store` (PostgreSQL only; SQLite: `None`, the store's
    /// `CURRENT` decides).
    pub fn published_generation(&self, store: &Path) -> Option<PathBuf> {
        let SharedState::Postgres(db) = self else {
            return None;
        };
        let name = match db.published_generation() {
            Ok(Some(name)) => name,
            Ok(None) => return None,
            Err(e) => {
                tracing::warn!(error = %e, "reading the published generation failed");
                return None;
            }
        };
        if name.is_empty() || name.contains('/') || name.contains("..") {
            tracing::warn!(
                name,
                "the published generation name is not a directory name"
            );
            return None;
        }
        let dir = store.join(&name);
        if dir.is_dir() {
            Some(dir)
        } else {
            tracing::warn!(generation = name, store = %store.display(),
                "the published generation is not in this replica's store yet: serving the one it has");
            None
        }
    }

    /// Name `generation` (a directory under the store) as the one every replica serves.
    pub fn publish(&self, generation: &str) -> Result<()> {
        match self {
            SharedState::Sqlite(_) => bail!(
                "`ecclesia publish` needs the shared state (--state postgres://…): with the embedded \
                 store, `ecclesia ingest` already switches the one server"
            ),
            SharedState::Postgres(db) => Ok(db.publish_generation(generation)?),
        }
    }
}

/// The rate limiter `url` names (`redis://…`), or `None` for the in-process one.
pub fn limiter(
    url: Option<&str>,
    on_outage: Option<&str>,
    section: &LimitsSection,
) -> Result<Option<Arc<dyn RateLimiter>>> {
    let Some(url) = url.filter(|u| !u.trim().is_empty()) else {
        return Ok(None);
    };
    if !(url.starts_with("redis://") || url.starts_with("rediss://") || url.starts_with("unix://"))
    {
        bail!("--limits {url:?}: expected a redis://… URL (or none, for in-process limits)");
    }
    let mut options = RedisOptions::default();
    if let Some(policy) = on_outage.or(section.on_outage.as_deref()) {
        options.on_outage = policy
            .parse::<OnOutage>()
            .map_err(anyhow::Error::msg)
            .context("[limits] on_outage")?;
    }
    if let Some(ms) = section.timeout_ms {
        options.timeout = Duration::from_millis(ms.clamp(10, 10_000));
    }
    let limiter = RedisLimiter::new(url, options)
        .with_context(|| format!("the rate limiter at {}", redact(url)))?;
    if !answers(&limiter) {
        tracing::warn!(url = %redact(url), policy = ?limiter.on_outage(),
            "Redis does not answer yet: limited calls follow the outage policy until it does");
    }
    tracing::info!(policy = ?limiter.on_outage(), "rate limits on Redis");
    Ok(Some(Arc::new(limiter)))
}

/// Whether the limiter's Redis answers now (checked once at start, before the server's
/// runtime exists, on a small runtime of its own).
fn answers(limiter: &RedisLimiter) -> bool {
    match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt.block_on(limiter.ping()),
        Err(_) => false,
    }
}

/// `url` without its password, for messages and logs.
fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let userinfo = &url[scheme + 3..at];
            let user = userinfo.split(':').next().unwrap_or("");
            format!("{}{}@{}", &url[..scheme + 3], user, &url[at + 1..])
        }
        _ => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_left_out_of_messages() {
        assert_eq!(
            redact("postgres://ecclesia:secret@db:5432/x"),
            "postgres://ecclesia@db:5432/x"
        );
        assert_eq!(redact("redis://127.0.0.1:6379/"), "redis://127.0.0.1:6379/");
    }

    #[test]
    fn the_embedded_store_is_the_default_and_other_schemes_are_refused() {
        let dir = Path::new("/nonexistent");
        let s = SharedState::open(None, &StateSection::default(), dir, true).unwrap();
        assert!(matches!(s, SharedState::Sqlite(p) if p == dir.join("state.sqlite")));
        let err = SharedState::open(Some("mysql://x"), &StateSection::default(), dir, true)
            .err()
            .unwrap();
        assert!(err.to_string().contains("postgres://"), "{err}");
        assert!(limiter(None, None, &LimitsSection::default())
            .unwrap()
            .is_none());
        let err = limiter(Some("http://x"), None, &LimitsSection::default())
            .err()
            .unwrap();
        assert!(err.to_string().contains("redis://"), "{err}");
        let err = limiter(
            Some("redis://127.0.0.1:1/"),
            Some("sometimes"),
            &LimitsSection::default(),
        )
        .err()
        .unwrap();
        assert!(format!("{err:#}").contains("closed"), "{err:#}");
    }
}

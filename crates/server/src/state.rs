//! [`AppState`]: everything a handler needs, cheap to clone.

use crate::auth::KeyStore;
use crate::card::agent_card;
use crate::clock::{Clock, SystemClock};
use crate::config::ServerConfig;
use crate::conn::{Connections, FdLimit};
use crate::metrics::Metrics;
use crate::queue::{Lane, LaneKind, LaneLimits, Lanes};
use crate::ratelimit::{InMemoryLimiter, RateLimiter};
use crate::runner::SharedEvent;
use crate::store::{SqliteStore, TaskStore};
use axum::extract::State;
use axum::response::IntoResponse;
use ecclesia_a2a::AgentCard;
use ecclesia_core::SkillRegistry;
use serde_json::json;
use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, OnceLock};
use tokio::sync::{broadcast, watch, Notify};

/// A task being worked on right now, in this process.
#[derive(Debug)]
pub struct RunningTask {
    /// Owner (only they may cancel or resubscribe).
    pub owner: String,
    /// Set when the task must stop (cancel or deadline); the skill polls it.
    pub stop: Arc<AtomicBool>,
    /// Set when the caller canceled (the runner then leaves the stored status alone).
    pub canceled: Arc<AtomicBool>,
    /// Set when the run is storing its final state (too late to cancel).
    pub finished: Arc<AtomicBool>,
    /// Stream events for `message/stream` and `tasks/resubscribe` listeners.
    pub events: broadcast::Sender<SharedEvent>,
    /// Woken on cancel (a run still waiting in its queue gives up its place).
    pub wake: Arc<Notify>,
}

/// The tasks running in this process, by id.
pub type RunningTasks = Arc<Mutex<HashMap<String, RunningTask>>>;

/// A value replaced whole while readers keep the one they loaded (the skill
/// registry and the card, when a new store generation is published).
#[derive(Debug)]
pub struct Swappable<T>(std::sync::RwLock<Arc<T>>);

impl<T> Swappable<T> {
    /// Holding `v`.
    pub fn new(v: T) -> Self {
        Swappable(std::sync::RwLock::new(Arc::new(v)))
    }

    /// The current value (kept alive by the caller as long as it needs it).
    pub fn load(&self) -> Arc<T> {
        self.0.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Replace the value; readers of the old one finish with it.
    pub fn store(&self, v: T) {
        *self.0.write().unwrap_or_else(|e| e.into_inner()) = Arc::new(v);
    }
}

/// An HTTP date (RFC 9110 IMF-fixdate): `Tue, 01 Dec 2026 12:00:00 GMT`.
pub fn http_date(t: chrono::DateTime<chrono::Utc>) -> String {
    t.format("%a, %d %b %Y %H:%M:%S GMT").to_string()
}

/// Shared state of every handler.
#[derive(Clone)]
pub struct AppState {
    /// Validated configuration.
    pub config: Arc<ServerConfig>,
    /// The skills (swapped whole by [`AppState::swap_registry`]).
    pub registry: Arc<Swappable<SkillRegistry>>,
    /// The card, built from the registry.
    pub card: Arc<Swappable<AgentCard>>,
    /// When the card was last built, as an HTTP date (its `Last-Modified`).
    pub card_since: Arc<Swappable<String>>,
    /// Registries swapped in since start.
    pub swaps: Arc<std::sync::atomic::AtomicU64>,
    /// Task persistence.
    pub tasks: Arc<dyn TaskStore>,
    /// API keys.
    pub keys: Arc<dyn KeyStore>,
    /// The SQLite store, kept to checkpoint it on shutdown.
    pub sqlite: Option<Arc<SqliteStore>>,
    /// Rate limits.
    pub limiter: Arc<dyn RateLimiter>,
    /// Metrics.
    pub metrics: Arc<Metrics>,
    /// Time source.
    pub clock: Arc<dyn Clock>,
    /// Tasks running now.
    pub running: RunningTasks,
    /// The bounded, fair work queues (fast and slow lanes).
    pub lanes: Lanes,
    /// Tells background work to stop.
    pub shutdown_tx: Arc<watch::Sender<bool>>,
    /// The open connections (set by [`crate::serve`]).
    pub connections: Arc<OnceLock<Arc<Connections>>>,
    /// The descriptor limit found (and raised) by [`crate::serve`].
    pub fd_limit: Arc<OnceLock<Option<FdLimit>>>,
}

impl AppState {
    /// State over the SQLite database `<store>/state.sqlite` (created if needed).
    /// Tasks a previous process left unfinished are marked failed.
    pub fn open(
        config: ServerConfig,
        registry: SkillRegistry,
        store_dir: &Path,
    ) -> anyhow::Result<Self> {
        std::fs::create_dir_all(store_dir)?;
        let db = Arc::new(SqliteStore::open(&store_dir.join("state.sqlite"))?);
        db.set_limits(crate::store::StoreLimits {
            max_bytes: config.max_store_mb.saturating_mul(1024 * 1024),
            max_per_caller: config.max_tasks_per_caller,
        });
        let failed = db.fail_unfinished(chrono::Utc::now())?;
        if failed > 0 {
            tracing::warn!(
                failed,
                "tasks left unfinished by the previous run were marked failed"
            );
        }
        Ok(Self::with_parts(
            config,
            registry,
            db.clone(),
            db.clone(),
            Some(db),
            Arc::new(SystemClock),
        ))
    }

    /// State from explicit parts (tests inject a store and a clock here).
    pub fn with_parts(
        config: ServerConfig,
        registry: SkillRegistry,
        tasks: Arc<dyn TaskStore>,
        keys: Arc<dyn KeyStore>,
        sqlite: Option<Arc<SqliteStore>>,
        clock: Arc<dyn Clock>,
    ) -> Self {
        let card = agent_card(
            &registry,
            &config.public_url,
            &config.version,
            config.anonymous,
        );
        let (tx, _) = watch::channel(false);
        AppState {
            lanes: Lanes {
                fast: Lane::new(
                    LaneKind::Fast,
                    LaneLimits {
                        workers: config.max_concurrent_skills,
                        queue: config.queue_limit,
                        per_caller: config.queue_per_caller,
                    },
                ),
                slow: Lane::new(
                    LaneKind::Slow,
                    LaneLimits {
                        workers: config.max_concurrent_slow_skills,
                        queue: config.slow_queue_limit,
                        per_caller: config.slow_queue_per_caller,
                    },
                ),
            },
            config: Arc::new(config),
            registry: Arc::new(Swappable::new(registry)),
            card: Arc::new(Swappable::new(card)),
            card_since: Arc::new(Swappable::new(http_date(chrono::Utc::now()))),
            swaps: Arc::default(),
            tasks,
            keys,
            sqlite,
            limiter: Arc::new(InMemoryLimiter::default()),
            metrics: Arc::new(Metrics::default()),
            clock,
            running: Arc::new(Mutex::new(HashMap::new())),
            shutdown_tx: Arc::new(tx),
            connections: Arc::default(),
            fd_limit: Arc::default(),
        }
    }

    /// Serve `registry` from now on (a new store generation): requests
    /// already running keep the skills they started with, and the old stores
    /// close when the last of them ends.
    pub fn swap_registry(&self, registry: SkillRegistry) {
        let c = &self.config;
        let card = agent_card(&registry, &c.public_url, &c.version, c.anonymous);
        let ids = registry.ids().to_vec();
        self.registry.store(registry);
        self.card.store(card);
        self.card_since.store(http_date(chrono::Utc::now()));
        self.swaps
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        tracing::info!(skills = ?ids, "new store generation: skills swapped in");
    }

    /// Every `every`, ask `check` (on a blocking thread) for a new registry and
    /// swap it in; stops at shutdown.
    pub fn spawn_reloader<F>(
        &self,
        every: std::time::Duration,
        check: F,
    ) -> tokio::task::JoinHandle<()>
    where
        F: Fn() -> Option<SkillRegistry> + Send + Sync + 'static,
    {
        let state = self.clone();
        let check = Arc::new(check);
        let mut rx = self.shutdown_tx.subscribe();
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    _ = tokio::time::sleep(every) => {}
                    _ = rx.changed() => return,
                }
                let check = check.clone();
                match tokio::task::spawn_blocking(move || check()).await {
                    Ok(Some(registry)) => state.swap_registry(registry),
                    Ok(None) => {}
                    Err(e) => {
                        tracing::warn!(error = %e, "checking for a new store generation failed")
                    }
                }
            }
        })
    }

    /// The lane `skill` runs in.
    pub fn lane_of(&self, skill: &str) -> &Lane {
        let kind = if self.config.slow_skills.iter().any(|s| s == skill) {
            LaneKind::Slow
        } else {
            LaneKind::Fast
        };
        self.lanes.get(kind)
    }

    /// Start the background purge of expired tasks.
    pub fn spawn_purge(&self) -> tokio::task::JoinHandle<()> {
        let state = self.clone();
        let mut rx = self.shutdown_tx.subscribe();
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    _ = tokio::time::sleep(state.config.purge_every) => {}
                    _ = rx.changed() => return,
                }
                let tasks = state.tasks.clone();
                let now = state.clock.now();
                match tokio::task::spawn_blocking(move || tasks.maintain(now)).await {
                    Ok(Ok(m)) if m != Default::default() => tracing::info!(
                        expired = m.expired,
                        evicted = m.evicted,
                        vacuumed_pages = m.vacuumed_pages,
                        "task store upkeep"
                    ),
                    Ok(Err(e)) => tracing::warn!(error = %e, "task store upkeep failed"),
                    _ => {}
                }
            }
        })
    }

    /// Signal background work and running skills to stop.
    pub fn shutdown(&self) {
        let _ = self.shutdown_tx.send(true);
    }

    /// Flush the store.
    pub fn close(&self) {
        if let Some(db) = &self.sqlite {
            db.checkpoint();
        }
    }
}

pub(crate) async fn healthz() -> impl IntoResponse {
    axum::Json(json!({"status": "ok"}))
}

pub(crate) async fn readyz(State(state): State<AppState>) -> impl IntoResponse {
    let registry = state.registry.load();
    let skills: serde_json::Map<String, serde_json::Value> =
        registry.iter().map(|s| (s.card().id, s.status())).collect();
    let ready = !registry.is_empty();
    let code = if ready {
        axum::http::StatusCode::OK
    } else {
        axum::http::StatusCode::SERVICE_UNAVAILABLE
    };
    (
        code,
        axum::Json(json!({
            "status": if ready { "ready" } else { "no skills loaded (run `ecclesia ingest`)" },
            "skills": skills,
            "limits": limits_json(&state),
            "registry_swaps": state.swaps.load(std::sync::atomic::Ordering::Relaxed),
            "queues": {
                "fast": state.lanes.fast.stats(),
                "slow": state.lanes.slow.stats(),
            },
        })),
    )
}

/// The connection limits in force, for `/readyz`.
fn limits_json(state: &AppState) -> serde_json::Value {
    use std::sync::atomic::Ordering::Relaxed;
    let c = &state.config;
    let mut v = json!({
        "header_read_timeout_secs": c.header_read_timeout.as_secs_f64(),
        "idle_timeout_secs": c.idle_timeout.as_secs_f64(),
        "body_timeout_secs": c.body_timeout.as_secs_f64(),
        "body_limit_bytes": c.body_limit,
        "max_connections_configured": c.max_connections,
        "max_connections_per_ip": c.max_connections_per_ip,
    });
    if let Some(Some(fd)) = state.fd_limit.get() {
        v["fd_soft_limit"] = json!(fd.soft);
        v["fd_hard_limit"] = json!(fd.hard);
        v["fd_limit_raised"] = json!(fd.raised);
    }
    if let Some(conns) = state.connections.get() {
        let k = &conns.counters;
        v["max_connections"] = json!(conns.limits().max_connections);
        v["connections_open"] = json!(conns.open());
        v["connections_refused"] = json!(k.refused.load(Relaxed));
        v["connections_evicted"] = json!(k.evicted.load(Relaxed));
        v["header_timeouts"] = json!(k.header_timeouts.load(Relaxed));
        v["idle_timeouts"] = json!(k.idle_timeouts.load(Relaxed));
    }
    v
}

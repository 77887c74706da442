//! [`AppState`]: everything a handler needs, cheap to clone.

use crate::auth::KeyStore;
use crate::card::agent_card;
use crate::clock::{Clock, SystemClock};
use crate::config::ServerConfig;
use crate::metrics::Metrics;
use crate::ratelimit::{InMemoryLimiter, RateLimiter};
use crate::store::{SqliteStore, TaskStore};
use axum::extract::State;
use axum::response::IntoResponse;
use ecclesia_a2a::{AgentCard, StreamEvent};
use ecclesia_core::SkillRegistry;
use serde_json::json;
use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use tokio::sync::{broadcast, watch, Semaphore};

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
    pub events: broadcast::Sender<StreamEvent>,
}

/// The tasks running in this process, by id.
pub type RunningTasks = Arc<Mutex<HashMap<String, RunningTask>>>;

/// Shared state of every handler.
#[derive(Clone)]
pub struct AppState {
    /// Validated configuration.
    pub config: Arc<ServerConfig>,
    /// The skills.
    pub registry: Arc<SkillRegistry>,
    /// The card, built once.
    pub card: Arc<AgentCard>,
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
    /// Bounds concurrent skill runs.
    pub permits: Arc<Semaphore>,
    /// Tells background work to stop.
    pub shutdown_tx: Arc<watch::Sender<bool>>,
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
            permits: Arc::new(Semaphore::new(config.max_concurrent_skills.max(1))),
            config: Arc::new(config),
            registry: Arc::new(registry),
            card: Arc::new(card),
            tasks,
            keys,
            sqlite,
            limiter: Arc::new(InMemoryLimiter::default()),
            metrics: Arc::new(Metrics::default()),
            clock,
            running: Arc::new(Mutex::new(HashMap::new())),
            shutdown_tx: Arc::new(tx),
        }
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
                match tokio::task::spawn_blocking(move || tasks.purge_expired(now)).await {
                    Ok(Ok(n)) if n > 0 => tracing::info!(purged = n, "expired tasks purged"),
                    Ok(Err(e)) => tracing::warn!(error = %e, "purge failed"),
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
    let skills: serde_json::Map<String, serde_json::Value> = state
        .registry
        .iter()
        .map(|s| (s.card().id, s.status()))
        .collect();
    let ready = !state.registry.is_empty();
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
        })),
    )
}

//! [`AppState`]: everything a handler needs, cheap to clone.

use crate::config::ServerConfig;
use crate::core::bus::{InProcessBus, TaskBus};
use crate::core::callers::KeyStore;
use crate::core::card::agent_card;
use crate::core::clock::{Clock, SystemClock};
use crate::core::lanes::{Lane, LaneKind, LaneLimits, Lanes};
use crate::core::limits::{InMemoryLimiter, RateLimiter};
use crate::core::metrics::Metrics;
use crate::core::push::deliver::Push;
use crate::core::push::PushConfigStore;
use crate::core::store::{SqliteStore, TaskStore, TaskWriter};
use ecclesia_a2a::AgentCard;
use ecclesia_core::SkillRegistry;
use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use tokio::sync::{watch, Notify};

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
    /// Task persistence (read here; written through [`AppState::writer`]).
    pub tasks: Arc<dyn TaskStore>,
    /// The write queue in front of [`AppState::tasks`].
    pub writer: TaskWriter,
    /// What running tasks share beyond this replica (events, cancellation).
    pub bus: Arc<dyn TaskBus>,
    /// Push notifications (configs and delivery), when on.
    pub push: Option<Arc<Push>>,
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
        db.set_limits(crate::core::store::StoreLimits {
            max_bytes: config.max_store_mb.saturating_mul(1024 * 1024),
            max_per_caller: config.max_tasks_per_caller,
        });
        let failed = crate::core::tasks::fail_unfinished(db.as_ref(), chrono::Utc::now())?;
        if failed > 0 {
            tracing::warn!(
                failed,
                "tasks left unfinished by the previous run were marked failed"
            );
        }
        let push = config.push_notifications;
        let state = Self::with_parts(
            config,
            registry,
            db.clone(),
            db.clone(),
            Some(db.clone()),
            Arc::new(SystemClock),
        );
        Ok(if push { state.with_push(db) } else { state })
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
            writer: TaskWriter::new(tasks.clone()),
            bus: Arc::new(InProcessBus::default()),
            push: None,
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
        }
    }

    /// The same state with another task bus (a shared one, for several replicas).
    pub fn with_bus(mut self, bus: Arc<dyn TaskBus>) -> Self {
        self.bus = bus;
        self
    }

    /// The same state with push notifications, their configs in `store` (the card then
    /// declares `capabilities.pushNotifications`).
    pub fn with_push(mut self, store: Arc<dyn PushConfigStore>) -> Self {
        self.push = Some(Arc::new(Push::new(store, self.config.push_allow.clone())));
        let mut card = (*self.card.load()).clone();
        card.capabilities.push_notifications = Some(true);
        self.card.store(card);
        self
    }

    /// The card for `registry`, with the capabilities of this state.
    fn card_for(&self, registry: &SkillRegistry) -> AgentCard {
        let c = &self.config;
        let mut card = agent_card(registry, &c.public_url, &c.version, c.anonymous);
        card.capabilities.push_notifications = Some(self.push.is_some());
        card
    }

    /// Serve `registry` from now on (a new store generation): requests
    /// already running keep the skills they started with, and the old stores
    /// close when the last of them ends.
    pub fn swap_registry(&self, registry: SkillRegistry) {
        let card = self.card_for(&registry);
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

    /// The core as the front-end `surface` calls it.
    pub fn client(&self, surface: &'static str) -> crate::core::client::CoreClient {
        crate::core::client::CoreClient::new(self.clone(), surface)
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
                match crate::core::tasks::maintain(&state).await {
                    Ok(m) if m != Default::default() => tracing::info!(
                        expired = m.expired,
                        evicted = m.evicted,
                        vacuumed_pages = m.vacuumed_pages,
                        "task store upkeep"
                    ),
                    Err(e) => tracing::warn!(error = %e, "task store upkeep failed"),
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

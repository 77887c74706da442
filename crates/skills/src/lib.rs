//! The ten skills of the agent, as thin adapters from the transport-neutral
//! [`ecclesia_core::Skill`] interface to the domain crates, plus the list of
//! every domain [`ecclesia_core::Ingester`].
//!
//! The server knows nothing of calendars or directories: the CLI calls
//! [`build_registry`] and hands the registry to the server.
//!
//! Each domain module exposes `register(&mut SkillRegistry, &SkillEnv)` and
//! `ingesters()`; adding a skill is one `Skill` implementation and one
//! `registry.register(..)` line in its module.

use ecclesia_core::{Ingester, SkillRegistry};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, Weak};

pub mod calendar_feed;
pub mod corpus;
pub mod directory;
pub mod liturgy;
pub mod qa;
pub mod qa_topic;

/// What the skills need from the deployment: where the data and the built
/// stores are, the "today" of date phrases, and per-domain settings.
#[derive(Debug, Clone, Default)]
pub struct SkillEnv {
    /// The datasets (`../shared/data`).
    pub data_dir: PathBuf,
    /// The current store generation (`<store>/gen-…`); a domain's store is
    /// `generation.join(ingester_name)`. `None` before the first ingest.
    pub generation: Option<PathBuf>,
    /// Fixed "today" for date phrases (tests, reproducible runs); `None` = the clock.
    pub today: Option<chrono::NaiveDate>,
    /// IANA time zone in which "today" is read (default `UTC`).
    pub timezone: String,
    /// The config file's tables, by section name (`liturgy`, `qa`, …), as JSON.
    pub settings: serde_json::Map<String, serde_json::Value>,
    /// A long-running server: start background jobs (transformer vectors).
    /// One-shot commands leave it `false` and use only what is cached.
    pub background: bool,
}

impl SkillEnv {
    /// The store directory of the ingester `name`, when it was built.
    pub fn store(&self, name: &str) -> Option<PathBuf> {
        let dir = self.generation.as_ref()?.join(name);
        dir.is_dir().then_some(dir)
    }

    /// The store root (the folder holding the generations), when built.
    pub fn store_root(&self) -> Option<PathBuf> {
        self.generation.as_ref()?.parent().map(PathBuf::from)
    }

    /// The config section `name` (`[qa]` …), or `Null`.
    pub fn section(&self, name: &str) -> serde_json::Value {
        self.settings
            .get(name)
            .cloned()
            .unwrap_or(serde_json::Value::Null)
    }
}

/// The registry of stores opened by one domain: one open store per folder,
/// shared by every skill that needs it while any of them holds it.
pub(crate) type OpenStores<T> = OnceLock<Mutex<HashMap<PathBuf, Weak<T>>>>;

/// The store in `dir` from `open`, or opened now with `load` (which logs its
/// own failure and returns `None`).
pub(crate) fn shared_store<T>(
    open: &'static OpenStores<T>,
    dir: PathBuf,
    load: impl FnOnce(&Path) -> Option<T>,
) -> Option<Arc<T>> {
    let mut map = open
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|p| p.into_inner());
    if let Some(s) = map.get(&dir).and_then(Weak::upgrade) {
        return Some(s);
    }
    let s = Arc::new(load(&dir)?);
    map.insert(dir, Arc::downgrade(&s));
    Some(s)
}

/// Every domain ingester, in the order `ecclesia ingest` runs them.
pub fn ingesters() -> Vec<Box<dyn Ingester>> {
    let mut all: Vec<Box<dyn Ingester>> = Vec::new();
    all.extend(liturgy::ingesters());
    all.extend(corpus::ingesters());
    all.extend(directory::ingesters());
    all.extend(qa::ingesters());
    all
}

/// Every domain ingester configured by the config file's tables (`[corpus]`
/// ingest keys); a bad value is an error that names it.
pub fn configured_ingesters(env: &SkillEnv) -> Result<Vec<Box<dyn Ingester>>, String> {
    let mut all: Vec<Box<dyn Ingester>> = Vec::new();
    all.extend(liturgy::ingesters());
    all.extend(corpus::configured_ingesters(env)?);
    all.extend(directory::ingesters());
    all.extend(qa::ingesters());
    Ok(all)
}

/// The registry of every skill whose store is present. A skill whose store is
/// missing is left out (and absent from the card), with a warning in the log.
pub fn build_registry(env: &SkillEnv) -> SkillRegistry {
    // Card order: the default skill first, then the contract's order.
    let mut registry = SkillRegistry::default();
    qa::register(&mut registry, env);
    corpus::register(&mut registry, env);
    liturgy::register(&mut registry, env);
    directory::register(&mut registry, env);
    registry
}

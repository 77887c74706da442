//! The configuration file (TOML), merged under flags and environment variables.

use anyhow::{Context, Result};
use ecclesia_server::Plan;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// `ecclesia.toml`: every table optional.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileConfig {
    /// `[server]`
    #[serde(default)]
    pub server: ServerSection,
    /// `[paths]`
    #[serde(default)]
    pub paths: PathsSection,
    /// `[time]`
    #[serde(default)]
    pub time: TimeSection,
    /// `[plans.<name>]`
    #[serde(default)]
    pub plans: BTreeMap<String, Plan>,
    /// Per-domain sections (`[liturgy]`, `[directory]`, `[corpus]`, `[qa]`), handed to the skills.
    #[serde(flatten)]
    pub domains: BTreeMap<String, toml::Value>,
}

/// `[server]`
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerSection {
    /// Address to bind (`127.0.0.1:8080`).
    pub listen: Option<String>,
    /// Public base URL for the card.
    pub public_url: Option<String>,
    /// Serve callers without a key.
    pub anonymous: Option<bool>,
    /// Largest request body.
    pub body_limit_bytes: Option<usize>,
    /// Time to read a request body.
    pub body_timeout_secs: Option<u64>,
    /// Deadline of one skill run.
    pub skill_timeout_secs: Option<u64>,
    /// Task lifetime.
    pub task_ttl_hours: Option<u64>,
    /// Concurrent skill runs.
    pub max_concurrent_skills: Option<usize>,
}

/// `[paths]`
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PathsSection {
    /// Datasets.
    pub data: Option<PathBuf>,
    /// Built stores.
    pub store: Option<PathBuf>,
}

/// `[time]`
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeSection {
    /// IANA time zone of "today".
    pub timezone: Option<String>,
    /// A fixed "today" (YYYY-MM-DD).
    pub today: Option<String>,
}

impl FileConfig {
    /// Read `path`; a missing explicit file is an error.
    pub fn load(path: Option<&Path>) -> Result<Self> {
        let Some(path) = path else {
            let default = Path::new("ecclesia.toml");
            if default.is_file() {
                return Self::load(Some(default));
            }
            return Ok(FileConfig::default());
        };
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("reading the config file {}", path.display()))?;
        toml::from_str(&text).with_context(|| format!("in the config file {}", path.display()))
    }

    /// The domain sections as JSON, for the skills.
    pub fn settings(&self) -> serde_json::Map<String, serde_json::Value> {
        self.domains
            .iter()
            .filter_map(|(k, v)| Some((k.clone(), serde_json::to_value(v).ok()?)))
            .collect()
    }
}

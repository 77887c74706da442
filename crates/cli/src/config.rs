//! The configuration file (TOML), merged under flags and environment variables.

use anyhow::{Context, Result};
use ecclesia_server::Plan;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The per-domain sections a config file may have.
pub const DOMAIN_SECTIONS: &[&str] = &["liturgy", "directory", "corpus", "qa"];

/// `ecclesia.toml`: every table optional. (Unknown sections are refused by
/// [`FileConfig::load`]: serde's `deny_unknown_fields` does not work beside a
/// flattened map.)
#[derive(Debug, Default, Deserialize)]
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
    /// `[tasks]`
    #[serde(default)]
    pub tasks: TasksSection,
    /// `[plans.<name>]`
    #[serde(default)]
    pub plans: BTreeMap<String, Plan>,
    /// `[state]`: tasks and keys shared by replicas (PostgreSQL).
    #[serde(default)]
    pub state: StateSection,
    /// `[limits]`: rate limits shared by replicas (Redis).
    #[serde(default)]
    pub limits: LimitsSection,
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
    /// Serve the web console at `/` (default true).
    pub console: Option<bool>,
    /// Largest request body.
    pub body_limit_bytes: Option<usize>,
    /// Time to read a request body.
    pub body_timeout_secs: Option<u64>,
    /// Deadline of one skill run.
    pub skill_timeout_secs: Option<u64>,
    /// Task lifetime.
    pub task_ttl_hours: Option<u64>,
    /// Concurrent runs of the fast skills.
    pub max_concurrent_skills: Option<usize>,
    /// Concurrent runs of the slow skills.
    pub max_concurrent_slow_skills: Option<usize>,
    /// The skills that run in the slow lane.
    pub slow_skills: Option<Vec<String>>,
    /// Fast runs waiting, in all.
    pub queue_limit: Option<usize>,
    /// Slow runs waiting, in all.
    pub slow_queue_limit: Option<usize>,
    /// Fast runs one caller may have waiting.
    pub queue_per_caller: Option<usize>,
    /// Slow runs one caller may have waiting.
    pub slow_queue_per_caller: Option<usize>,
    /// Time to send a request head, from its first byte.
    pub header_read_timeout_secs: Option<u64>,
    /// Time a connection may stay open with no request.
    pub idle_timeout_secs: Option<u64>,
    /// Connections at once.
    pub max_connections: Option<usize>,
    /// Connections at once from one client address.
    pub max_connections_per_ip: Option<usize>,
    /// P-256 private key (PKCS#8 PEM file) that signs the A2A 1.0 agent card.
    pub card_signing_key: Option<PathBuf>,
    /// Key id in the card signature's header (default: the key's RFC 7638 thumbprint).
    pub card_signing_kid: Option<String>,
    /// Push notifications (webhooks) on (default true).
    pub push_notifications: Option<bool>,
    /// Webhook addresses or host names allowed beside the public ones (e.g. `["127.0.0.1"]`).
    pub push_allow: Option<Vec<String>>,
}

/// `[tasks]`
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TasksSection {
    /// Ceiling on the task store, in MiB (default 1024).
    pub max_store_mb: Option<u64>,
    /// Tasks kept per caller (default 10,000).
    pub max_per_caller: Option<u64>,
}

/// `[state]`
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StateSection {
    /// `postgres://user:password@host:port/database` (default: the embedded SQLite store).
    pub url: Option<String>,
    /// Connections per replica (default 16).
    pub pool_size: Option<usize>,
    /// Seconds after which a silent replica's running tasks are failed (default 30).
    pub lease_secs: Option<u64>,
}

/// `[limits]`
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitsSection {
    /// `redis://host:port/` (default: limits counted in process).
    pub url: Option<String>,
    /// While Redis is unreachable: `"closed"` (refuse limited calls, default) or `"open"`.
    pub on_outage: Option<String>,
    /// The longest a request waits for Redis, in ms (default 250).
    pub timeout_ms: Option<u64>,
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
        let cfg: FileConfig = toml::from_str(&text)
            .with_context(|| format!("in the config file {}", path.display()))?;
        for (name, v) in &cfg.domains {
            if !DOMAIN_SECTIONS.contains(&name.as_str()) {
                anyhow::bail!(
                    "in the config file {}: unknown section or key `{name}` (expected server, paths, time, tasks, plans, state, limits, {})",
                    path.display(),
                    DOMAIN_SECTIONS.join(", ")
                );
            }
            if !v.is_table() {
                anyhow::bail!(
                    "in the config file {}: `{name}` must be a table ([{name}])",
                    path.display()
                );
            }
        }
        Ok(cfg)
    }

    /// The domain sections as JSON, for the skills.
    pub fn settings(&self) -> serde_json::Map<String, serde_json::Value> {
        self.domains
            .iter()
            .filter_map(|(k, v)| Some((k.clone(), serde_json::to_value(v).ok()?)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str) -> Result<FileConfig> {
        let tmp = tempfile::tempdir()?;
        let p = tmp.path().join("ecclesia.toml");
        std::fs::write(&p, text)?;
        FileConfig::load(Some(&p))
    }

    #[test]
    fn domain_sections_reach_the_skills() {
        let cfg = load(
            "[server]\nlisten = \"127.0.0.1:9\"\n[corpus]\nthreads = 2\nmodel_dir = \"m\"\n[qa]\nbackend = \"extractive\"\n",
        )
        .unwrap();
        let s = cfg.settings();
        assert_eq!(s["corpus"]["threads"], 2);
        assert_eq!(s["corpus"]["model_dir"], "m");
        assert_eq!(s["qa"]["backend"], "extractive");
        assert_eq!(cfg.server.listen.as_deref(), Some("127.0.0.1:9"));
    }

    #[test]
    fn unknown_sections_and_keys_are_refused() {
        let e = load("[corpse]\nx = 1\n").unwrap_err();
        assert!(
            format!("{e:#}").contains("unknown section or key `corpse`"),
            "{e:#}"
        );
        let e = load("corpus = 3\n").unwrap_err();
        assert!(format!("{e:#}").contains("must be a table"), "{e:#}");
        let e = load("[server]\nlisen = \"x\"\n").unwrap_err();
        assert!(format!("{e:#}").contains("lisen"), "{e:#}");
        assert!(load("[corpus\n").is_err());
    }
}

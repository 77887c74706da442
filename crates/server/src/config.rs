//! The server's configuration, validated once, and the plans.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::time::Duration;

/// What a plan allows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Plan {
    /// Whether the plan includes A2A `message/send` (false: `PLAN_REQUIRED`).
    #[serde(default = "yes")]
    pub a2a: bool,
    /// `message/send` requests a minute; absent = unlimited.
    #[serde(default)]
    pub send_per_minute: Option<u32>,
    /// `catholic_qa` requests a minute (a second, stricter pool); absent = unlimited.
    #[serde(default)]
    pub qa_per_minute: Option<u32>,
}

fn yes() -> bool {
    true
}

impl Plan {
    /// The `pro` defaults: 15/min, 2/min for `catholic_qa`.
    pub fn pro() -> Self {
        Plan {
            a2a: true,
            send_per_minute: Some(15),
            qa_per_minute: Some(2),
        }
    }

    /// Anonymous callers of a server on a loopback address: generous, not
    /// infinite (1,200 a minute, 120 for `catholic_qa`).
    pub fn loopback() -> Self {
        Plan {
            a2a: true,
            send_per_minute: Some(1200),
            qa_per_minute: Some(120),
        }
    }

    /// No limits.
    pub fn unlimited() -> Self {
        Plan {
            a2a: true,
            send_per_minute: None,
            qa_per_minute: None,
        }
    }
}

/// The default plans: `free` (no A2A), `pro` and `organization` (15/min, 2/min
/// for QA), `enterprise` (120/min, 20/min).
pub fn default_plans() -> BTreeMap<String, Plan> {
    let mut plans = BTreeMap::new();
    plans.insert(
        "free".into(),
        Plan {
            a2a: false,
            send_per_minute: Some(0),
            qa_per_minute: Some(0),
        },
    );
    plans.insert("pro".into(), Plan::pro());
    plans.insert("organization".into(), Plan::pro());
    plans.insert(
        "enterprise".into(),
        Plan {
            a2a: true,
            send_per_minute: Some(120),
            qa_per_minute: Some(20),
        },
    );
    plans
}

/// Everything the server needs to run, after validation.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// Address to bind.
    pub listen: SocketAddr,
    /// Public base URL (the card's `url` is `<public_url>/api/v1/a2a`).
    pub public_url: String,
    /// Serve the web console for people at `/` (`--no-console` turns it off).
    pub console: bool,
    /// Serve callers without a key (plan `anonymous`).
    pub anonymous: bool,
    /// Largest accepted request body.
    pub body_limit: usize,
    /// Time allowed to read a request body.
    pub body_timeout: Duration,
    /// Time from the first byte of a request head to its end (slow clients are dropped).
    pub header_read_timeout: Duration,
    /// Time a connection may stay open with no request (before the first, between keep-alive requests).
    pub idle_timeout: Duration,
    /// Connections open at once (lowered at start to fit the descriptor limit).
    pub max_connections: usize,
    /// Connections open at once from one client address.
    pub max_connections_per_ip: usize,
    /// At shutdown, how long requests in flight may take to finish.
    pub shutdown_grace: Duration,
    /// Deadline of one skill run.
    pub skill_timeout: Duration,
    /// How long tasks are kept.
    pub task_ttl: chrono::Duration,
    /// How often the task store is tidied (expiry, size ceiling, vacuum).
    pub purge_every: Duration,
    /// Ceiling on the task store's size in MiB (`[tasks] max_store_mb`); past it
    /// the oldest finished tasks are evicted.
    pub max_store_mb: u64,
    /// Tasks kept per caller (`[tasks] max_per_caller`); past it the caller's oldest finished tasks go.
    pub max_tasks_per_caller: u64,
    /// Most runs at once of the fast skills (look-ups, readings, calendar …).
    pub max_concurrent_skills: usize,
    /// Most runs at once of the slow skills ([`ServerConfig::slow_skills`]).
    pub max_concurrent_slow_skills: usize,
    /// The skills that run in the slow lane.
    pub slow_skills: Vec<String>,
    /// Fast runs waiting for a worker, in all (more are refused with -32030).
    pub queue_limit: usize,
    /// Slow runs waiting for a worker, in all.
    pub slow_queue_limit: usize,
    /// Fast runs one caller may have waiting.
    pub queue_per_caller: usize,
    /// Slow runs one caller may have waiting (default 32: half the lane, room for
    /// one client with 16 connections of searches on the default workers).
    pub slow_queue_per_caller: usize,
    /// Plans by name; `anonymous` applies to callers without a key.
    pub plans: BTreeMap<String, Plan>,
    /// Product version shown in the card.
    pub version: String,
    /// Push notifications on (`[server] push_notifications`; the card declares them then).
    pub push_notifications: bool,
    /// Webhook addresses or host names allowed beside the public ones (`[server] push_allow`,
    /// e.g. `["127.0.0.1"]`); private, loopback and link-local targets are refused otherwise.
    pub push_allow: Vec<String>,
    /// Signs the 1.0 card (`signatures[]`) when the operator configured a key.
    pub card_signer: Option<crate::card_sign::CardSigner>,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            public_url: "http://127.0.0.1:8080".into(),
            console: true,
            anonymous: false,
            body_limit: 1024 * 1024,
            body_timeout: Duration::from_secs(15),
            header_read_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(30),
            max_connections: 4096,
            max_connections_per_ip: 256,
            shutdown_grace: Duration::from_secs(30),
            skill_timeout: Duration::from_secs(120),
            task_ttl: chrono::Duration::hours(24),
            purge_every: Duration::from_secs(1),
            max_store_mb: 1024,
            max_tasks_per_caller: 10_000,
            max_concurrent_skills: 32,
            max_concurrent_slow_skills: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(2)
                .clamp(2, 8),
            slow_skills: vec!["catholic_qa".into(), "document_search".into()],
            queue_limit: 512,
            slow_queue_limit: 64,
            queue_per_caller: 128,
            slow_queue_per_caller: 32,
            plans: default_plans(),
            version: env!("CARGO_PKG_VERSION").into(),
            push_notifications: true,
            push_allow: Vec::new(),
            card_signer: None,
        }
    }
}

impl ServerConfig {
    /// The plan of anonymous callers: the configured `anonymous` plan, else
    /// [`Plan::loopback`] on a loopback address and the `pro` limits elsewhere.
    pub fn anonymous_plan(&self) -> Plan {
        if let Some(p) = self.plans.get("anonymous") {
            return p.clone();
        }
        if self.listen.ip().is_loopback() {
            Plan::loopback()
        } else {
            self.plans.get("pro").cloned().unwrap_or_else(Plan::pro)
        }
    }

    /// The plan called `name`; unknown names get the `pro` limits.
    pub fn plan(&self, name: &str) -> Plan {
        self.plans.get(name).cloned().unwrap_or_else(Plan::pro)
    }
}

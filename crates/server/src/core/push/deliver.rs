//! Delivering push notifications: a bounded queue ([`QUEUE`] notices; past it a notice is
//! dropped and counted, never waited for on the request path), a few worker threads (a
//! task's notices always go to the same worker, so each webhook sees them in order), and
//! per webhook up to [`ATTEMPTS`] POSTs with a doubling back-off, each bounded by
//! [`TIMEOUT`]. A 2xx answer is a delivery; anything else, or no answer, is retried.

use super::targets;
use super::{PushAuth, PushConfig, PushConfigStore, PushVersion};
use crate::core::bus::SharedEvent;
use ecclesia_a2a::{StreamEvent, Task};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{sync_channel, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Notices waiting at most (per worker).
pub const QUEUE: usize = 1024;
/// Worker threads.
pub const WORKERS: usize = 2;
/// POSTs per webhook and notice at most.
pub const ATTEMPTS: u32 = 4;
/// First back-off (then doubled).
pub const BACKOFF: Duration = Duration::from_millis(200);
/// Time bound of one POST.
pub const TIMEOUT: Duration = Duration::from_secs(5);

/// One update of a task for its webhooks.
#[derive(Debug, Clone)]
pub struct Notice {
    /// The task.
    pub task_id: String,
    /// The event (status or artifact update).
    pub event: SharedEvent,
    /// The task as it is now, at a status change (what 0.3 webhooks receive).
    pub task: Option<Box<Task>>,
    /// The configs of the task this replica delivers to (the others were set through, and
    /// are delivered by, another replica).
    pub configs: HashSet<String>,
}

/// Delivery counters (for `/metrics`).
#[derive(Debug, Default)]
pub struct PushCounters {
    /// Notifications delivered.
    pub delivered: AtomicU64,
    /// Notifications given up after every attempt.
    pub failed: AtomicU64,
    /// Notices dropped because the queue was full.
    pub dropped: AtomicU64,
}

/// The push service: the configs and the delivery queue.
pub struct Push {
    /// Where the configs live.
    pub store: Arc<dyn PushConfigStore>,
    /// Addresses and hosts allowed beside the public ones.
    pub allow: Arc<Vec<String>>,
    /// Delivery counters.
    pub counters: Arc<PushCounters>,
    /// Tasks with configs this replica delivers to, and those configs' ids (only these
    /// tasks' events are looked at).
    watched: Mutex<HashMap<String, HashSet<String>>>,
    queues: Vec<SyncSender<Notice>>,
}

impl std::fmt::Debug for Push {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Push")
    }
}

impl Push {
    /// The service over `store`, with its worker threads.
    pub fn new(store: Arc<dyn PushConfigStore>, allow: Vec<String>) -> Self {
        let allow = Arc::new(allow);
        let counters = Arc::new(PushCounters::default());
        let mut queues = Vec::with_capacity(WORKERS);
        for i in 0..WORKERS {
            let (tx, rx) = sync_channel::<Notice>(QUEUE);
            let (store, allow, counters) = (store.clone(), allow.clone(), counters.clone());
            let spawned = std::thread::Builder::new()
                .name(format!("push-{i}"))
                .spawn(move || {
                    let agent = agent(allow.clone());
                    while let Ok(n) = rx.recv() {
                        deliver(&agent, store.as_ref(), &counters, &n);
                    }
                });
            if let Err(e) = spawned {
                tracing::error!(error = %e, "a push notification worker could not start");
            }
            queues.push(tx);
        }
        Push {
            store,
            allow,
            counters,
            watched: Mutex::new(HashMap::new()),
            queues,
        }
    }

    fn watched(&self) -> std::sync::MutexGuard<'_, HashMap<String, HashSet<String>>> {
        self.watched.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Deliver the events of `task_id` to its config `config_id` from now on (a config was
    /// set through this replica); whether the task was watched already.
    pub fn watch(&self, task_id: &str, config_id: &str) -> bool {
        let mut watched = self.watched();
        let known = watched.contains_key(task_id);
        watched
            .entry(task_id.to_string())
            .or_default()
            .insert(config_id.to_string());
        known
    }

    /// Stop delivering the events of `task_id` (its events ended without a final one).
    pub fn forget(&self, task_id: &str) {
        self.watched().remove(task_id);
    }

    /// Whether `task_id` has a webhook here (its events are to be delivered).
    pub fn watches(&self, task_id: &str) -> bool {
        self.watched().contains_key(task_id)
    }

    /// Queue `event` of `task_id` for its webhooks (nothing when it has none); `last`
    /// forgets the task afterwards.
    pub fn notify(&self, task_id: &str, event: &SharedEvent, task: Option<&Task>, last: bool) {
        let configs = if last {
            self.watched().remove(task_id)
        } else {
            self.watched().get(task_id).cloned()
        };
        let Some(configs) = configs else {
            return;
        };
        let notice = Notice {
            task_id: task_id.to_string(),
            event: event.clone(),
            task: task.map(|t| Box::new(t.clone())),
            configs,
        };
        let shard = task_id
            .bytes()
            .fold(0usize, |h, b| h.wrapping_mul(31).wrapping_add(b as usize));
        let Some(q) = self.queues.get(shard % self.queues.len().max(1)) else {
            return;
        };
        if let Err(TrySendError::Full(_)) = q.try_send(notice) {
            self.counters.dropped.fetch_add(1, Ordering::Relaxed);
            tracing::warn!(task = %task_id, "push notification queue full: a notice was dropped");
        }
    }
}

/// An HTTP client that connects only to checked addresses and follows no redirect.
fn agent(allow: Arc<Vec<String>>) -> ureq::Agent {
    ureq::AgentBuilder::new()
        .timeout(TIMEOUT)
        .redirects(0)
        .resolver(move |addr: &str| {
            let (host, port) = addr
                .rsplit_once(':')
                .and_then(|(h, p)| Some((h, p.parse::<u16>().ok()?)))
                .ok_or_else(|| std::io::Error::other("bad address"))?;
            let host = host.trim_start_matches('[').trim_end_matches(']');
            targets::resolve(host, port, &allow).map_err(std::io::Error::other)
        })
        .build()
}

/// The body a webhook of `version` receives for `n` (`None`: nothing for it).
fn body(version: PushVersion, n: &Notice) -> Option<String> {
    match version {
        PushVersion::V03 => {
            // 0.3 webhooks get the task at each status change.
            matches!(n.event.as_ref(), StreamEvent::Status(_))
                .then(|| n.task.as_ref().and_then(|t| serde_json::to_string(t).ok()))
                .flatten()
        }
        // 1.0 webhooks get each `StreamResponse` (the conversion is the protocol crate's).
        PushVersion::V1 => ecclesia_a2a::v1::StreamResponse::try_from(n.event.as_ref().clone())
            .ok()
            .and_then(|r| serde_json::to_string(&r).ok()),
    }
}

fn deliver(agent: &ureq::Agent, store: &dyn PushConfigStore, counters: &PushCounters, n: &Notice) {
    let configs = match store.configs_for_dispatch(&n.task_id) {
        Ok(c) => c,
        Err(e) => {
            tracing::warn!(task = %n.task_id, error = %e, "push configs could not be read");
            return;
        }
    };
    for config in configs.into_iter().filter(|c| n.configs.contains(&c.id)) {
        let Some(body) = body(config.version, n) else {
            continue;
        };
        match post(agent, &config, &body) {
            Ok(()) => {
                counters.delivered.fetch_add(1, Ordering::Relaxed);
            }
            Err(e) => {
                counters.failed.fetch_add(1, Ordering::Relaxed);
                tracing::warn!(task = %n.task_id, config = %config.id, error = %e, "push notification not delivered");
            }
        }
    }
}

fn post(agent: &ureq::Agent, config: &PushConfig, body: &str) -> Result<(), String> {
    let mut wait = BACKOFF;
    let mut last = String::new();
    for attempt in 1..=ATTEMPTS {
        let mut req = agent
            .post(&config.url)
            .set("Content-Type", "application/json");
        if let Some(t) = &config.token {
            req = req.set("X-A2A-Notification-Token", t);
        }
        if let Some(PushAuth {
            scheme,
            credentials: Some(c),
        }) = &config.authentication
        {
            req = req.set("Authorization", &format!("{scheme} {c}"));
        }
        match req.send_string(body) {
            Ok(r) if (200..300).contains(&r.status()) => return Ok(()),
            Ok(r) => last = format!("HTTP {}", r.status()),
            Err(ureq::Error::Status(code, _)) => last = format!("HTTP {code}"),
            Err(e) => last = e.to_string(),
        }
        if attempt < ATTEMPTS {
            std::thread::sleep(wait);
            wait *= 2;
        }
    }
    Err(format!("{ATTEMPTS} attempts, the last: {last}"))
}

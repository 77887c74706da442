//! What one MCP session remembers: the logging level the client set (`logging/setLevel`) and
//! the resources it subscribed to (`resources/subscribe`). Both are protocol revisions
//! 2025-06-18 and 2025-11-25 features (sessions); the stateless 2026-07-28 revision has
//! neither, and rmcp marks them deprecated, hence the `allow(deprecated)` here.
#![allow(deprecated)]

use chrono::{Duration, Utc};
use rmcp::model::{
    LoggingLevel, LoggingMessageNotificationParam, ResourceUpdatedNotificationParam,
};
use rmcp::service::Peer;
use rmcp::RoleServer;
use serde_json::Value;
use std::collections::HashSet;
use std::sync::{Arc, Mutex};

/// Per-session state (cloned handles share it; a new session gets a new one).
#[derive(Debug, Clone, Default)]
pub struct Session {
    level: Arc<Mutex<Option<u8>>>,
    subscribed: Arc<Mutex<HashSet<String>>>,
}

/// RFC 5424 severities, lowest first, as MCP orders its levels.
fn severity(level: LoggingLevel) -> u8 {
    match level {
        LoggingLevel::Debug => 0,
        LoggingLevel::Info => 1,
        LoggingLevel::Notice => 2,
        LoggingLevel::Warning => 3,
        LoggingLevel::Error => 4,
        LoggingLevel::Critical => 5,
        LoggingLevel::Alert => 6,
        LoggingLevel::Emergency => 7,
    }
}

impl Session {
    /// `logging/setLevel`: from now on, log messages at `level` and above are sent.
    pub fn set_level(&self, level: LoggingLevel) {
        if let Ok(mut l) = self.level.lock() {
            *l = Some(severity(level));
        }
    }

    /// Whether a message at `level` is to be sent (nothing is sent before `setLevel`).
    pub fn wants(&self, level: LoggingLevel) -> bool {
        self.level
            .lock()
            .ok()
            .and_then(|l| *l)
            .is_some_and(|min| severity(level) >= min)
    }

    /// Send a `notifications/message` when the client asked for this level (errors from a
    /// closed connection are ignored: logging is best effort).
    pub async fn log(&self, peer: &Peer<RoleServer>, level: LoggingLevel, data: Value) {
        if self.wants(level) {
            let _ = peer
                .notify_logging_message(
                    LoggingMessageNotificationParam::new(level, data).with_logger("ecclesia"),
                )
                .await;
        }
    }

    /// `resources/subscribe`: remember the URI; `true` when it is new (the caller then starts
    /// the notifier).
    pub fn subscribe(&self, uri: &str) -> bool {
        self.subscribed
            .lock()
            .map(|mut s| s.insert(uri.to_string()))
            .unwrap_or(false)
    }

    /// `resources/unsubscribe`.
    pub fn unsubscribe(&self, uri: &str) {
        if let Ok(mut s) = self.subscribed.lock() {
            s.remove(uri);
        }
    }

    /// Whether the session is subscribed to `uri`.
    pub fn is_subscribed(&self, uri: &str) -> bool {
        self.subscribed
            .lock()
            .map(|s| s.contains(uri))
            .unwrap_or(false)
    }

    /// Tell the client each midnight (UTC) that `uri` changed, while it stays subscribed and
    /// the connection is open: today's readings change with the day.
    pub fn notify_daily(&self, peer: Peer<RoleServer>, uri: String) {
        let session = self.clone();
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(until_next_day()).await;
                if !session.is_subscribed(&uri) {
                    return;
                }
                if peer
                    .notify_resource_updated(ResourceUpdatedNotificationParam::new(uri.clone()))
                    .await
                    .is_err()
                {
                    return;
                }
            }
        });
    }
}

/// How long until just after the next midnight (UTC), when today's readings change.
pub fn until_next_day() -> std::time::Duration {
    let now = Utc::now();
    let next = (now + Duration::days(1))
        .date_naive()
        .and_hms_opt(0, 0, 5)
        .map(|t| t.and_utc())
        .unwrap_or(now + Duration::hours(24));
    (next - now)
        .to_std()
        .unwrap_or(std::time::Duration::from_secs(3600))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_filter_from_the_one_set() {
        let s = Session::default();
        assert!(!s.wants(LoggingLevel::Emergency), "nothing before setLevel");
        s.set_level(LoggingLevel::Warning);
        assert!(s.wants(LoggingLevel::Error));
        assert!(s.wants(LoggingLevel::Warning));
        assert!(!s.wants(LoggingLevel::Info));
        let other = Session::default();
        assert!(
            !other.wants(LoggingLevel::Error),
            "sessions do not share a level"
        );
    }

    #[test]
    fn subscriptions_come_and_go() {
        let s = Session::default();
        assert!(s.subscribe("ecclesia://readings/today"));
        assert!(!s.subscribe("ecclesia://readings/today"), "once");
        assert!(s.is_subscribed("ecclesia://readings/today"));
        s.unsubscribe("ecclesia://readings/today");
        assert!(!s.is_subscribed("ecclesia://readings/today"));
    }
}

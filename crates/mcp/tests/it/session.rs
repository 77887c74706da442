//! The session features of the 2025 revisions: `logging/setLevel` (then a log message per
//! tool call), `completion/complete` on the prompts' `date`, `resources/subscribe`.
#![allow(deprecated)]

use crate::fake;
use rmcp::model::{
    CallToolRequestParams, LoggingLevel, LoggingMessageNotificationParam, SetLevelRequestParams,
    SubscribeRequestParams, UnsubscribeRequestParams,
};
use rmcp::service::{NotificationContext, RunningService};
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::Value;
use std::sync::{Arc, Mutex};

/// A client that keeps the log messages it receives.
#[derive(Clone, Default)]
struct Logs(Arc<Mutex<Vec<(LoggingLevel, Value)>>>);

impl ClientHandler for Logs {
    async fn on_logging_message(
        &self,
        params: LoggingMessageNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        if let Ok(mut v) = self.0.lock() {
            v.push((params.level, params.data));
        }
    }
}

async fn client(logs: Logs) -> RunningService<RoleClient, Logs> {
    let (client_io, server_io) = tokio::io::duplex(1 << 20);
    let (sr, sw) = tokio::io::split(server_io);
    tokio::spawn(async move {
        let _ = ecclesia_mcp::serve_io(fake::registry(), sr, sw).await;
    });
    logs.serve(client_io).await.expect("the client starts")
}

#[tokio::test]
async fn capabilities_name_logging_completions_and_subscriptions() {
    let c = client(Logs::default()).await;
    let caps = &c.peer_info().expect("server info").capabilities;
    assert!(caps.logging.is_some());
    assert!(caps.completions.is_some());
    assert_eq!(
        caps.resources.as_ref().and_then(|r| r.subscribe),
        Some(true)
    );
}

#[tokio::test]
async fn after_set_level_each_tool_call_is_logged() {
    let logs = Logs::default();
    let c = client(logs.clone()).await;
    let call = || {
        c.call_tool(
            CallToolRequestParams::new("get_pope").with_arguments(
                serde_json::json!({"query": "Pope Francis"})
                    .as_object()
                    .cloned()
                    .unwrap_or_default(),
            ),
        )
    };
    call().await.expect("a result");
    assert!(logs.0.lock().unwrap().is_empty(), "nothing before setLevel");
    c.set_level(SetLevelRequestParams::new(LoggingLevel::Info))
        .await
        .expect("setLevel");
    call().await.expect("a result");
    // The notification arrives on the same stream, before or just after the result.
    for _ in 0..50 {
        if !logs.0.lock().unwrap().is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let got = logs.0.lock().unwrap().clone();
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].1["tool"], "get_pope");
    // Above the level of a successful call: nothing more.
    c.set_level(SetLevelRequestParams::new(LoggingLevel::Error))
        .await
        .expect("setLevel");
    call().await.expect("a result");
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    assert_eq!(logs.0.lock().unwrap().len(), 1);
}

#[tokio::test]
async fn prompt_dates_complete_and_today_can_be_subscribed() {
    let c = client(Logs::default()).await;
    let values = c
        .complete_prompt_simple("explain_todays_gospel", "date", "to")
        .await
        .expect("completion");
    assert_eq!(values, ["today", "tomorrow"]);
    let none = c
        .complete_prompt_simple("nope", "date", "to")
        .await
        .expect("completion");
    assert!(none.is_empty());
    c.subscribe(SubscribeRequestParams::new(ecclesia_mcp::TODAY_READINGS))
        .await
        .expect("subscribe");
    c.unsubscribe(UnsubscribeRequestParams::new(ecclesia_mcp::TODAY_READINGS))
        .await
        .expect("unsubscribe");
    let bad = c
        .subscribe(SubscribeRequestParams::new("http://elsewhere/x"))
        .await;
    assert!(bad.is_err(), "an unknown URI is refused");
}

/// `subscriptions/listen` (2026-07-28): today's readings and documents are accepted, other
/// URIs and list changes are not (the conformance suite's `server-stateless` checks the
/// acknowledgment over HTTP: scripts/mcp-conformance.sh).
#[tokio::test]
async fn listen_accepts_our_resources_only() {
    use rmcp::model::SubscriptionFilter;
    use rmcp::ServerHandler;
    let runner = ecclesia_mcp::Runner::local(fake::registry(), std::time::Duration::from_secs(5))
        .expect("runner");
    let server = ecclesia_mcp::EcclesiaMcp::new(runner);
    let mut requested = SubscriptionFilter::new();
    requested.tools_list_changed = Some(true);
    requested.resource_subscriptions = Some(vec![
        ecclesia_mcp::TODAY_READINGS.to_string(),
        "http://elsewhere/x".to_string(),
    ]);
    let accepted = server
        .accepted_subscription_filter(&requested)
        .expect("subscriptions/listen is implemented");
    assert_eq!(
        accepted.resource_subscriptions,
        Some(vec![ecclesia_mcp::TODAY_READINGS.to_string()])
    );
    assert_eq!(accepted.tools_list_changed, None);
}

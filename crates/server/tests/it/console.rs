//! The web console is mounted at `/` beside the API, and `console = false` removes it. Its
//! pages' skill calls go through the core: each is a task of the page's caller, counted in
//! the metrics under the `console` surface, while the rate-limit pools are drawn once per
//! page by the gate.

use crate::support::{harness_with, Harness};
use axum::http::StatusCode;
use ecclesia_a2a::{AgentSkill, Artifact, Part};
use ecclesia_core::SkillRequest;
use ecclesia_core::{artifact, skill_card, Skill, SkillContext, SkillError, SkillRegistry};
use ecclesia_server::{AppState, Caller, Clock, ManualClock, Plan, ServerConfig, SqliteStore};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::Arc;

#[tokio::test]
async fn the_console_is_served_at_the_root_unless_turned_off() {
    let on = harness_with(ecclesia_server::ServerConfig {
        anonymous: true,
        ..Default::default()
    });
    let r = on.get("/").await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.text().contains("<html"), "{}", r.text());
    // The API is still there.
    assert_eq!(on.get("/healthz").await.status, StatusCode::OK);
    let off = harness_with(ecclesia_server::ServerConfig {
        anonymous: true,
        console: false,
        ..Default::default()
    });
    assert_eq!(off.get("/").await.status, StatusCode::NOT_FOUND);
}

/// Stands in for `saint_lookup`: the query `bad` is refused as invalid.
struct Saints;
impl Skill for Saints {
    fn card(&self) -> AgentSkill {
        skill_card("saint_lookup", "Saints (test)", "Looks up", &["test"], &[])
    }
    fn run(&self, req: &SkillRequest, _: &SkillContext) -> Result<Vec<Artifact>, SkillError> {
        let q = req.data.get("query").and_then(Value::as_str).unwrap_or("");
        if q == "bad" {
            return Err(SkillError::InvalidParams(
                "the query must not be <bad>".into(),
            ));
        }
        Ok(vec![artifact(
            "saint",
            vec![
                Part::text(format!("Saint {q}")),
                Part::data(json!({"name": format!("Saint {q}")})),
            ],
        )])
    }
}

/// Stands in for `liturgical_readings`: any day is a feria of Ordinary Time; "today" is
/// 2026-06-01.
struct Readings;
impl Skill for Readings {
    fn card(&self) -> AgentSkill {
        skill_card(
            "liturgical_readings",
            "Readings (test)",
            "Days",
            &["test"],
            &[],
        )
    }
    fn run(&self, req: &SkillRequest, _: &SkillContext) -> Result<Vec<Artifact>, SkillError> {
        let date = match req.data.get("date").and_then(Value::as_str) {
            Some("today") | None => "2026-06-01".to_string(),
            Some(d) => d.to_string(),
        };
        Ok(vec![artifact(
            "readings",
            vec![Part::data(json!({
                "date": date,
                "celebration": "Feria",
                "rank": "WEEKDAY",
                "color": "GREEN",
            }))],
        )])
    }
}

/// A server over the two stand-ins, the console on, anonymous page views under `plan`.
fn console_harness(plan: Plan) -> Harness {
    let mut registry = SkillRegistry::default();
    registry.register(Saints).register(Readings);
    let config = ServerConfig {
        plans: BTreeMap::from([("anonymous".to_string(), plan)]),
        ..Default::default()
    };
    let db = Arc::new(SqliteStore::in_memory().unwrap());
    let clock = Arc::new(ManualClock::new(chrono::Utc::now()));
    let state = AppState::with_parts(
        config,
        registry,
        db.clone(),
        db.clone(),
        Some(db.clone()),
        clock.clone() as Arc<dyn Clock>,
    );
    Harness { state, db, clock }
}

fn unlimited() -> Plan {
    Plan {
        a2a: true,
        send_per_minute: None,
        qa_per_minute: None,
    }
}

/// The count of `ecclesia_requests_total` for this method, skill and outcome (0 if absent).
fn requests(metrics: &str, method: &str, skill: &str, outcome: &str) -> u64 {
    let label = format!(
        "ecclesia_requests_total{{method=\"{method}\",skill=\"{skill}\",outcome=\"{outcome}\"}} "
    );
    metrics
        .lines()
        .find_map(|l| l.strip_prefix(&label))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(0)
}

#[tokio::test]
async fn a_console_pages_skill_call_is_a_core_task_counted_under_console() {
    let h = console_harness(unlimited());
    let r = h.get("/lookup?kind=saint&q=Francis").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    assert!(r.text().contains("Saint Francis"), "{}", r.text());
    let m = h.get("/metrics").await.text();
    assert_eq!(
        requests(&m, "console", "saint_lookup", "completed"),
        1,
        "the call is counted under the console surface: {m}"
    );
    // The call left a task, owned by the shared caller of anonymous page views.
    let console = Caller {
        id: "console".into(),
        plan_name: "anonymous".into(),
        plan: unlimited(),
    };
    let page = h
        .state
        .client("test")
        .list(&console, Default::default(), "req")
        .await
        .unwrap();
    assert_eq!(page.tasks.len(), 1, "one task for the page's one call");
}

#[tokio::test]
async fn a_bad_parameter_still_gives_the_400_page() {
    let h = console_harness(unlimited());
    let r = h.get("/lookup?kind=saint&q=bad").await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text());
    let body = r.text();
    assert!(body.contains("<html"), "a console page: {body}");
    assert!(
        body.contains("the query must not be &lt;bad&gt;"),
        "the skill's message, escaped: {body}"
    );
    let m = h.get("/metrics").await.text();
    assert_eq!(
        requests(&m, "console", "saint_lookup", "invalid_params"),
        1,
        "{m}"
    );
}

#[tokio::test]
async fn a_month_page_draws_the_pools_once_and_is_never_refused_halfway() {
    // Two page views a minute, far fewer than the calls of one month page.
    let h = console_harness(Plan {
        a2a: true,
        send_per_minute: Some(2),
        qa_per_minute: None,
    });
    let r = h.get("/calendar?year=2026&month=2").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let m = h.get("/metrics").await.text();
    // "today", then the 28 days, each a task counted under the console.
    assert_eq!(
        requests(&m, "console", "liturgical_readings", "completed"),
        29,
        "{m}"
    );
    assert!(!m.contains("outcome=\"rate_limited\""), "{m}");
    // The second page view is the pool's last; the third is refused before any call.
    assert_eq!(
        h.get("/lookup?kind=saint&q=Clare").await.status,
        StatusCode::OK
    );
    let r = h.get("/calendar?year=2026&month=3").await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "{}", r.text());
    assert!(r.headers.get("retry-after").is_some());
    let m = h.get("/metrics").await.text();
    assert_eq!(
        requests(&m, "console", "liturgical_readings", "completed"),
        29,
        "{m}"
    );
}

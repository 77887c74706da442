//! Memory of a queued task: queues N non-blocking tasks behind one busy worker
//! and prints the resident-set growth per task.
//!
//! ```sh
//! cargo run --release -p ecclesia-server --example task_memory -- 2000
//! ```

use axum::body::Body;
use axum::http::Request;
use ecclesia_a2a::{AgentSkill, Artifact, Part};
use ecclesia_core::{
    artifact, skill_card, Skill, SkillContext, SkillError, SkillRegistry, SkillRequest,
};
use ecclesia_server::{AppState, Clock, Plan, ServerConfig, SqliteStore, SystemClock};
use http_body_util::BodyExt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use tower::ServiceExt;

static OPEN: AtomicBool = AtomicBool::new(false);

/// Waits until [`OPEN`] (standing in for a slow QA run).
struct Gate;
impl Skill for Gate {
    fn card(&self) -> AgentSkill {
        skill_card("catholic_qa", "Gate", "Waits", &["test"], &[])
    }
    fn run(&self, _: &SkillRequest, ctx: &SkillContext) -> Result<Vec<Artifact>, SkillError> {
        while !OPEN.load(Ordering::Relaxed) {
            ctx.check()?;
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        Ok(vec![artifact("gate", vec![Part::text("done")])])
    }
}

fn rss_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> anyhow::Result<()> {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(2000);
    let dir = tempfile::tempdir()?;
    let db = Arc::new(SqliteStore::open(&dir.path().join("state.sqlite"))?);
    let mut config = ServerConfig {
        anonymous: true,
        max_concurrent_slow_skills: 1,
        slow_queue_limit: n + 200,
        slow_queue_per_caller: n + 200,
        ..ServerConfig::default()
    };
    config.plans.insert("anonymous".into(), Plan::unlimited());
    let mut registry = SkillRegistry::default();
    registry.register(Gate);
    let state = AppState::with_parts(
        config,
        registry,
        db.clone(),
        db.clone(),
        Some(db),
        Arc::new(SystemClock) as Arc<dyn Clock>,
    );
    let app = ecclesia_server::router(state.clone());
    let send = |i: usize| {
        let body = serde_json::json!({"jsonrpc": "2.0", "id": i, "method": "message/send",
            "params": {"message": {"kind": "message", "role": "user", "messageId": format!("m{i}"),
                "parts": [{"kind": "text", "text": "What is grace?"}]},
                "configuration": {"blocking": false}}});
        let app = app.clone();
        async move {
            let req = Request::post("/api/v1/a2a")
                .header("content-type", "application/json")
                .body(Body::from(serde_json::to_vec(&body).unwrap()))
                .unwrap();
            let resp = app.oneshot(req).await.unwrap();
            let status = resp.status();
            let _ = resp.into_body().collect().await;
            assert_eq!(status, 200);
        }
    };
    for i in 0..100 {
        send(i).await;
    }
    let before = rss_kb();
    for i in 100..100 + n {
        send(i).await;
    }
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let after = rss_kb();
    let stats = state.lanes.slow.stats();
    println!(
        "{n} tasks queued ({} waiting): RSS {before} kB -> {after} kB, {:.1} KB per queued task",
        stats.queued,
        (after.saturating_sub(before)) as f64 / n as f64
    );
    println!(
        "event buffer: {} slots of {} bytes (Arc<StreamEvent>) vs 4096 x {} bytes before",
        128,
        std::mem::size_of::<Arc<ecclesia_a2a::StreamEvent>>(),
        std::mem::size_of::<ecclesia_a2a::StreamEvent>()
    );
    OPEN.store(true, Ordering::Relaxed);
    Ok(())
}

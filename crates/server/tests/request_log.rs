//! A request refused before any front-end handled it still gets its log line, in the
//! request's span (with the request id). A binary of its own: the test installs the global
//! log subscriber, which tests running beside it in one binary would race with.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use ecclesia_core::SkillRegistry;
use ecclesia_server::{AppState, Clock, ServerConfig, SqliteStore, SystemClock};
use std::io::Write;
use std::sync::{Arc, Mutex};
use tower::ServiceExt;

/// Log output, captured.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[tokio::test]
async fn a_request_refused_before_any_handler_is_logged_in_its_span() {
    let out = Captured::default();
    let writer = out.clone();
    tracing_subscriber::fmt()
        .with_writer(move || writer.clone())
        .with_ansi(false)
        .with_max_level(tracing::Level::INFO)
        .init();
    let db = Arc::new(SqliteStore::in_memory().unwrap());
    let state = AppState::with_parts(
        ServerConfig {
            anonymous: true,
            ..ServerConfig::default()
        },
        SkillRegistry::default(),
        db.clone(),
        db.clone(),
        Some(db),
        Arc::new(SystemClock) as Arc<dyn Clock>,
    );
    let req = Request::get("/api/v1/a2a")
        .header("x-request-id", "early-1")
        .body(Body::empty())
        .unwrap();
    let r = ecclesia_server::router(state).oneshot(req).await.unwrap();
    assert_eq!(r.status(), StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(r.headers()["x-request-id"], "early-1");
    let text = String::from_utf8_lossy(&out.0.lock().unwrap()).into_owned();
    let line = text
        .lines()
        .find(|l| l.contains("request_id=early-1"))
        .unwrap_or_else(|| panic!("no line for the request: {text}"));
    assert!(line.contains("status=405"), "{line}");
    assert!(line.contains("http.path=/api/v1/a2a"), "{line}");
}

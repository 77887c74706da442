//! The front door: every response carries its request's id (the caller's when sane), and a
//! request refused before any front-end logged it still gets its log line, in the request's
//! span.

use crate::support::{harness, uuid};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::json;
use std::io::Write;
use std::sync::{Arc, Mutex};

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

impl Captured {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

fn is_new_id(v: &str) -> bool {
    v.len() == 32 && v.bytes().all(|b| b.is_ascii_hexdigit())
}

#[tokio::test]
async fn every_response_carries_the_request_id_and_a_sane_given_one_is_kept() {
    let h = harness();
    let r = h.get("/no/such/path").await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert!(is_new_id(r.headers["x-request-id"].to_str().unwrap()));
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": {"message": {
        "kind": "message", "messageId": uuid(), "role": "user", "metadata": {"skillId": "echo"},
        "parts": [{"kind": "text", "text": "hi"}]}}});
    let req = |id: &str| {
        Request::post("/api/v1/a2a")
            .header("content-type", "application/json")
            .header("x-request-id", id)
            .body(Body::from(body.to_string()))
            .unwrap()
    };
    let r = h.request(req("trace-42.a_b")).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.headers["x-request-id"], "trace-42.a_b");
    let r = h.request(req("<script>alert(1)</script>")).await;
    assert!(is_new_id(r.headers["x-request-id"].to_str().unwrap()));
}

#[tokio::test(flavor = "current_thread")]
async fn a_request_refused_before_any_handler_is_logged_in_its_span() {
    let h = harness();
    let out = Captured::default();
    let writer = out.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(move || writer.clone())
        .with_ansi(false)
        .with_max_level(tracing::Level::INFO)
        .finish();
    let _guard = tracing::subscriber::set_default(subscriber);
    let req = Request::get("/api/v1/a2a")
        .header("x-request-id", "early-1")
        .body(Body::empty())
        .unwrap();
    let r = h.request(req).await;
    assert_eq!(r.status, StatusCode::METHOD_NOT_ALLOWED);
    let text = out.text();
    let line = text
        .lines()
        .find(|l| l.contains("request_id=early-1"))
        .unwrap_or_else(|| panic!("no line for the request: {text}"));
    assert!(line.contains("status=405"), "{line}");
    assert!(line.contains("http.path=/api/v1/a2a"), "{line}");
}

//! The front door: every response carries its request's id (the caller's when sane). Its log
//! line is tested in `tests/request_log.rs` (a binary of its own: it installs a global log
//! subscriber).

use crate::support::{harness, uuid};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::json;

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

//! `/mcp` over HTTP through the server's state: keys, Origin, Host, the body
//! limit, version negotiation, and one rate-limit pool with A2A.

use crate::fake;
use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use ecclesia_server::{AppState, ServerConfig};
use serde_json::{json, Value};
use tower::ServiceExt;

pub struct Server {
    pub app: axum::Router,
    pub token: String,
    _dir: tempfile::TempDir,
}

pub fn server() -> Server {
    let dir = tempfile::tempdir().unwrap();
    let state = AppState::open(ServerConfig::default(), fake::registry(), dir.path()).unwrap();
    let (_, token) = state.keys.create_key("test", "pro").unwrap();
    let app = ecclesia_server::router(state.clone()).merge(ecclesia_mcp::router(state));
    Server {
        app,
        token,
        _dir: dir,
    }
}

fn post(path: &str, token: Option<&str>, body: &Value) -> axum::http::request::Builder {
    let _ = body;
    let mut b = Request::post(path)
        .header(header::HOST, "127.0.0.1:8080")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ACCEPT, "application/json, text/event-stream");
    if let Some(t) = token {
        b = b.header(header::AUTHORIZATION, format!("Bearer {t}"));
    }
    b
}

async fn send(
    app: &axum::Router,
    req: Request<Body>,
) -> (StatusCode, axum::http::HeaderMap, String) {
    let resp = app.clone().oneshot(req).await.unwrap();
    let status = resp.status();
    let headers = resp.headers().clone();
    let bytes = axum::body::to_bytes(resp.into_body(), 1 << 24)
        .await
        .unwrap();
    (
        status,
        headers,
        String::from_utf8_lossy(&bytes).into_owned(),
    )
}

/// The JSON-RPC message of a JSON or SSE reply.
fn message(body: &str) -> Value {
    if let Ok(v) = serde_json::from_str(body) {
        return v;
    }
    body.lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
        .find(|v| v.get("id").is_some())
        .unwrap_or_else(|| panic!("no JSON-RPC message in {body:?}"))
}

fn initialize(version: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": version, "capabilities": {},
        "clientInfo": {"name": "test", "version": "0"}}})
}

/// Initialize a session in `version`: its id.
async fn session(s: &Server, version: &str) -> String {
    let body = initialize(version);
    let (status, headers, text) = send(
        &s.app,
        post("/mcp", Some(&s.token), &body)
            .body(Body::from(body.to_string()))
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{text}");
    assert_eq!(
        message(&text)["result"]["protocolVersion"],
        version,
        "{text}"
    );
    let sid = headers
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .expect("a session id")
        .to_string();
    let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let (status, _, _) = send(
        &s.app,
        post("/mcp", Some(&s.token), &note)
            .header("mcp-session-id", &sid)
            .header("mcp-protocol-version", version)
            .body(Body::from(note.to_string()))
            .unwrap(),
    )
    .await;
    assert!(status.is_success(), "{status}");
    sid
}

async fn tool_call(s: &Server, sid: &str, version: &str, name: &str, args: Value) -> Value {
    let body = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": {"name": name, "arguments": args}});
    let (status, _, text) = send(
        &s.app,
        post("/mcp", Some(&s.token), &body)
            .header("mcp-session-id", sid)
            .header("mcp-protocol-version", version)
            .body(Body::from(body.to_string()))
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{text}");
    message(&text)
}

#[tokio::test]
async fn a_key_is_required_as_for_a2a() {
    let s = server();
    let body = initialize("2025-11-25");
    let (status, headers, _) = send(
        &s.app,
        post("/mcp", None, &body)
            .body(Body::from(body.to_string()))
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(headers.get(header::WWW_AUTHENTICATE).is_some());
    let (status, _, _) = send(
        &s.app,
        post("/mcp", Some("ecc_wrong"), &body)
            .body(Body::from(body.to_string()))
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn foreign_origins_and_hosts_are_refused() {
    let s = server();
    let body = initialize("2025-11-25");
    let (status, _, _) = send(
        &s.app,
        post("/mcp", Some(&s.token), &body)
            .header(header::ORIGIN, "https://evil.example")
            .body(Body::from(body.to_string()))
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _, text) = send(
        &s.app,
        post("/mcp", Some(&s.token), &body)
            .header(header::ORIGIN, "http://localhost:3000")
            .body(Body::from(body.to_string()))
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{text}");
    let mut req = post("/mcp", Some(&s.token), &body)
        .body(Body::from(body.to_string()))
        .unwrap();
    req.headers_mut()
        .insert(header::HOST, "rebind.example".parse().unwrap());
    let (status, _, _) = send(&s.app, req).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn oversized_bodies_are_refused() {
    let s = server();
    let big = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "chat", "arguments": {"question": "x".repeat(2 * 1024 * 1024)}}});
    let (status, _, _) = send(
        &s.app,
        post("/mcp", Some(&s.token), &big)
            .body(Body::from(big.to_string()))
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    // A declared length over the limit is refused before the body is read.
    let small = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
    let mut req = post("/mcp", Some(&s.token), &small)
        .body(Body::from(small.to_string()))
        .unwrap();
    req.headers_mut()
        .insert(header::CONTENT_LENGTH, (8 * 1024 * 1024).into());
    let (status, _, body) = send(&s.app, req).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(body.contains("over the limit"), "{body}");
}

#[tokio::test]
async fn revisions_are_negotiated() {
    let s = server();
    for v in ["2025-06-18", "2025-11-25"] {
        session(&s, v).await;
    }
    // An unknown revision gets the newest with a handshake.
    let body = initialize("2024-01-01");
    let (_, _, text) = send(
        &s.app,
        post("/mcp", Some(&s.token), &body)
            .body(Body::from(body.to_string()))
            .unwrap(),
    )
    .await;
    let v = message(&text);
    assert!(
        v["result"]["protocolVersion"] == "2025-11-25" || v.get("error").is_some(),
        "{v}"
    );
}

#[tokio::test]
async fn tool_calls_share_the_a2a_rate_limit_pool() {
    let s = server();
    let sid = session(&s, "2025-11-25").await;
    let r = tool_call(&s, &sid, "2025-11-25", "get_pope", json!({"query": "Leo"})).await;
    assert_eq!(r["result"]["isError"], false, "{r}");
    assert_eq!(r["result"]["structuredContent"]["primary_name"], "Leo");
    let r = tool_call(
        &s,
        &sid,
        "2025-11-25",
        "get_mass_readings",
        json!({"date": "blursday"}),
    )
    .await;
    assert_eq!(r["result"]["isError"], true, "{r}");
    // The pro plan allows 2 catholic_qa a minute: two through MCP, then A2A is refused.
    for _ in 0..2 {
        let r = tool_call(&s, &sid, "2025-11-25", "chat", json!({"question": "grace"})).await;
        assert_eq!(r["result"]["isError"], false, "{r}");
    }
    let a2a = json!({"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": {"message": {
        "kind": "message", "role": "user", "messageId": "m1",
        "parts": [{"kind": "text", "text": "grace"}], "metadata": {"skillId": "catholic_qa"}}}});
    let (status, _, text) = send(
        &s.app,
        post("/api/v1/a2a", Some(&s.token), &a2a)
            .body(Body::from(a2a.to_string()))
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{text}");
    // And MCP is refused in turn, as a tool error the model can read.
    let r = tool_call(&s, &sid, "2025-11-25", "chat", json!({"question": "grace"})).await;
    assert_eq!(r["result"]["isError"], true, "{r}");
    assert_eq!(
        r["result"]["structuredContent"]["error"], "rate_limited",
        "{r}"
    );
}

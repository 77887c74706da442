//! `POST /api/v1/search` over the merged router with a fake `document_search`:
//! the shape, the inputs passed on, errors with their statuses, and the pool
//! shared with A2A.

use crate::fake;
use axum::body::Body;
use axum::http::{header, HeaderMap, Request, StatusCode};
use serde_json::{json, Value};
use tower::ServiceExt;

struct T {
    app: axum::Router,
    token: String,
    _dir: tempfile::TempDir,
}

fn setup() -> T {
    let dir = tempfile::tempdir().unwrap();
    let (state, token) = fake::state(dir.path(), None);
    let app = ecclesia_server::router(state.clone()).merge(ecclesia_openai::router(state));
    T {
        app,
        token,
        _dir: dir,
    }
}

async fn post(
    t: &T,
    path: &str,
    token: Option<&str>,
    body: String,
) -> (StatusCode, HeaderMap, Value) {
    let mut b = Request::post(path).header(header::CONTENT_TYPE, "application/json");
    if let Some(tok) = token {
        b = b.header(header::AUTHORIZATION, format!("Bearer {tok}"));
    }
    let resp = t
        .app
        .clone()
        .oneshot(b.body(Body::from(body)).unwrap())
        .await
        .unwrap();
    let status = resp.status();
    let headers = resp.headers().clone();
    let bytes = axum::body::to_bytes(resp.into_body(), 1 << 24)
        .await
        .unwrap();
    let v = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| panic!("not JSON: {}", String::from_utf8_lossy(&bytes)));
    (status, headers, v)
}

async fn search(t: &T, body: Value) -> (StatusCode, HeaderMap, Value) {
    post(t, "/api/v1/search", Some(&t.token), body.to_string()).await
}

fn error_of(v: &Value) -> &Value {
    assert!(v["error"]["message"].is_string(), "{v}");
    assert!(v["error"]["type"].is_string(), "{v}");
    &v["error"]
}

#[tokio::test]
async fn results_in_the_documented_shape() {
    let t = setup();
    let (status, _, v) = search(&t, json!({"query": "grace", "numResults": 3})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["object"], "search.results");
    assert_eq!(v["query"], "grace");
    assert_eq!(v["category"], "auto");
    assert_eq!(v["numResults"], 3);
    assert_eq!(v["mode"], "hybrid");
    let results = v["results"].as_array().unwrap();
    assert_eq!(results.len(), 3);
    for (i, r) in results.iter().enumerate() {
        assert_eq!(r["rank"], i + 1);
        assert_eq!(r["document_id"], format!("doc-{i}"));
        assert_eq!(r["document_title"], format!("grace {i}"));
        assert_eq!(r["cited_text"], format!("passage {i} about grace"));
        assert_eq!(r["source_url"], format!("https://example.org/{i}"));
        for k in [
            "document_author",
            "document_year",
            "document_reference",
            "document_type",
            "magisterial",
            "score",
        ] {
            assert!(!r[k].is_null(), "{k} in {r}");
        }
    }
    // The default count, the category passed on, the /v1 alias.
    let (status, _, v) = post(
        &t,
        "/v1/search",
        Some(&t.token),
        json!({"query": "grace", "category": "scholarly"}).to_string(),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["results"].as_array().unwrap().len(), 10);
    assert!(v["results"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["magisterial"] == false));
    assert_eq!(v["category"], "scholarly");
}

#[tokio::test]
async fn bad_requests_are_400_naming_the_parameter() {
    let t = setup();
    let long = "x".repeat(1025);
    for (body, param) in [
        (json!({"query": long}), "query"),
        (json!({"query": ""}), "query"),
        (json!({"numResults": 3}), "query"),
        (json!({"query": "x", "numResults": 0}), "numResults"),
        (json!({"query": "x", "numResults": 101}), "numResults"),
        (json!({"query": "x", "numResults": "5"}), "numResults"),
        (json!({"query": "x", "category": "papal"}), "category"),
        // The skill's own refusal.
        (json!({"query": "explode"}), "query"),
    ] {
        let (status, _, v) = search(&t, body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {v}");
        let e = error_of(&v);
        assert_eq!(e["param"], param, "{body}: {v}");
        assert_eq!(e["type"], "invalid_request_error");
    }
    let (status, _, v) = post(&t, "/api/v1/search", Some(&t.token), "{oops".into()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    error_of(&v);
    let huge = json!({"query": "x".repeat(2 * 1024 * 1024)});
    let (status, _, v) = search(&t, huge).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    error_of(&v);
}

#[tokio::test]
async fn keys_and_the_pool_shared_with_a2a() {
    let t = setup();
    let body = json!({"query": "grace"}).to_string();
    let (status, headers, v) = post(&t, "/api/v1/search", None, body.clone()).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{v}");
    assert_eq!(error_of(&v)["code"], "invalid_api_key");
    assert!(headers.get(header::WWW_AUTHENTICATE).is_some());
    let (status, _, _) = post(&t, "/api/v1/search", Some("ecc_wrong"), body.clone()).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    // The pro plan: 15 calls a minute in all. 10 through A2A, 5 searches, then 429.
    for i in 0..10 {
        let a2a = json!({"jsonrpc": "2.0", "id": i, "method": "message/send", "params": {"message": {
            "kind": "message", "role": "user", "messageId": format!("m{i}"),
            "parts": [{"kind": "text", "text": "grace"}], "metadata": {"skillId": "document_search"}}}});
        let (status, _, v) = post(&t, "/api/v1/a2a", Some(&t.token), a2a.to_string()).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["result"]["status"]["state"], "completed", "{v}");
    }
    for _ in 0..5 {
        let (status, _, v) = post(&t, "/api/v1/search", Some(&t.token), body.clone()).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
    let (status, headers, v) = post(&t, "/api/v1/search", Some(&t.token), body).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{v}");
    let retry: u64 = headers[header::RETRY_AFTER]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&retry), "{retry}");
    assert_eq!(error_of(&v)["code"], "rate_limit_exceeded");
}

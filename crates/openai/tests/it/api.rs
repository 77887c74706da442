//! The endpoints over the merged router (A2A and chat completions).

use crate::fake;
use axum::body::Body;
use axum::http::{header, Request, StatusCode};
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

async fn call(
    t: &T,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<String>,
) -> (StatusCode, axum::http::HeaderMap, String) {
    let mut b = Request::builder()
        .method(method)
        .uri(path)
        .header(header::CONTENT_TYPE, "application/json");
    if let Some(tok) = token {
        b = b.header(header::AUTHORIZATION, format!("Bearer {tok}"));
    }
    let resp = t
        .app
        .clone()
        .oneshot(
            b.body(body.map(Body::from).unwrap_or_else(Body::empty))
                .unwrap(),
        )
        .await
        .unwrap();
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

async fn chat(t: &T, body: Value) -> (StatusCode, axum::http::HeaderMap, String) {
    call(
        t,
        "POST",
        "/api/v1/chat/completions",
        Some(&t.token),
        Some(body.to_string()),
    )
    .await
}

fn ask(q: &str) -> Value {
    json!({"model": "ecclesia-1", "messages": [{"role": "user", "content": q}]})
}

#[tokio::test]
async fn a_plain_completion_with_citations() {
    let t = setup();
    let (status, _, body) = chat(&t, ask("What is grace?")).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["object"], "chat.completion");
    assert!(v["id"].as_str().unwrap().starts_with("chatcmpl-"));
    assert_eq!(v["model"], "ecclesia-1");
    assert_eq!(v["choices"][0]["message"]["role"], "assistant");
    assert_eq!(v["choices"][0]["finish_reason"], "stop");
    let text = v["choices"][0]["message"]["content"].as_str().unwrap();
    assert!(
        text.contains("You asked: What is grace?") && text.contains("[1]") && text.contains("[2]")
    );
    let c = v["citations"].as_array().unwrap();
    assert_eq!(c.len(), 2);
    for (i, ci) in c.iter().enumerate() {
        assert_eq!(ci["document_index"], i);
        for f in [
            "cited_text",
            "cited_text_heading",
            "document_title",
            "document_author",
            "document_year",
            "document_reference",
            "source_url",
        ] {
            assert!(ci.get(f).is_some(), "{f}");
        }
    }
    assert_eq!(
        c[0]["cited_text"],
        "Grace does not destroy nature but perfects it."
    );
    assert_eq!(c[1]["cited_text_heading"], Value::Null);
    assert!(v["usage"]["total_tokens"].as_u64().unwrap() > 0);
    // The alias, and the /v1 path.
    let (status, _, body) = call(
        &t,
        "POST",
        "/v1/chat/completions",
        Some(&t.token),
        Some(
            json!({"model": "magisterium-1", "messages": [{"role": "user", "content": "x"}]})
                .to_string(),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        serde_json::from_str::<Value>(&body).unwrap()["model"],
        "magisterium-1"
    );
}

#[tokio::test]
async fn a_streamed_completion_ends_with_citations_then_done() {
    let t = setup();
    let mut body = ask("What is grace?");
    body["stream"] = json!(true);
    body["stream_options"] = json!({"include_usage": true});
    let (status, headers, text) = chat(&t, body).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    assert!(headers[header::CONTENT_TYPE]
        .to_str()
        .unwrap()
        .starts_with("text/event-stream"));
    let data: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .collect();
    assert_eq!(data.last(), Some(&"[DONE]"));
    let chunks: Vec<Value> = data[..data.len() - 1]
        .iter()
        .map(|d| serde_json::from_str(d).unwrap())
        .collect();
    assert_eq!(chunks[0]["choices"][0]["delta"]["role"], "assistant");
    let content: String = chunks
        .iter()
        .filter_map(|c| c["choices"][0]["delta"]["content"].as_str())
        .collect();
    assert_eq!(
        content,
        "You asked: What is grace?. Grace perfects nature [1], as taught [2]."
    );
    // Streamed word by word, as the skill produced it.
    assert!(
        chunks
            .iter()
            .filter(|c| c["choices"][0]["delta"]["content"].is_string())
            .count()
            > 5
    );
    let finish: Vec<&Value> = chunks
        .iter()
        .filter(|c| c["choices"][0]["finish_reason"] == "stop")
        .collect();
    assert_eq!(finish.len(), 1);
    assert_eq!(finish[0]["citations"].as_array().unwrap().len(), 2);
    assert_eq!(
        chunks
            .iter()
            .filter(|c| c.get("citations").is_some())
            .count(),
        1
    );
    assert!(
        chunks.last().unwrap()["usage"]["total_tokens"]
            .as_u64()
            .unwrap()
            > 0
    );
}

#[tokio::test]
async fn a_follow_up_is_asked_in_context() {
    let t = setup();
    let (status, _, body) = chat(
        &t,
        json!({"model": "ecclesia-1", "messages": [
            {"role": "system", "content": "You are helpful."},
            {"role": "user", "content": "Who was Thomas Aquinas?"},
            {"role": "assistant", "content": "A Dominican friar."},
            {"role": "user", "content": "What did he teach about grace?"}
        ]}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    let text = v["choices"][0]["message"]["content"].as_str().unwrap();
    assert!(text.contains("Who was Thomas Aquinas?"), "{text}");
    assert!(text.contains("What did he teach about grace?"), "{text}");
}

fn error_of(body: &str) -> Value {
    let v: Value = serde_json::from_str(body).unwrap_or_else(|_| panic!("JSON error body: {body}"));
    assert!(v["error"]["message"].is_string(), "{v}");
    assert!(v["error"]["type"].is_string(), "{v}");
    assert!(v["error"].get("code").is_some(), "{v}");
    v["error"].clone()
}

#[tokio::test]
async fn errors_are_openai_shaped() {
    let t0 = setup();
    let mut body = ask("unavailable please");
    body["stream"] = json!(true);
    let (status, _, text) = chat(&t0, body).await;
    // The skill fails after the stream began: an OpenAI error event ends it.
    assert_eq!(status, StatusCode::OK, "{text}");
    let data: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .collect();
    let last: Value = serde_json::from_str(data.last().unwrap()).unwrap();
    assert!(
        last["error"]["message"]
            .as_str()
            .unwrap()
            .contains("not ingested"),
        "{last}"
    );

    let t = setup();
    let (status, headers, body) = call(
        &t,
        "POST",
        "/v1/chat/completions",
        None,
        Some(ask("x").to_string()),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(headers.get(header::WWW_AUTHENTICATE).is_some());
    assert_eq!(error_of(&body)["code"], "invalid_api_key");
    let (status, _, body) = call(
        &t,
        "POST",
        "/v1/chat/completions",
        Some("ecc_nope"),
        Some(ask("x").to_string()),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    error_of(&body);

    let (status, _, body) = chat(
        &t,
        json!({"model": "gpt-4o", "messages": [{"role": "user", "content": "x"}]}),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(error_of(&body)["code"], "model_not_found");

    let (status, _, body) = chat(
        &t,
        json!({"model": "ecclesia-1", "messages": [{"role": "pirate", "content": "x"}]}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let e = error_of(&body);
    assert_eq!(e["type"], "invalid_request_error");
    assert_eq!(e["param"], "messages[0].role");

    let (status, _, body) = call(
        &t,
        "POST",
        "/v1/chat/completions",
        Some(&t.token),
        Some("{oops".into()),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    error_of(&body);

    let many: Vec<Value> = (0..3000)
        .map(|i| json!({"role": if i % 2 == 0 {"user"} else {"assistant"}, "content": "hi"}))
        .collect();
    let (status, _, body) = chat(&t, json!({"model": "ecclesia-1", "messages": many})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error_of(&body)["message"]
        .as_str()
        .unwrap()
        .contains("too many messages"));

    let huge = ask(&"x".repeat(2 * 1024 * 1024));
    let (status, _, body) = chat(&t, huge).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    error_of(&body);

    let (status, _, body) = chat(&t, ask("unavailable please")).await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(error_of(&body)["type"], "server_error");
}

#[tokio::test]
async fn the_qa_pool_is_shared_with_a2a() {
    let t = setup();
    // One catholic_qa through A2A, one through chat: the pro plan's 2 a minute.
    let a2a = json!({"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": {"message": {
        "kind": "message", "role": "user", "messageId": "m1",
        "parts": [{"kind": "text", "text": "grace"}]}}});
    let (status, _, body) = call(
        &t,
        "POST",
        "/api/v1/a2a",
        Some(&t.token),
        Some(a2a.to_string()),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, _, body) = chat(&t, ask("grace")).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    // A streamed request is refused before the stream starts, with the status.
    let mut streamed = ask("grace");
    streamed["stream"] = json!(true);
    let (status, _, body) = chat(&t, streamed).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert_eq!(error_of(&body)["code"], "rate_limit_exceeded");
    let (status, headers, body) = chat(&t, ask("grace")).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert!(headers.get(header::RETRY_AFTER).is_some());
    let e = error_of(&body);
    assert_eq!(e["code"], "rate_limit_exceeded");
    assert_eq!(e["type"], "requests");
}

#[tokio::test]
async fn models_are_listed() {
    let t = setup();
    let (status, _, body) = call(&t, "GET", "/v1/models", Some(&t.token), None).await;
    assert_eq!(status, StatusCode::OK);
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["object"], "list");
    let ids: Vec<&str> = v["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["id"].as_str())
        .collect();
    assert_eq!(ids, ["ecclesia-1", "magisterium-1"]);
    let (status, _, _) = call(&t, "GET", "/v1/models/ecclesia-1", Some(&t.token), None).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _, body) = call(&t, "GET", "/api/v1/models/nope", Some(&t.token), None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    error_of(&body);
    let (status, _, _) = call(&t, "GET", "/v1/models", None, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

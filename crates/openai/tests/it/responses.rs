//! The Responses API (`POST /v1/responses`) over the merged router with the
//! fake `catholic_qa`: bodies, annotations, streams, follow-ups, errors.

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

async fn post(
    t: &T,
    path: &str,
    token: Option<&str>,
    body: String,
) -> (StatusCode, axum::http::HeaderMap, String) {
    let mut b = Request::builder()
        .method("POST")
        .uri(path)
        .header(header::CONTENT_TYPE, "application/json");
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
    (
        status,
        headers,
        String::from_utf8_lossy(&bytes).into_owned(),
    )
}

async fn respond(t: &T, body: Value) -> (StatusCode, String) {
    let (s, _, b) = post(t, "/v1/responses", Some(&t.token), body.to_string()).await;
    (s, b)
}

async fn ok(t: &T, body: Value) -> Value {
    let (status, text) = respond(t, body).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    serde_json::from_str(&text).unwrap()
}

/// The text of the response's one message.
fn output_text(v: &Value) -> &str {
    v["output"][0]["content"][0]["text"].as_str().unwrap()
}

/// The fields the Open Responses `ResponseResource` schema requires.
const REQUIRED: &[&str] = &[
    "id",
    "object",
    "created_at",
    "completed_at",
    "status",
    "incomplete_details",
    "model",
    "previous_response_id",
    "instructions",
    "output",
    "error",
    "tools",
    "tool_choice",
    "truncation",
    "parallel_tool_calls",
    "text",
    "top_p",
    "presence_penalty",
    "frequency_penalty",
    "top_logprobs",
    "temperature",
    "reasoning",
    "usage",
    "max_output_tokens",
    "max_tool_calls",
    "store",
    "background",
    "service_tier",
    "metadata",
    "safety_identifier",
    "prompt_cache_key",
];

/// Each annotation's span, as characters of `text`.
fn spans(text: &str, annotations: &Value) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    annotations
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            let s = a["start_index"].as_u64().unwrap() as usize;
            let e = a["end_index"].as_u64().unwrap() as usize;
            chars[s..e].iter().collect()
        })
        .collect()
}

#[tokio::test]
async fn a_string_input_gets_a_complete_response_with_annotations() {
    let t = setup();
    // Accents before the markers: offsets count characters, not bytes.
    let v = ok(
        &t,
        json!({"model": "ecclesia-1", "input": "Qu'est-ce que la grâce ?"}),
    )
    .await;
    for f in REQUIRED {
        assert!(v.get(*f).is_some(), "missing {f}: {v}");
    }
    assert!(v["id"].as_str().unwrap().starts_with("resp_"));
    assert_eq!(v["object"], "response");
    assert_eq!(v["status"], "completed");
    assert_eq!(v["model"], "ecclesia-1");
    assert_eq!(v["error"], Value::Null);
    assert_eq!(v["tools"], json!([]));
    assert_eq!(v["text"]["format"]["type"], "text");
    assert_eq!(v["store"], false);
    let out = v["output"].as_array().unwrap();
    assert_eq!(out.len(), 1);
    let msg = &out[0];
    assert_eq!(msg["type"], "message");
    assert!(msg["id"].as_str().unwrap().starts_with("msg_"));
    assert_eq!(msg["status"], "completed");
    assert_eq!(msg["role"], "assistant");
    let part = &msg["content"][0];
    assert_eq!(part["type"], "output_text");
    assert_eq!(part["logprobs"], json!([]));
    let text = output_text(&v);
    assert_eq!(
        text,
        "You asked: Qu'est-ce que la grâce ?. Grace perfects nature [1], as taught [2]."
    );
    let notes = &part["annotations"];
    assert_eq!(spans(text, notes), ["[1]", "[2]"]);
    assert_eq!(notes[0]["type"], "url_citation");
    assert_eq!(notes[0]["url"], "https://example.org/st");
    assert_eq!(notes[0]["title"], "Summa Theologiae");
    assert_eq!(notes[1]["url"], "https://example.org/lg");
    // The character offset, not the byte offset (â is two bytes).
    let byte = text.find("[1]").unwrap();
    assert_eq!(notes[0]["start_index"], byte - 1);
    let u = &v["usage"];
    assert!(u["input_tokens"].as_u64().unwrap() > 0);
    assert!(u["output_tokens"].as_u64().unwrap() > 0);
    assert_eq!(
        u["total_tokens"].as_u64(),
        Some(u["input_tokens"].as_u64().unwrap() + u["output_tokens"].as_u64().unwrap())
    );
    assert_eq!(u["input_tokens_details"]["cached_tokens"], 0);
    assert_eq!(u["output_tokens_details"]["reasoning_tokens"], 0);
    // The citations as Chat Completions has them.
    let c = v["citations"].as_array().unwrap();
    assert_eq!(c.len(), 2);
    assert_eq!(c[1]["document_index"], 1);
    assert_eq!(c[0]["cited_text_heading"], "Article 8");
    assert_eq!(v["related_questions"], json!(["What is grace?"]));
}

#[tokio::test]
async fn message_items_instructions_and_the_api_path() {
    let t = setup();
    let (status, _, body) = post(
        &t,
        "/api/v1/responses",
        Some(&t.token),
        json!({"model": "magisterium-1", "instructions": "Answer briefly.",
            "input": [{"type": "message", "role": "user",
                "content": [{"type": "input_text", "text": "What is grace?"}]}],
            "max_output_tokens": 200, "temperature": 0.2, "metadata": {"run": "7"},
            "store": true, "some_new_field": {"ignored": true}})
        .to_string(),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        output_text(&v),
        "You asked: What is grace?. Grace perfects nature [1], as taught [2]."
    );
    assert_eq!(v["model"], "magisterium-1");
    assert_eq!(v["instructions"], "Answer briefly.");
    assert_eq!(v["max_output_tokens"], 200);
    assert_eq!(v["temperature"], 0.2);
    assert_eq!(v["metadata"], json!({"run": "7"}));
    // Nothing is kept, whatever `store` asked.
    assert_eq!(v["store"], false);
}

#[tokio::test]
async fn a_follow_up_is_asked_in_context() {
    let t = setup();
    let v = ok(
        &t,
        json!({"model": "ecclesia-1", "input": [
            {"type": "message", "role": "system", "content": "You are helpful."},
            {"role": "user", "content": "Who was Thomas Aquinas?"},
            {"type": "message", "role": "assistant", "content": [
                {"type": "output_text", "text": "A Dominican friar.", "annotations": []}]},
            {"role": "user", "content": "What did he teach about grace?"}
        ]}),
    )
    .await;
    let text = output_text(&v);
    assert!(text.contains("User: Who was Thomas Aquinas?"), "{text}");
    assert!(text.contains("Assistant: A Dominican friar."), "{text}");
    assert!(
        text.contains("Follow-up question: What did he teach about grace?"),
        "{text}"
    );
    assert!(!text.contains("You are helpful"), "{text}");
}

/// The `(event name, data)` pairs of an SSE body.
fn sse(body: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for block in body.split("\n\n").filter(|b| !b.trim().is_empty()) {
        let mut name = String::new();
        let mut data = String::new();
        for line in block.lines() {
            if let Some(n) = line.strip_prefix("event: ") {
                name = n.to_string();
            } else if let Some(d) = line.strip_prefix("data: ") {
                data = d.to_string();
            }
        }
        out.push((name, data));
    }
    out
}

#[tokio::test]
async fn a_stream_sends_the_semantic_events_in_order() {
    let t = setup();
    let (status, headers, body) = post(
        &t,
        "/v1/responses",
        Some(&t.token),
        json!({"model": "ecclesia-1", "input": "What is grace?", "stream": true}).to_string(),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(headers[header::CONTENT_TYPE]
        .to_str()
        .unwrap()
        .starts_with("text/event-stream"));
    let events = sse(&body);
    assert_eq!(events.last().map(|e| e.1.as_str()), Some("[DONE]"));
    let events: Vec<(String, Value)> = events[..events.len() - 1]
        .iter()
        .map(|(n, d)| (n.clone(), serde_json::from_str(d).unwrap()))
        .collect();
    for (i, (name, v)) in events.iter().enumerate() {
        assert_eq!(v["type"], name.as_str(), "the event name is the type");
        assert_eq!(v["sequence_number"], i as u64);
    }
    let mut kinds: Vec<&str> = events.iter().map(|(n, _)| n.as_str()).collect();
    kinds.dedup();
    assert_eq!(
        kinds,
        [
            "response.created",
            "response.in_progress",
            "response.output_item.added",
            "response.content_part.added",
            "response.output_text.delta",
            "response.output_text.annotation.added",
            "response.output_text.done",
            "response.content_part.done",
            "response.output_item.done",
            "response.completed",
        ]
    );
    let deltas: Vec<&str> = events
        .iter()
        .filter(|(n, _)| n == "response.output_text.delta")
        .filter_map(|(_, v)| v["delta"].as_str())
        .collect();
    // Word by word, as the skill produced it.
    assert!(deltas.len() > 5, "{deltas:?}");
    let joined = deltas.concat();
    let done = &events
        .iter()
        .find(|(n, _)| n == "response.output_text.done")
        .unwrap()
        .1;
    assert_eq!(done["text"], joined.as_str());
    assert_eq!(
        joined,
        "You asked: What is grace?. Grace perfects nature [1], as taught [2]."
    );
    let created = &events[0].1["response"];
    assert_eq!(created["status"], "in_progress");
    let completed = &events.last().unwrap().1["response"];
    for f in REQUIRED {
        assert!(completed.get(*f).is_some(), "missing {f}");
    }
    assert_eq!(completed["id"], created["id"]);
    assert_eq!(completed["status"], "completed");
    assert_eq!(output_text(completed), joined);
    let notes = &completed["output"][0]["content"][0]["annotations"];
    assert_eq!(spans(&joined, notes), ["[1]", "[2]"]);
    assert_eq!(completed["citations"].as_array().unwrap().len(), 2);
    let added = &events[2].1["item"];
    assert_eq!(added["status"], "in_progress");
    assert_eq!(added["id"], completed["output"][0]["id"]);
}

#[tokio::test]
async fn a_failure_mid_stream_is_an_error_then_response_failed() {
    let t = setup();
    let (status, _, body) = post(
        &t,
        "/v1/responses",
        Some(&t.token),
        json!({"model": "ecclesia-1", "input": "unavailable please", "stream": true}).to_string(),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let events = sse(&body);
    let names: Vec<&str> = events.iter().map(|e| e.0.as_str()).collect();
    let n = names.len();
    assert_eq!(
        &names[n - 3..n - 1],
        ["error", "response.failed"],
        "{names:?}"
    );
    assert_eq!(events[n - 1].1, "[DONE]");
    let error: Value = serde_json::from_str(&events[n - 3].1).unwrap();
    assert!(error["error"]["message"]
        .as_str()
        .unwrap()
        .contains("not ingested"));
    let failed: Value = serde_json::from_str(&events[n - 2].1).unwrap();
    assert_eq!(failed["response"]["status"], "failed");
    assert!(failed["response"]["error"]["code"].is_string());
}

fn error_of(status: StatusCode, body: &str) -> Value {
    let v: Value =
        serde_json::from_str(body).unwrap_or_else(|_| panic!("{status}: JSON error body: {body}"));
    assert!(v["error"]["message"].is_string(), "{v}");
    assert!(v["error"]["type"].is_string(), "{v}");
    v["error"].clone()
}

#[tokio::test]
async fn bad_requests_are_refused_naming_the_parameter() {
    let t = setup();
    let base = |extra: Value| {
        let mut b = json!({"model": "ecclesia-1", "input": "What is grace?"});
        if let (Value::Object(b), Value::Object(e)) = (&mut b, extra) {
            b.extend(e);
        }
        b
    };
    let cases: Vec<(Value, StatusCode, Option<&str>, &str)> = vec![
        (
            json!({"model": "ecclesia-1"}),
            StatusCode::BAD_REQUEST,
            Some("input"),
            "required",
        ),
        (
            json!({"model": "ecclesia-1", "input": ""}),
            StatusCode::BAD_REQUEST,
            Some("input"),
            "empty",
        ),
        (
            json!({"model": "ecclesia-1", "input": []}),
            StatusCode::BAD_REQUEST,
            Some("input"),
            "at least one",
        ),
        (
            json!({"model": "ecclesia-1", "input": "x".repeat(20_001)}),
            StatusCode::BAD_REQUEST,
            Some("input"),
            "too long",
        ),
        (
            json!({"model": "gpt-4o", "input": "x"}),
            StatusCode::NOT_FOUND,
            Some("model"),
            "does not exist",
        ),
        (
            base(json!({"tools": [{"type": "function", "name": "weather", "parameters": {}}]})),
            StatusCode::BAD_REQUEST,
            Some("tools"),
            "tools are not supported",
        ),
        (
            base(json!({"tool_choice": {"type": "function", "name": "weather"}})),
            StatusCode::BAD_REQUEST,
            Some("tool_choice"),
            "tools are not supported",
        ),
        (
            json!({"model": "ecclesia-1", "input": [{"role": "user", "content": [
                {"type": "input_text", "text": "What is this?"},
                {"type": "input_image", "image_url": "https://example.org/a.png"}]}]}),
            StatusCode::BAD_REQUEST,
            Some("input[0].content[1]"),
            "input_image is not supported",
        ),
        (
            base(json!({"previous_response_id": "resp_123"})),
            StatusCode::BAD_REQUEST,
            Some("previous_response_id"),
            "keeps no responses",
        ),
    ];
    for (body, want, param, words) in cases {
        let (status, text) = respond(&t, body.clone()).await;
        assert_eq!(status, want, "{body}: {text}");
        let e = error_of(status, &text);
        assert_eq!(e["param"].as_str(), param, "{body}");
        assert!(
            e["message"].as_str().unwrap().contains(words),
            "{body}: {e}"
        );
    }
    let (status, text) = respond(&t, base(json!({"previous_response_id": "resp_1"}))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        error_of(status, &text)["code"],
        "previous_response_not_found"
    );
    // Malformed JSON, and a body over the server's limit.
    let (status, _, text) = post(&t, "/v1/responses", Some(&t.token), "{oops".into()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error_of(status, &text)["message"]
        .as_str()
        .unwrap()
        .contains("could not parse"));
    let huge = json!({"model": "ecclesia-1", "input": "x".repeat(2 * 1024 * 1024)});
    let (status, text) = respond(&t, huge).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    error_of(status, &text);
    // No key, or a wrong one: 401, before the body is read.
    for token in [None, Some("ecc_nope")] {
        let (status, headers, text) =
            post(&t, "/v1/responses", token, base(json!({})).to_string()).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        assert!(headers.get(header::WWW_AUTHENTICATE).is_some());
        assert_eq!(error_of(status, &text)["code"], "invalid_api_key");
    }
    // The skill failing outright: 500 in OpenAI's shape.
    let (status, text) = respond(&t, base(json!({"input": "unavailable please"}))).await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(error_of(status, &text)["type"], "server_error");
}

#[tokio::test]
async fn a_refused_stream_keeps_its_status() {
    let t = setup();
    // The pro plan allows 2 catholic_qa a minute, shared with chat.
    let chat = json!({"model": "ecclesia-1", "messages": [{"role": "user", "content": "grace"}]});
    let (status, _, body) =
        post(&t, "/v1/chat/completions", Some(&t.token), chat.to_string()).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    ok(&t, json!({"model": "ecclesia-1", "input": "grace"})).await;
    let (status, headers, body) = post(
        &t,
        "/v1/responses",
        Some(&t.token),
        json!({"model": "ecclesia-1", "input": "grace", "stream": true}).to_string(),
    )
    .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert!(headers.get(header::RETRY_AFTER).is_some());
    assert_eq!(error_of(status, &body)["code"], "rate_limit_exceeded");
}

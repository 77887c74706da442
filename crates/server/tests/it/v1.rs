//! A2A 1.0 over JSON-RPC beside 0.3 on `POST /api/v1/a2a`: routing by method name and
//! `A2A-Version`, 1.0 shapes for tasks, streams, errors and the card, and `ListTasks`.

use crate::support::{harness, harness_with, uuid, Harness, Resp};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{json, Value};

async fn call_v1(h: &Harness, method: &str, params: Value, token: Option<&str>) -> Resp {
    let body = json!({"jsonrpc": "2.0", "id": "r1", "method": method, "params": params});
    let mut req = Request::post("/api/v1/a2a")
        .header("content-type", "application/json")
        .header("A2A-Version", "1.0");
    if let Some(t) = token {
        req = req.header("authorization", format!("Bearer {t}"));
    }
    h.request(
        req.body(Body::from(serde_json::to_vec(&body).unwrap()))
            .unwrap(),
    )
    .await
}

fn message(skill: &str, text: &str) -> Value {
    json!({"message": {"messageId": uuid(), "role": "ROLE_USER", "parts": [{"text": text}],
                       "metadata": {"skillId": skill}}})
}

async fn send(h: &Harness, skill: &str, text: &str, token: Option<&str>) -> Value {
    let r = call_v1(h, "SendMessage", message(skill, text), token).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let v = r.json();
    assert!(v.get("error").is_none(), "{v}");
    v["result"]["task"].clone()
}

#[tokio::test]
async fn send_message_answers_a_completed_task_in_1_0_shapes() {
    let h = harness();
    let task = send(&h, "echo", "hello", None).await;
    assert_eq!(task["status"]["state"], "TASK_STATE_COMPLETED");
    let part = &task["artifacts"][0]["parts"][0];
    assert_eq!(part["text"], "hello");
    assert!(part.get("kind").is_none(), "1.0 parts have no kind: {part}");
    assert_eq!(task["history"][0]["role"], "ROLE_USER");
    assert!(task.get("kind").is_none());
}

#[tokio::test]
async fn a_1_0_method_without_the_version_header_is_refused_with_advice() {
    let h = harness();
    let body =
        json!({"jsonrpc": "2.0", "id": 7, "method": "SendMessage", "params": message("echo", "x")});
    let v = h.rpc(body, None).await.json();
    assert_eq!(v["id"], 7);
    assert_eq!(v["error"]["code"], -32009, "{v}");
    assert!(v["error"]["message"]
        .as_str()
        .unwrap()
        .contains("A2A-Version: 1.0"));
    // 0.3 keeps working without a header.
    let v = h
        .rpc(
            crate::support::send(Some("echo"), json!([{"kind": "text", "text": "hi"}])),
            None,
        )
        .await
        .json();
    assert_eq!(v["result"]["status"]["state"], "completed", "{v}");
}

#[tokio::test]
async fn get_and_cancel_task_use_1_0_errors() {
    let h = harness();
    let task = send(&h, "echo", "hello", None).await;
    let id = task["id"].as_str().unwrap();
    let got = call_v1(&h, "GetTask", json!({"id": id, "historyLength": 0}), None)
        .await
        .json();
    assert_eq!(got["result"]["id"], id);
    assert_eq!(got["result"]["status"]["state"], "TASK_STATE_COMPLETED");
    let missing = call_v1(&h, "GetTask", json!({"id": "nope"}), None)
        .await
        .json();
    assert_eq!(missing["error"]["code"], -32001);
    let cancel = call_v1(&h, "CancelTask", json!({"id": id}), None)
        .await
        .json();
    assert_eq!(cancel["error"]["code"], -32002, "{cancel}");
    let sub = call_v1(&h, "SubscribeToTask", json!({"id": id}), None).await;
    assert!(sub.text().contains("-32004"), "{}", sub.text());
    let again = call_v1(
        &h,
        "SendMessage",
        json!({"message": {"messageId": uuid(), "role": "ROLE_USER",
        "taskId": id, "parts": [{"text": "more"}], "metadata": {"skillId": "echo"}}}),
        None,
    )
    .await
    .json();
    assert_eq!(again["error"]["code"], -32004, "{again}");
}

#[tokio::test]
async fn bad_params_say_which_field() {
    let h = harness();
    let v = call_v1(
        &h,
        "SendMessage",
        json!({"message": {"messageId": "m", "role": "ROLE_USER",
        "parts": [{"kind": "file", "file": {"uri": "https://example.org/a.pdf"}}]}}),
        None,
    )
    .await
    .json();
    assert_eq!(v["error"]["code"], -32602, "{v}");
    assert!(
        v["error"]["message"].as_str().unwrap().contains("parts"),
        "{v}"
    );
    let v = call_v1(&h, "ListTasks", json!({"pageSize": 500}), None)
        .await
        .json();
    assert_eq!(v["error"]["code"], -32602);
    let v = call_v1(&h, "ListTasks", json!({"pageToken": "zz"}), None)
        .await
        .json();
    assert_eq!(v["error"]["code"], -32602);
    let v = call_v1(&h, "NoSuchMethod", json!({}), None).await.json();
    assert_eq!(v["error"]["code"], -32601);
}

#[tokio::test]
async fn list_tasks_pages_through_the_callers_own_tasks_only() {
    let h = harness_with(ecclesia_server::ServerConfig::default());
    let (a, b) = (h.key("pro"), h.key("pro"));
    let mut ids = Vec::new();
    for i in 0..3 {
        let t = send(&h, "echo", &format!("a{i}"), Some(&a)).await;
        ids.push(t["id"].as_str().unwrap().to_string());
        h.clock.advance(chrono::Duration::milliseconds(5));
    }
    send(&h, "echo", "b", Some(&b)).await;
    let p1 = call_v1(&h, "ListTasks", json!({"pageSize": 2}), Some(&a))
        .await
        .json();
    let r1 = &p1["result"];
    assert_eq!(r1["totalSize"], 3, "{p1}");
    assert_eq!(r1["pageSize"], 2);
    let first: Vec<&str> = r1["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    assert_eq!(first, [ids[2].as_str(), ids[1].as_str()], "newest first");
    assert!(
        r1["tasks"][0].get("artifacts").is_none(),
        "artifacts only on request"
    );
    let token = r1["nextPageToken"].as_str().unwrap();
    assert!(!token.is_empty());
    let p2 = call_v1(
        &h,
        "ListTasks",
        json!({"pageSize": 2, "pageToken": token, "includeArtifacts": true}),
        Some(&a),
    )
    .await
    .json();
    let r2 = &p2["result"];
    assert_eq!(r2["tasks"].as_array().unwrap().len(), 1);
    assert_eq!(r2["tasks"][0]["id"], ids[0].as_str());
    assert!(r2["tasks"][0]["artifacts"].is_array());
    assert_eq!(r2["nextPageToken"], "");
    let pb = call_v1(&h, "ListTasks", json!({}), Some(&b)).await.json();
    assert_eq!(pb["result"]["totalSize"], 1);
    let done = call_v1(
        &h,
        "ListTasks",
        json!({"status": "TASK_STATE_CANCELED"}),
        Some(&a),
    )
    .await
    .json();
    assert_eq!(done["result"]["totalSize"], 0);
}

#[tokio::test]
async fn streaming_events_are_wrapped_stream_responses() {
    let h = harness();
    let r = call_v1(
        &h,
        "SendStreamingMessage",
        message("echo", "streamed"),
        None,
    )
    .await;
    assert_eq!(r.status, StatusCode::OK);
    let events = r.sse();
    assert!(events.len() >= 2, "{events:?}");
    assert!(events[0]["result"]["task"].is_object(), "{}", events[0]);
    let last = events.last().unwrap();
    assert_eq!(
        last["result"]["statusUpdate"]["status"]["state"], "TASK_STATE_COMPLETED",
        "{last}"
    );
    for e in &events {
        let keys: Vec<&String> = e["result"].as_object().unwrap().keys().collect();
        assert_eq!(keys.len(), 1, "one member per StreamResponse: {e}");
        assert!(e["result"].get("kind").is_none());
    }
}

#[tokio::test]
async fn push_configs_and_the_extended_card_are_refused_clearly() {
    let h = harness();
    let v = call_v1(
        &h,
        "CreateTaskPushNotificationConfig",
        json!({"taskId": "t", "url": "https://example.org/hook"}),
        None,
    )
    .await
    .json();
    assert_eq!(v["error"]["code"], -32003, "{v}");
    let v = call_v1(&h, "GetExtendedAgentCard", json!({}), None)
        .await
        .json();
    assert_eq!(v["error"]["code"], -32004, "{v}");
}

#[tokio::test]
async fn the_card_comes_in_the_callers_version() {
    let h = harness();
    let v03 = h.get("/.well-known/agent-card.json").await;
    assert_eq!(v03.headers["vary"], "A2A-Version");
    assert_eq!(v03.json()["protocolVersion"], "0.3.0");
    let req = Request::get("/.well-known/agent-card.json")
        .header("A2A-Version", "1.0")
        .body(Body::empty())
        .unwrap();
    let v1 = h.request(req).await.json();
    let interfaces = v1["supportedInterfaces"].as_array().unwrap();
    let pairs: Vec<(String, String)> = interfaces
        .iter()
        .map(|i| {
            (
                i["protocolBinding"].as_str().unwrap().into(),
                i["protocolVersion"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert!(
        pairs.contains(&("JSONRPC".into(), "1.0".into())),
        "{pairs:?}"
    );
    assert!(pairs.contains(&("JSONRPC".into(), "0.3".into())));
    assert_eq!(v1["capabilities"]["extendedAgentCard"], false);
    assert!(v1.get("protocolVersion").is_none(), "{v1}");
    assert!(v1["skills"].as_array().is_some_and(|s| !s.is_empty()));
}

#[tokio::test]
async fn the_card_has_validators_and_answers_304_when_unchanged() {
    let h = harness();
    let first = h.get("/.well-known/agent-card.json").await;
    let etag = first.headers["etag"].to_str().unwrap().to_string();
    assert!(first.headers.contains_key("last-modified"));
    let req = Request::get("/.well-known/agent-card.json")
        .header("if-none-match", &etag)
        .body(Body::empty())
        .unwrap();
    let again = h.request(req).await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED);
    assert!(again.body.is_empty());
    // Each shape has its own validator.
    let req = Request::get("/.well-known/agent-card.json")
        .header("A2A-Version", "1.0")
        .header("if-none-match", &etag)
        .body(Body::empty())
        .unwrap();
    assert_eq!(h.request(req).await.status, StatusCode::OK);
}

/// A message whose only part is of a media type the agent does not accept gets
/// `ContentTypeNotSupportedError` (the 1.0 TCK's CORE-SEND-003), not "no question given";
/// 0.3 gives its own -32005 with the same message.
#[tokio::test]
async fn an_unsupported_media_type_alone_is_content_type_not_supported() {
    let h = harness();
    let params = json!({"message": {"messageId": uuid(), "role": "ROLE_USER",
        "parts": [{"raw": "AAECAw==", "mediaType": "application/x-unsupported", "filename": "x.bin"}],
        "metadata": {"skillId": "echo"}}});
    let v = call_v1(&h, "SendMessage", params, None).await.json();
    assert_eq!(v["error"]["code"], -32005, "{v}");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("application/x-unsupported"),
        "{v}"
    );
    let reason = v["error"]["data"][0]["reason"].as_str().unwrap_or("");
    assert_eq!(reason, "CONTENT_TYPE_NOT_SUPPORTED", "{v}");
    // 0.3.
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": {"message": {
        "kind": "message", "messageId": uuid(), "role": "user", "metadata": {"skillId": "echo"},
        "parts": [{"kind": "file", "file": {"bytes": "AAECAw==", "mimeType": "image/png"}}]}}});
    let v = h.rpc(body, None).await.json();
    assert_eq!(v["error"]["code"], -32005, "{v}");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("Incompatible content types"),
        "{v}"
    );
    // A text part beside the file is served.
    let body = json!({"jsonrpc": "2.0", "id": 2, "method": "message/send", "params": {"message": {
        "kind": "message", "messageId": uuid(), "role": "user", "metadata": {"skillId": "echo"},
        "parts": [{"kind": "file", "file": {"bytes": "AAECAw==", "mimeType": "image/png"}}, {"kind": "text", "text": "hi"}]}}});
    let v = h.rpc(body, None).await.json();
    assert!(v.get("error").is_none(), "{v}");
}

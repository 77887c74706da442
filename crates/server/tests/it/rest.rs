//! A2A 1.0 over HTTP+JSON under `/api/v1/rest`: the same core as JSON-RPC, JSON results,
//! bare `StreamResponse` events, and errors as problem details carrying `google.rpc.Status`.

use crate::support::{harness, uuid, Harness, Resp};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{json, Value};

async fn post(h: &Harness, path: &str, body: Value) -> Resp {
    let req = Request::post(format!("/api/v1/rest{path}"))
        .header("content-type", "application/json")
        .header("A2A-Version", "1.0")
        .body(Body::from(body.to_string()))
        .unwrap();
    h.request(req).await
}

async fn get(h: &Harness, path: &str) -> Resp {
    h.get(&format!("/api/v1/rest{path}")).await
}

fn message(text: &str) -> Value {
    json!({"message": {"messageId": uuid(), "role": "ROLE_USER", "parts": [{"text": text}],
                       "metadata": {"skillId": "echo"}}})
}

fn reason(r: &Resp) -> String {
    let v = r.json();
    v["error"]["details"]
        .as_array()
        .and_then(|d| d.iter().find_map(|x| x["reason"].as_str()))
        .unwrap_or_default()
        .to_string()
}

#[tokio::test]
async fn send_get_list_and_cancel() {
    let h = harness();
    let r = post(&h, "/message:send", message("hello")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let task = r.json()["task"].clone();
    assert_eq!(task["status"]["state"], "TASK_STATE_COMPLETED");
    let id = task["id"].as_str().unwrap();
    let got = get(&h, &format!("/tasks/{id}?historyLength=1")).await;
    assert_eq!(got.status, StatusCode::OK);
    assert_eq!(got.json()["id"], id);
    assert_eq!(got.json()["history"].as_array().unwrap().len(), 1);
    let listed = get(&h, "/tasks?pageSize=5&includeArtifacts=true")
        .await
        .json();
    assert!(
        listed["tasks"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["id"] == id),
        "{listed}"
    );
    assert!(listed["tasks"][0]["artifacts"].is_array());
    let cancel = post(&h, &format!("/tasks/{id}:cancel"), json!({})).await;
    // A2A 1.0 §5.4: TaskNotCancelableError is 409 in HTTP+JSON.
    assert_eq!(cancel.status, StatusCode::CONFLICT);
    // application/json (A2A §11.6) by default; problem+json when the client accepts it.
    assert_eq!(cancel.headers["content-type"], "application/json");
    let req = Request::post(format!("/api/v1/rest/tasks/{id}:cancel"))
        .header("accept", "application/problem+json")
        .body(Body::from("{}"))
        .unwrap();
    let as_problem = h.request(req).await;
    assert_eq!(
        as_problem.headers["content-type"],
        "application/problem+json"
    );
    assert_eq!(reason(&as_problem), "TASK_NOT_CANCELABLE");
    assert_eq!(reason(&cancel), "TASK_NOT_CANCELABLE");
    let body = cancel.json();
    assert_eq!(body["status"], 409);
    assert_eq!(body["error"]["status"], "FAILED_PRECONDITION");
    assert!(body["type"]
        .as_str()
        .unwrap()
        .ends_with("/task-not-cancelable"));
}

/// A2A 1.0 §5.4: a message holding only an unsupported media type is 415 in HTTP+JSON
/// (the 1.0 TCK's CORE-SEND-003 over http_json).
#[tokio::test]
async fn an_unsupported_media_type_alone_is_415() {
    let h = harness();
    let body = json!({"message": {"messageId": uuid(), "role": "ROLE_USER",
        "parts": [{"raw": "dGNr", "mediaType": "application/x-unsupported-tck-type"}],
        "metadata": {"skillId": "echo"}}});
    let r = post(&h, "/message:send", body).await;
    assert_eq!(r.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert_eq!(reason(&r), "CONTENT_TYPE_NOT_SUPPORTED");
    assert_eq!(r.json()["status"], 415);
}

#[tokio::test]
async fn errors_are_problem_details_with_the_a2a_reason() {
    let h = harness();
    let missing = get(&h, "/tasks/nope").await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert_eq!(reason(&missing), "TASK_NOT_FOUND");
    let bad = post(&h, "/message:send", json!({"message": {"messageId": "m"}})).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST, "{}", bad.text());
    assert_eq!(reason(&bad), "INVALID_PARAMS");
    let req = Request::post("/api/v1/rest/message:send")
        .body(Body::from("{not json"))
        .unwrap();
    let r = h.request(req).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert_eq!(reason(&r), "JSON_PARSE_ERROR");
    let req = Request::post("/api/v1/rest/message:send")
        .header("A2A-Version", "0.3")
        .body(Body::from(message("x").to_string()))
        .unwrap();
    let r = h.request(req).await;
    assert_eq!(reason(&r), "VERSION_NOT_SUPPORTED");
    let r = post(&h, "/tasks/abc:explode", json!({})).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    let r = post(
        &h,
        "/tasks/abc/pushNotificationConfigs",
        json!({"url": "https://example.org"}),
    )
    .await;
    assert_eq!(reason(&r), "PUSH_NOTIFICATION_NOT_SUPPORTED");
    let r = get(&h, "/tasks?pageSize=0").await;
    assert_eq!(reason(&r), "INVALID_PARAMS");
}

#[tokio::test]
async fn stream_events_are_bare_stream_responses() {
    let h = harness();
    let r = post(&h, "/message:stream", message("streamed")).await;
    assert_eq!(r.status, StatusCode::OK);
    let events = r.sse();
    assert!(events[0]["task"].is_object(), "{events:?}");
    assert_eq!(
        events.last().unwrap()["statusUpdate"]["status"]["state"],
        "TASK_STATE_COMPLETED"
    );
    assert!(events.iter().all(|e| e.get("jsonrpc").is_none()));
}

#[tokio::test]
async fn the_1_0_card_lists_the_rest_interface() {
    let h = harness();
    let req = Request::get("/.well-known/agent-card.json")
        .header("A2A-Version", "1.0")
        .body(Body::empty())
        .unwrap();
    let card = h.request(req).await.json();
    let rest = card["supportedInterfaces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["protocolBinding"] == "HTTP+JSON")
        .cloned()
        .unwrap();
    assert!(
        rest["url"].as_str().unwrap().ends_with("/api/v1/rest"),
        "{rest}"
    );
    assert_eq!(rest["protocolVersion"], "1.0");
}

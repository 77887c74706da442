//! Push notifications in both versions against a local webhook receiver (a real HTTP
//! listener on a loopback port, allowed with `push_allow`): configs set with the message
//! and by the config methods, delivery with the token and the authentication, retries,
//! ownership, and the refusal of private targets.

use crate::support::*;
use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, Request, StatusCode};
use axum::routing::post;
use ecclesia_server::ServerConfig;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

/// One POST the receiver got.
struct Hit {
    headers: HeaderMap,
    body: Value,
}

#[derive(Clone)]
struct Receiver {
    tx: mpsc::UnboundedSender<Hit>,
    /// Answer 500 to this many POSTs first.
    fail_first: Arc<AtomicUsize>,
}

async fn hook(State(r): State<Receiver>, headers: HeaderMap, body: String) -> StatusCode {
    if r.fail_first
        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
        .is_ok()
    {
        return StatusCode::INTERNAL_SERVER_ERROR;
    }
    let body = serde_json::from_str(&body).unwrap_or(Value::Null);
    let _ = r.tx.send(Hit { headers, body });
    StatusCode::OK
}

/// A webhook receiver on a loopback port: its URL and the POSTs it gets.
async fn receiver(fail_first: usize) -> (String, mpsc::UnboundedReceiver<Hit>) {
    let (tx, rx) = mpsc::unbounded_channel();
    let state = Receiver {
        tx,
        fail_first: Arc::new(AtomicUsize::new(fail_first)),
    };
    let app = axum::Router::new()
        .route("/hook", post(hook))
        .with_state(state);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    (format!("http://{addr}/hook"), rx)
}

async fn next(rx: &mut mpsc::UnboundedReceiver<Hit>) -> Hit {
    tokio::time::timeout(Duration::from_secs(20), rx.recv())
        .await
        .expect("a notification within 20 s")
        .expect("the receiver is open")
}

fn push_harness(allow: &[&str]) -> Harness {
    let mut h = harness_with(ServerConfig {
        anonymous: true,
        push_allow: allow.iter().map(|s| s.to_string()).collect(),
        ..ServerConfig::default()
    });
    h.state = h.state.clone().with_push(h.db.clone());
    h
}

fn send_with_hook(url: &str) -> Value {
    let mut body = send(Some("echo"), json!([{"kind": "text", "text": "hello"}]));
    body["params"]["configuration"] = json!({
        "pushNotificationConfig": {
            "url": url, "token": "tok-1",
            "authentication": {"schemes": ["Bearer"], "credentials": "secret"}
        }
    });
    body
}

#[tokio::test]
async fn a_03_webhook_gets_the_task_at_each_status_with_token_and_authentication() {
    let (url, mut rx) = receiver(0).await;
    let h = push_harness(&["127.0.0.1"]);
    let card = h.get("/.well-known/agent-card.json").await.json();
    assert_eq!(card["capabilities"]["pushNotifications"], true);
    let r = h.rpc(send_with_hook(&url), None).await.json();
    let id = r["result"]["id"].as_str().unwrap().to_string();
    assert_eq!(r["result"]["status"]["state"], "completed", "{r}");
    let mut states = Vec::new();
    while states.last().map(String::as_str) != Some("completed") {
        let hit = next(&mut rx).await;
        assert_eq!(hit.headers["x-a2a-notification-token"], "tok-1");
        assert_eq!(hit.headers["authorization"], "Bearer secret");
        assert_eq!(hit.body["id"], id.as_str());
        assert_eq!(hit.body["kind"], "task");
        states.push(hit.body["status"]["state"].as_str().unwrap().to_string());
    }
    assert_eq!(states, ["working", "completed"]);

    // The config is the caller's: get, list, delete.
    let get = json!({"jsonrpc": "2.0", "id": 1, "method": "tasks/pushNotificationConfig/get",
                     "params": {"id": id}});
    let v = h.rpc(get.clone(), None).await.json();
    assert_eq!(v["result"]["taskId"], id.as_str(), "{v}");
    assert_eq!(v["result"]["pushNotificationConfig"]["url"], url.as_str());
    let token = h.key("pro");
    check_error(&h.rpc(get.clone(), Some(&token)).await, -32001, json!(1));
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tasks/pushNotificationConfig/list",
                      "params": {"id": id}});
    assert_eq!(
        h.rpc(list.clone(), None).await.json()["result"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    let del = json!({"jsonrpc": "2.0", "id": 3, "method": "tasks/pushNotificationConfig/delete",
                     "params": {"id": id, "pushNotificationConfigId": id}});
    assert_eq!(h.rpc(del.clone(), None).await.json()["result"], Value::Null);
    assert!(h.rpc(list, None).await.json()["result"]
        .as_array()
        .unwrap()
        .is_empty());
    check_error(&h.rpc(del, None).await, -32001, json!(3));
}

#[tokio::test]
async fn a_10_webhook_gets_stream_responses_and_failed_posts_are_retried() {
    let (url, mut rx) = receiver(1).await;
    let h = push_harness(&["127.0.0.1"]);
    let body = json!({"jsonrpc": "2.0", "id": "r1", "method": "SendMessage", "params": {
        "message": {"messageId": uuid(), "role": "ROLE_USER", "parts": [{"text": "hi"}],
                    "metadata": {"skillId": "echo"}},
        "configuration": {"taskPushNotificationConfig": {"url": url, "token": "t1",
            "authentication": {"scheme": "Bearer", "credentials": "c1"}}}}});
    let req = Request::post("/api/v1/a2a")
        .header("content-type", "application/json")
        .header("A2A-Version", "1.0")
        .body(Body::from(body.to_string()))
        .unwrap();
    let v = h.request(req).await.json();
    let id = v["result"]["task"]["id"].as_str().unwrap().to_string();
    let mut kinds = Vec::new();
    loop {
        let hit = next(&mut rx).await;
        assert_eq!(hit.headers["x-a2a-notification-token"], "t1");
        assert_eq!(hit.headers["authorization"], "Bearer c1");
        let (kind, inner) = hit.body.as_object().unwrap().iter().next().unwrap();
        assert_eq!(inner["taskId"], id.as_str(), "{}", hit.body);
        kinds.push(kind.clone());
        if inner["status"]["state"] == "TASK_STATE_COMPLETED" {
            break;
        }
    }
    // The first POST was refused (500) and retried: nothing was lost.
    assert_eq!(kinds, ["statusUpdate", "artifactUpdate", "statusUpdate"]);

    // The config methods of 1.0.
    let call = |method: &str, params: Value| {
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
        Request::post("/api/v1/a2a")
            .header("content-type", "application/json")
            .header("A2A-Version", "1.0")
            .body(Body::from(body.to_string()))
            .unwrap()
    };
    let v = h
        .request(call(
            "CreateTaskPushNotificationConfig",
            json!({"taskId": id, "id": "second", "url": url}),
        ))
        .await
        .json();
    assert_eq!(v["result"]["id"], "second", "{v}");
    let v = h
        .request(call(
            "ListTaskPushNotificationConfigs",
            json!({"taskId": id}),
        ))
        .await
        .json();
    assert_eq!(v["result"]["configs"].as_array().unwrap().len(), 2, "{v}");
    let v = h
        .request(call(
            "DeleteTaskPushNotificationConfig",
            json!({"taskId": id, "id": "second"}),
        ))
        .await
        .json();
    assert!(v.get("error").is_none(), "{v}");
    let v = h
        .request(call(
            "GetTaskPushNotificationConfig",
            json!({"taskId": id, "id": "second"}),
        ))
        .await
        .json();
    assert_eq!(v["error"]["code"], -32001, "{v}");
    // REST: the same configs under /tasks/{id}/pushNotificationConfigs.
    let req = Request::get(format!("/api/v1/rest/tasks/{id}/pushNotificationConfigs"))
        .header("A2A-Version", "1.0")
        .body(Body::empty())
        .unwrap();
    let v = h.request(req).await.json();
    assert_eq!(v["configs"].as_array().unwrap().len(), 1, "{v}");
}

#[tokio::test]
async fn private_targets_are_refused_unless_allowed() {
    let h = push_harness(&[]);
    for url in [
        "http://127.0.0.1:9/hook",
        "http://169.254.169.254/latest/meta-data",
        "http://10.0.0.1/",
        "http://[::1]:9/",
        "ftp://example.org/",
    ] {
        let r = h.rpc(send_with_hook(url), None).await;
        let v = r.json();
        assert_eq!(v["error"]["code"], -32602, "{url}: {v}");
    }
    // Off: the card says so and the methods are refused.
    let off = harness();
    let card = off.get("/.well-known/agent-card.json").await.json();
    assert_eq!(card["capabilities"]["pushNotifications"], false);
}

//! Tasks: ownership, expiry, history, cancel, non-blocking runs, streaming
//! order, failures in skills, persistence across a restart.

use crate::support::*;
use ecclesia_server::{AppState, ServerConfig, SqliteStore};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;

fn get(id: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": 5, "method": "tasks/get", "params": {"id": id}})
}

fn cancel(id: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": 6, "method": "tasks/cancel", "params": {"id": id}})
}

fn nonblocking(skill: &str) -> Value {
    let mut b = send(Some(skill), json!([{"kind": "text", "text": "go"}]));
    b["params"]["configuration"] = json!({"blocking": false});
    b
}

#[tokio::test]
async fn completed_task_shape() {
    let h = harness();
    let r = h
        .rpc(
            send(
                Some("echo"),
                json!([{"kind": "text", "text": "hi"}, {"kind": "data", "data": {"n": 3}}]),
            ),
            None,
        )
        .await;
    let t = &r.json()["result"];
    assert_eq!(t["kind"], "task");
    assert_eq!(t["status"]["state"], "completed");
    assert!(t["status"]["timestamp"].as_str().unwrap().ends_with('Z'));
    assert!(!t["contextId"].as_str().unwrap().is_empty());
    let a = &t["artifacts"][0];
    assert!(a["artifactId"].as_str().unwrap().starts_with("art_"));
    assert_eq!(a["name"], "echo");
    assert_eq!(a["parts"][1]["data"]["n"], 3);
    let hist = t["history"].as_array().unwrap();
    assert_eq!(hist.len(), 2);
    assert_eq!(hist[0]["role"], "user");
    assert_eq!(hist[0]["taskId"], t["id"]);
    assert_eq!(hist[1]["role"], "agent");
}

#[tokio::test]
async fn context_id_is_kept() {
    let h = harness();
    let mut b = send(Some("echo"), json!([{"kind": "text", "text": "hi"}]));
    b["params"]["message"]["contextId"] = json!("ctx-1");
    assert_eq!(h.rpc(b, None).await.json()["result"]["contextId"], "ctx-1");
}

#[tokio::test]
async fn unknown_task_is_32001() {
    let h = harness();
    check_error(&h.rpc(get("nope"), None).await, -32001, json!(5));
    check_error(&h.rpc(cancel("nope"), None).await, -32001, json!(6));
}

#[tokio::test]
async fn ownership() {
    let h = harness_with(ServerConfig::default());
    let (a, b) = (h.key("pro"), h.key("pro"));
    let id = h.rpc(nonblocking("slow"), Some(&a)).await.json()["result"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    check_error(&h.rpc(get(&id), Some(&b)).await, -32001, json!(5));
    check_error(&h.rpc(cancel(&id), Some(&b)).await, -32001, json!(6));
    assert_eq!(h.rpc(get(&id), Some(&a)).await.json()["result"]["id"], id);
    assert_eq!(
        h.rpc(cancel(&id), Some(&a)).await.json()["result"]["status"]["state"],
        "canceled"
    );
}

#[tokio::test]
async fn expiry_with_injected_clock() {
    let h = harness();
    let id = h
        .rpc(
            send(Some("echo"), json!([{"kind": "text", "text": "hi"}])),
            None,
        )
        .await
        .json()["result"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    h.clock.advance(chrono::Duration::hours(23));
    assert_eq!(h.rpc(get(&id), None).await.json()["result"]["id"], id);
    h.clock.advance(chrono::Duration::hours(2));
    check_error(&h.rpc(get(&id), None).await, -32001, json!(5));
    use ecclesia_server::TaskStore;
    assert_eq!(h.db.purge_expired(h.clock.now_for_test()).unwrap(), 1);
}

trait NowForTest {
    fn now_for_test(&self) -> chrono::DateTime<chrono::Utc>;
}
impl NowForTest for ecclesia_server::ManualClock {
    fn now_for_test(&self) -> chrono::DateTime<chrono::Utc> {
        use ecclesia_server::Clock;
        self.now()
    }
}

#[tokio::test]
async fn history_length_trims() {
    let h = harness();
    let id = h
        .rpc(
            send(Some("echo"), json!([{"kind": "text", "text": "hi"}])),
            None,
        )
        .await
        .json()["result"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    for (n, expect) in [(0, 0), (1, 1), (2, 2), (10, 2)] {
        let r = h.rpc(json!({"jsonrpc": "2.0", "id": 1, "method": "tasks/get", "params": {"id": id, "historyLength": n}}), None).await;
        let hist = r.json()["result"]["history"].as_array().unwrap().clone();
        assert_eq!(hist.len(), expect, "historyLength {n}");
        if n == 1 {
            assert_eq!(hist[0]["role"], "agent", "the last message is kept");
        }
    }
    let mut b = send(Some("echo"), json!([{"kind": "text", "text": "hi"}]));
    b["params"]["configuration"] = json!({"historyLength": 1});
    assert_eq!(
        h.rpc(b, None).await.json()["result"]["history"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

#[tokio::test]
async fn cancel_running_nonblocking_task() {
    let h = harness();
    let r = h.rpc(nonblocking("slow"), None).await;
    let t = &r.json()["result"];
    assert_eq!(t["status"]["state"], "working");
    let id = t["id"].as_str().unwrap().to_string();
    let r = h.rpc(cancel(&id), None).await;
    assert_eq!(r.json()["result"]["status"]["state"], "canceled");
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(
        h.rpc(get(&id), None).await.json()["result"]["status"]["state"],
        "canceled"
    );
    check_error(&h.rpc(cancel(&id), None).await, -32002, json!(6));
    assert!(
        h.state.running.lock().unwrap().is_empty(),
        "the run stopped"
    );
}

#[tokio::test]
async fn nonblocking_task_completes_in_background() {
    let h = harness();
    let id = h.rpc(nonblocking("echo"), None).await.json()["result"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let mut state = String::new();
    for _ in 0..100 {
        state = h.rpc(get(&id), None).await.json()["result"]["status"]["state"]
            .as_str()
            .unwrap()
            .to_string();
        if state == "completed" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(state, "completed");
}

#[tokio::test]
async fn terminal_tasks_refuse_messages_and_cancel() {
    let h = harness();
    let id = h
        .rpc(
            send(Some("echo"), json!([{"kind": "text", "text": "hi"}])),
            None,
        )
        .await
        .json()["result"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    check_error(&h.rpc(cancel(&id), None).await, -32002, json!(6));
    let mut b = send(Some("echo"), json!([{"kind": "text", "text": "again"}]));
    b["params"]["message"]["taskId"] = json!(id);
    let r = h.rpc(b, None).await;
    check_error(&r, -32602, json!(1));
    assert!(r.json()["error"]["message"]
        .as_str()
        .unwrap()
        .contains("terminal"));
}

#[tokio::test]
async fn panicking_skill_fails_the_task_not_the_server() {
    let h = harness();
    let r = h
        .rpc(
            send(Some("boom"), json!([{"kind": "text", "text": "x"}])),
            None,
        )
        .await;
    let t = &r.json()["result"];
    assert_eq!(t["status"]["state"], "failed");
    assert!(t["status"]["message"]["parts"][0]["text"]
        .as_str()
        .unwrap()
        .contains("unexpectedly"));
    assert_eq!(
        h.rpc(
            send(Some("echo"), json!([{"kind": "text", "text": "x"}])),
            None
        )
        .await
        .status,
        200
    );
}

#[tokio::test]
async fn skill_deadline_fails_the_task() {
    let h = harness_with(ServerConfig {
        anonymous: true,
        skill_timeout: Duration::from_millis(200),
        ..ServerConfig::default()
    });
    let r = h
        .rpc(
            send(Some("slow"), json!([{"kind": "text", "text": "x"}])),
            None,
        )
        .await;
    let t = &r.json()["result"];
    assert_eq!(t["status"]["state"], "failed");
    assert!(t["status"]["message"]["parts"][0]["text"]
        .as_str()
        .unwrap()
        .contains("did not finish"));
}

#[tokio::test]
async fn stream_event_order() {
    let h = harness();
    let mut b = send(None, json!([{"kind": "text", "text": "What is grace?"}]));
    b["method"] = json!("message/stream");
    b["id"] = json!("s1");
    let r = h.rpc(b, None).await;
    assert_eq!(r.status, 200);
    assert!(r.headers["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/event-stream"));
    let events = r.sse();
    assert!(events
        .iter()
        .all(|e| e["id"] == "s1" && e["jsonrpc"] == "2.0"));
    let kinds: Vec<String> = events
        .iter()
        .map(|e| {
            let res = &e["result"];
            match res["kind"].as_str().unwrap() {
                "status-update" => format!("status:{}", res["status"]["state"].as_str().unwrap()),
                k => k.to_string(),
            }
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "task",
            "status:working",
            "artifact-update",
            "artifact-update",
            "artifact-update",
            "artifact-update",
            "status:completed"
        ]
    );
    assert_eq!(events[2]["result"]["append"], false);
    assert_eq!(events[3]["result"]["append"], true);
    assert_eq!(events[5]["result"]["lastChunk"], true);
    assert_eq!(events.last().unwrap()["result"]["final"], true);
    let text: String = events[2..5]
        .iter()
        .map(|e| {
            e["result"]["artifact"]["parts"][0]["text"]
                .as_str()
                .unwrap()
        })
        .collect();
    assert_eq!(text, "one two three");
}

#[tokio::test]
async fn stream_errors_are_sse_events() {
    let h = harness();
    let r = h.rpc(json!({"jsonrpc": "2.0", "id": 4, "method": "tasks/resubscribe", "params": {"id": "nope"}}), None).await;
    assert!(r.headers["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/event-stream"));
    let ev = r.sse();
    assert_eq!(ev.len(), 1);
    assert_eq!(ev[0]["error"]["code"], -32001);
    assert!(ev[0]["error"]["message"]
        .as_str()
        .unwrap()
        .to_lowercase()
        .contains("not found"));
    let r = h
        .rpc(
            json!({"jsonrpc": "2.0", "id": 4, "method": "message/stream", "params": {}}),
            None,
        )
        .await;
    assert_eq!(r.sse()[0]["error"]["code"], -32602);
}

#[tokio::test]
async fn resubscribe_to_running_and_finished_tasks() {
    let h = harness();
    let id = h.rpc(nonblocking("slow"), None).await.json()["result"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let h2 = Harness {
        state: h.state.clone(),
        db: h.db.clone(),
        clock: h.clock.clone(),
    };
    let id2 = id.clone();
    let sub = tokio::spawn(async move {
        h2.rpc(json!({"jsonrpc": "2.0", "id": 8, "method": "tasks/resubscribe", "params": {"id": id2}}), None).await
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    h.rpc(cancel(&id), None).await;
    let events = sub.await.unwrap().sse();
    assert_eq!(events[0]["result"]["kind"], "task");
    let last = &events.last().unwrap()["result"];
    assert_eq!(last["status"]["state"], "canceled");
    assert_eq!(last["final"], true);
    // A finished task: the task, then its final status.
    let r = h
        .rpc(
            json!({"jsonrpc": "2.0", "id": 8, "method": "tasks/resubscribe", "params": {"id": id}}),
            None,
        )
        .await;
    let ev = r.sse();
    assert_eq!(ev.len(), 2);
    assert_eq!(ev[1]["result"]["final"], true);
}

#[tokio::test]
async fn tasks_survive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let config = ServerConfig {
        anonymous: true,
        ..ServerConfig::default()
    };
    let id = {
        let state = AppState::open(config.clone(), registry(), dir.path()).unwrap();
        let h = Harness {
            state: state.clone(),
            db: Arc::new(SqliteStore::in_memory().unwrap()),
            clock: Arc::new(ecclesia_server::ManualClock::new(chrono::Utc::now())),
        };
        let id = h
            .rpc(
                send(Some("echo"), json!([{"kind": "text", "text": "keep me"}])),
                None,
            )
            .await
            .json()["result"]["id"]
            .as_str()
            .unwrap()
            .to_string();
        state.close();
        id
    };
    let state = AppState::open(config, registry(), dir.path()).unwrap();
    let h = Harness {
        state,
        db: Arc::new(SqliteStore::in_memory().unwrap()),
        clock: Arc::new(ecclesia_server::ManualClock::new(chrono::Utc::now())),
    };
    let t = h.rpc(get(&id), None).await.json();
    assert_eq!(t["result"]["status"]["state"], "completed");
    assert_eq!(t["result"]["artifacts"][0]["parts"][0]["text"], "keep me");
}

#[tokio::test]
async fn a_new_registry_is_swapped_in_while_running_tasks_finish_on_the_old_one() {
    let h = harness();
    let slow = {
        let mut b = send(Some("slow"), json!([{"kind": "text", "text": "x"}]));
        b["params"]["configuration"] = json!({"blocking": false});
        b
    };
    let r = h.rpc(slow, None).await;
    let id = r.json()["result"]["id"].as_str().unwrap().to_string();
    let old = std::sync::Arc::downgrade(&h.state.registry.load());
    let mut next = ecclesia_core::SkillRegistry::default();
    next.register(Echo);
    h.state.swap_registry(next);
    assert!(old.upgrade().is_none(), "the old registry is still held");
    let card = h.get("/.well-known/agent-card.json").await.json();
    let ids: Vec<&str> = card["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["echo"]);
    check_error(
        &h.rpc(
            send(Some("slow"), json!([{"kind": "text", "text": "x"}])),
            None,
        )
        .await,
        -32602,
        json!(1),
    );
    let r = h
        .rpc(
            send(Some("echo"), json!([{"kind": "text", "text": "hi"}])),
            None,
        )
        .await;
    assert_eq!(r.json()["result"]["status"]["state"], "completed");
    // The run that started before the swap is still there, on the old skill.
    let r = h
        .rpc(
            json!({"jsonrpc": "2.0", "id": 1, "method": "tasks/cancel", "params": {"id": id}}),
            None,
        )
        .await;
    assert_eq!(
        r.json()["result"]["status"]["state"],
        "canceled",
        "{}",
        r.text()
    );
    assert_eq!(h.get("/readyz").await.json()["registry_swaps"], 1);
}

#[tokio::test]
async fn the_reloader_swaps_in_what_the_check_returns() {
    let h = harness();
    let once = std::sync::atomic::AtomicBool::new(false);
    let reloader = h
        .state
        .spawn_reloader(std::time::Duration::from_millis(10), move || {
            if once.swap(true, std::sync::atomic::Ordering::SeqCst) {
                return None;
            }
            let mut r = ecclesia_core::SkillRegistry::default();
            r.register(Echo);
            Some(r)
        });
    let mut swaps = json!(0);
    for _ in 0..500 {
        swaps = h.get("/readyz").await.json()["registry_swaps"].clone();
        if swaps == 1 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert_eq!(swaps, 1);
    assert_eq!(h.state.registry.load().ids(), ["echo"]);
    h.state.shutdown();
    reloader.await.unwrap();
}

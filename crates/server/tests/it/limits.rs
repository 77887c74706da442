//! Rate limits: the send pool, the separate catholic_qa pool, headers, and
//! what is not counted.

use crate::support::*;
use ecclesia_server::ServerConfig;
use serde_json::json;

#[tokio::test]
async fn burst_past_the_pool_gets_429() {
    let h = harness_with(ServerConfig::default());
    let token = h.key("pro");
    let body = send(Some("echo"), json!([{"kind": "text", "text": "hi"}]));
    for i in 0..15 {
        let r = h.rpc(body.clone(), Some(&token)).await;
        assert_eq!(r.status, 200, "request {i}");
        assert_eq!(r.headers["ratelimit-limit"], "15");
        assert_eq!(
            r.headers["ratelimit-remaining"],
            (14 - i).to_string().as_str()
        );
    }
    let r = h.rpc(body.clone(), Some(&token)).await;
    assert_eq!(r.status, 429);
    let retry: u64 = r.headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry));
    assert!(r.headers.contains_key("ratelimit-reset"));
    assert_eq!(r.headers["ratelimit-remaining"], "0");
    let v = r.json();
    assert_eq!(v["error"]["code"], -32029);
    assert_eq!(v["id"], 1);
    assert_eq!(v["error"]["data"]["retry_after_seconds"], retry);
    assert_eq!(v["error"]["data"]["limit"], 15);
    // Another caller has its own pool.
    let other = h.key("pro");
    assert_eq!(h.rpc(body, Some(&other)).await.status, 200);
    let m = h.get("/metrics").await.text();
    assert!(m.contains("ecclesia_rate_limited_total"), "{m}");
}

#[tokio::test]
async fn catholic_qa_pool_is_separate_and_stricter() {
    let h = harness_with(ServerConfig::default());
    let token = h.key("pro");
    let qa = send(None, json!([{"kind": "text", "text": "What is grace?"}]));
    assert_eq!(h.rpc(qa.clone(), Some(&token)).await.status, 200);
    let r = h.rpc(qa.clone(), Some(&token)).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.headers["ratelimit-limit"], "2");
    let r = h.rpc(qa, Some(&token)).await;
    assert_eq!(r.status, 429);
    assert_eq!(r.json()["error"]["data"]["pool"], "catholic_qa");
    // Other skills still work: the send pool has 13 left.
    let r = h
        .rpc(
            send(Some("echo"), json!([{"kind": "text", "text": "hi"}])),
            Some(&token),
        )
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.headers["ratelimit-remaining"], "12");
}

#[tokio::test]
async fn tasks_get_and_cancel_are_not_counted() {
    let h = harness_with(ServerConfig::default());
    let token = h.key("pro");
    let r = h
        .rpc(
            send(Some("echo"), json!([{"kind": "text", "text": "hi"}])),
            Some(&token),
        )
        .await;
    let id = r.json()["result"]["id"].as_str().unwrap().to_string();
    for _ in 0..40 {
        let r = h
            .rpc(
                json!({"jsonrpc": "2.0", "id": 1, "method": "tasks/get", "params": {"id": id}}),
                Some(&token),
            )
            .await;
        assert_eq!(r.status, 200);
        assert!(!r.headers.contains_key("ratelimit-limit"));
    }
    let r = h
        .rpc(
            send(Some("echo"), json!([{"kind": "text", "text": "hi"}])),
            Some(&token),
        )
        .await;
    assert_eq!(r.headers["ratelimit-remaining"], "13");
}

#[tokio::test]
async fn anonymous_on_loopback_is_unlimited() {
    let h = harness();
    for _ in 0..30 {
        assert_eq!(
            h.rpc(
                send(Some("echo"), json!([{"kind": "text", "text": "hi"}])),
                None
            )
            .await
            .status,
            200
        );
    }
}

#[test]
fn anonymous_elsewhere_gets_pro_limits() {
    let c = ServerConfig {
        listen: "0.0.0.0:80".parse().unwrap(),
        anonymous: true,
        ..ServerConfig::default()
    };
    assert_eq!(c.anonymous_plan().send_per_minute, Some(15));
    let c = ServerConfig {
        anonymous: true,
        ..ServerConfig::default()
    };
    assert_eq!(c.anonymous_plan().send_per_minute, None);
}

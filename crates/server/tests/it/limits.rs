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
async fn anonymous_on_loopback_is_generous_not_unlimited() {
    let h = harness();
    for _ in 0..30 {
        let r = h
            .rpc(
                send(Some("echo"), json!([{"kind": "text", "text": "hi"}])),
                None,
            )
            .await;
        assert_eq!(r.status, 200);
        assert_eq!(r.headers["ratelimit-limit"], "1200");
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
    assert_eq!(c.anonymous_plan().send_per_minute, Some(1200));
    assert_eq!(c.anonymous_plan().qa_per_minute, Some(120));
}

#[tokio::test]
async fn rate_limited_metric_names_the_pool_that_refused() {
    let h = harness_with(ServerConfig::default());
    let token = h.key("pro");
    let qa = send(None, json!([{"kind": "text", "text": "What is grace?"}]));
    for _ in 0..3 {
        h.rpc(qa.clone(), Some(&token)).await;
    }
    let m = h.get("/metrics").await.text();
    assert!(
        m.contains("ecclesia_rate_limited_total{pool=\"catholic_qa\"} 1"),
        "{m}"
    );
    let echo = send(Some("echo"), json!([{"kind": "text", "text": "hi"}]));
    for _ in 0..15 {
        h.rpc(echo.clone(), Some(&token)).await;
    }
    let m = h.get("/metrics").await.text();
    assert!(
        m.contains("ecclesia_rate_limited_total{pool=\"message/send\"}"),
        "{m}"
    );
    assert!(!m.contains("pool=\"echo\""), "{m}");
}

#[tokio::test]
async fn full_queues_answer_busy_and_fast_skills_are_not_held_up() {
    let h = harness_with(ServerConfig {
        anonymous: true,
        slow_skills: vec!["slow".into()],
        max_concurrent_slow_skills: 1,
        slow_queue_limit: 3,
        slow_queue_per_caller: 2,
        ..ServerConfig::default()
    });
    let slow = |n: usize| {
        let mut b = send(
            Some("slow"),
            json!([{"kind": "text", "text": format!("s{n}")}]),
        );
        b["params"]["configuration"] = json!({"blocking": false});
        b
    };
    let mut ids = Vec::new();
    // One runs, two wait (the caller's share), the fourth is refused.
    for n in 0..3 {
        let r = h.rpc(slow(n), None).await;
        assert_eq!(r.status, 200, "{}", r.text());
        ids.push(r.json()["result"]["id"].as_str().unwrap().to_string());
    }
    let r = h.rpc(slow(3), None).await;
    assert_eq!(r.status, 503, "{}", r.text());
    let retry: u64 = r.headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry));
    let v = r.json();
    assert_eq!(v["error"]["code"], -32030, "{v}");
    assert_eq!(v["error"]["data"]["lane"], "slow");
    assert_eq!(v["error"]["data"]["caller_share"], true);
    assert_eq!(v["error"]["data"]["retry_after_seconds"], retry);
    // A look-up in the fast lane completes while the slow lane is full.
    let r = h
        .rpc(
            send(Some("echo"), json!([{"kind": "text", "text": "hi"}])),
            None,
        )
        .await;
    assert_eq!(r.json()["result"]["status"]["state"], "completed");
    let ready = h.get("/readyz").await.json();
    assert_eq!(ready["queues"]["slow"]["running"], 1, "{ready}");
    assert_eq!(ready["queues"]["slow"]["queued"], 2, "{ready}");
    // Canceling a waiting task frees its place at once.
    let cancel = |id: &str| json!({"jsonrpc": "2.0", "id": 1, "method": "tasks/cancel", "params": {"id": id}});
    let r = h.rpc(cancel(&ids[2]), None).await;
    assert_eq!(
        r.json()["result"]["status"]["state"],
        "canceled",
        "{}",
        r.text()
    );
    // (The run gives up its place as soon as it sees the cancel.)
    for _ in 0..250 {
        if h.get("/readyz").await.json()["queues"]["slow"]["queued"] == 1 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(h.get("/readyz").await.json()["queues"]["slow"]["queued"], 1);
    for id in &ids[..2] {
        h.rpc(cancel(id), None).await;
    }
}

//! Hostile and broken input: oversized, truncated, deeply nested, wrong
//! types, non-UTF-8, and many requests at once. No panic, no hang.

use crate::support::*;
use ecclesia_server::ServerConfig;
use serde_json::json;

#[tokio::test]
async fn oversized_body_is_refused() {
    let h = harness_with(ServerConfig {
        anonymous: true,
        body_limit: 1024,
        ..ServerConfig::default()
    });
    let big = "x".repeat(4096);
    let r = h
        .rpc(
            send(Some("echo"), json!([{"kind": "text", "text": big}])),
            None,
        )
        .await;
    assert_eq!(r.status, 413);
    assert_eq!(r.json()["error"]["code"], -32600);
    assert!(r.json()["error"]["message"]
        .as_str()
        .unwrap()
        .contains("1024"));
}

#[tokio::test]
async fn oversized_text_within_body_limit_is_invalid_params() {
    let h = harness();
    let big = "x".repeat(30_000);
    check_error(
        &h.rpc(
            send(Some("echo"), json!([{"kind": "text", "text": big}])),
            None,
        )
        .await,
        -32602,
        json!(1),
    );
}

#[tokio::test]
async fn truncated_and_non_utf8() {
    let h = harness();
    let full = serde_json::to_string(&send(Some("echo"), json!([{"kind": "text", "text": "hi"}])))
        .unwrap();
    for cut in [1, 10, full.len() / 2, full.len() - 1] {
        check_error(
            &h.raw(full[..cut].to_string(), None).await,
            -32700,
            json!(null),
        );
    }
    let mut bytes = full.clone().into_bytes();
    let pos = full.find("hi").unwrap();
    bytes[pos] = 0xff;
    bytes[pos + 1] = 0xfe;
    check_error(&h.raw(bytes, None).await, -32700, json!(null));
}

#[tokio::test]
async fn deep_nesting() {
    let h = harness();
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    check_error(&h.raw(deep, None).await, -32700, json!(null));
    let mut data = String::from("1");
    for _ in 0..100 {
        data = format!("{{\"a\":{data}}}");
    }
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"message/send","params":{{"message":{{"kind":"message","messageId":"m","role":"user","metadata":{{"skillId":"echo"}},"parts":[{{"kind":"data","data":{data}}}]}}}}}}"#
    );
    let r = h.raw(body, None).await;
    assert_eq!(r.status, 200);
}

#[tokio::test]
async fn wrong_types_in_every_field() {
    let h = harness();
    let base = send(Some("echo"), json!([{"kind": "text", "text": "hi"}]));
    let paths: &[(&[&str], serde_json::Value)] = &[
        (&["params", "message", "messageId"], json!(5)),
        (&["params", "message", "role"], json!(1)),
        (&["params", "message", "parts"], json!({})),
        (&["params", "message", "kind"], json!("task")),
        (&["params", "message", "taskId"], json!([1])),
        (&["params", "message", "contextId"], json!({})),
        (&["params", "message", "metadata"], json!("x")),
        (&["params", "configuration"], json!("x")),
        (&["params", "configuration", "blocking"], json!("yes")),
        (&["params", "configuration", "historyLength"], json!("3")),
        (&["params", "metadata"], json!(7)),
        (&["params", "message"], json!([])),
    ];
    for (path, bad) in paths {
        let mut b = base.clone();
        let mut cur = &mut b;
        for p in &path[..path.len() - 1] {
            if cur.get(*p).is_none() {
                cur[*p] = json!({});
            }
            cur = &mut cur[*p];
        }
        cur[path[path.len() - 1]] = bad.clone();
        let r = h.rpc(b, None).await;
        assert_eq!(r.json()["error"]["code"], -32602, "{path:?} = {bad}");
        check_error(&r, -32602, json!(1));
    }
    for part in [
        json!({"kind": "text"}),
        json!({"kind": "text", "text": 5}),
        json!({"kind": "file", "file": 3}),
        json!({"text": "no kind"}),
    ] {
        check_error(
            &h.rpc(send(Some("echo"), json!([part])), None).await,
            -32602,
            json!(1),
        );
    }
}

#[tokio::test]
async fn two_hundred_concurrent_requests() {
    let h = harness();
    let mut handles = Vec::new();
    for i in 0..200 {
        let h2 = Harness {
            state: h.state.clone(),
            db: h.db.clone(),
            clock: h.clock.clone(),
        };
        handles.push(tokio::spawn(async move {
            let r = match i % 4 {
                0 => h2.rpc(send(Some("echo"), json!([{"kind": "text", "text": format!("n{i}")}])), None).await,
                1 => h2.raw("{bad", None).await,
                2 => h2.rpc(json!({"jsonrpc": "2.0", "id": i, "method": "tasks/get", "params": {"id": "x"}}), None).await,
                _ => h2.rpc(send(Some("boom"), json!([{"kind": "text", "text": "x"}])), None).await,
            };
            (i, r.status, r.json())
        }));
    }
    let res = tokio::time::timeout(
        std::time::Duration::from_secs(60),
        futures::future::join_all(handles),
    )
    .await
    .expect("no hang");
    for r in res {
        let (i, status, v) = r.unwrap();
        assert_eq!(status, 200);
        match i % 4 {
            0 => assert_eq!(
                v["result"]["artifacts"][0]["parts"][0]["text"],
                format!("n{i}")
            ),
            1 => assert_eq!(v["error"]["code"], -32700),
            2 => assert_eq!(v["error"]["code"], -32001),
            _ => assert_eq!(v["result"]["status"]["state"], "failed"),
        }
    }
}

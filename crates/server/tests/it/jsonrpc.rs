//! Every JSON-RPC error case of the contract (code, id echo, HTTP 200), the
//! card, and the health endpoints.

use crate::support::*;
use serde_json::json;

#[tokio::test]
async fn parse_error_has_null_id() {
    let h = harness();
    check_error(&h.raw("{not json", None).await, -32700, json!(null));
    check_error(&h.raw("", None).await, -32700, json!(null));
}

#[tokio::test]
async fn invalid_requests() {
    let h = harness();
    // Wrong jsonrpc version: id echoed.
    check_error(
        &h.rpc(
            json!({"jsonrpc": "1.0", "id": 7, "method": "tasks/get"}),
            None,
        )
        .await,
        -32600,
        json!(7),
    );
    // Missing method: id echoed.
    check_error(
        &h.rpc(json!({"jsonrpc": "2.0", "id": "a"}), None).await,
        -32600,
        json!("a"),
    );
    // Method not a string.
    check_error(
        &h.rpc(json!({"jsonrpc": "2.0", "id": 3, "method": 5}), None)
            .await,
        -32600,
        json!(3),
    );
    // Id of an invalid type: null id.
    check_error(
        &h.rpc(
            json!({"jsonrpc": "2.0", "id": {"x": 1}, "method": "tasks/get"}),
            None,
        )
        .await,
        -32600,
        json!(null),
    );
    check_error(
        &h.rpc(
            json!({"jsonrpc": "2.0", "id": [1], "method": "tasks/get"}),
            None,
        )
        .await,
        -32600,
        json!(null),
    );
    // Batches and scalars.
    check_error(
        &h.rpc(
            json!([{"jsonrpc": "2.0", "id": 1, "method": "tasks/get"}]),
            None,
        )
        .await,
        -32600,
        json!(null),
    );
    check_error(&h.rpc(json!(42), None).await, -32600, json!(null));
}

#[tokio::test]
async fn unknown_method() {
    let h = harness();
    let r = h
        .rpc(
            json!({"jsonrpc": "2.0", "id": 9, "method": "foo/bar"}),
            None,
        )
        .await;
    check_error(&r, -32601, json!(9));
    assert!(r.json()["error"]["message"]
        .as_str()
        .unwrap()
        .contains("message/send"));
}

#[tokio::test]
async fn requests_without_id_still_get_replies() {
    let h = harness();
    check_error(
        &h.rpc(json!({"jsonrpc": "2.0", "method": "foo/bar"}), None)
            .await,
        -32601,
        json!(null),
    );
    check_error(
        &h.rpc(
            json!({"jsonrpc": "2.0", "method": "message/send", "params": {}}),
            None,
        )
        .await,
        -32602,
        json!(null),
    );
}

#[tokio::test]
async fn invalid_params_cases() {
    let h = harness();
    for params in [
        json!({}),
        json!({"": "x"}),
        json!({"message": {"parts": "invalid"}}),
        json!({"message": {"kind": "message"}}),
        json!({"message": {"kind": "message", "messageId": "m", "role": "user", "parts": []}}),
        json!({"message": {"kind": "message", "messageId": "m", "role": "agent", "parts": [{"kind": "text", "text": "x"}]}}),
        json!({"message": {"kind": "message", "messageId": "m", "role": "user", "parts": [{"kind": "data", "data": [1, 2]}]}}),
        json!("a string"),
        json!(null),
    ] {
        let r = h
            .rpc(
                json!({"jsonrpc": "2.0", "id": "p", "method": "message/send", "params": params}),
                None,
            )
            .await;
        check_error(&r, -32602, json!("p"));
    }
    check_error(
        &h.rpc(
            json!({"jsonrpc": "2.0", "id": 1, "method": "tasks/get", "params": {"id": 5}}),
            None,
        )
        .await,
        -32602,
        json!(1),
    );
    check_error(&h.rpc(json!({"jsonrpc": "2.0", "id": 1, "method": "tasks/get", "params": {"id": "x", "historyLength": -1}}), None).await, -32602, json!(1));
    check_error(
        &h.rpc(
            json!({"jsonrpc": "2.0", "id": 1, "method": "tasks/cancel"}),
            None,
        )
        .await,
        -32602,
        json!(1),
    );
}

#[tokio::test]
async fn unknown_skill_names_the_available_ones() {
    let h = harness();
    let r = h
        .rpc(
            send(Some("nope"), json!([{"kind": "text", "text": "x"}])),
            None,
        )
        .await;
    check_error(&r, -32602, json!(1));
    let msg = r.json()["error"]["message"].as_str().unwrap().to_string();
    assert!(msg.contains("echo") && msg.contains("catholic_qa"), "{msg}");
    let r = h.rpc(json!({"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": {"message": {"kind": "message", "messageId": "m", "role": "user", "parts": [{"kind": "text", "text": "x"}], "metadata": {"skillId": 3}}}}), None).await;
    check_error(&r, -32602, json!(1));
}

#[tokio::test]
async fn skill_parameter_errors_are_invalid_params() {
    let h = harness();
    let r = h
        .rpc(
            send(Some("echo"), json!([{"kind": "text", "text": "bad"}])),
            None,
        )
        .await;
    check_error(&r, -32602, json!(1));
    assert!(r.json()["error"]["message"]
        .as_str()
        .unwrap()
        .contains("must not be"));
}

#[tokio::test]
async fn duplicate_ids_each_get_a_reply() {
    let h = harness();
    for _ in 0..2 {
        let r = h
            .rpc(
                send(Some("echo"), json!([{"kind": "text", "text": "hi"}])),
                None,
            )
            .await;
        assert_eq!(r.json()["id"], 1);
        assert_eq!(r.json()["result"]["status"]["state"], "completed");
    }
}

#[tokio::test]
async fn unsupported_methods() {
    let h = harness();
    for m in [
        "tasks/pushNotificationConfig/set",
        "tasks/pushNotificationConfig/get",
        "tasks/pushNotificationConfig/list",
        "tasks/pushNotificationConfig/delete",
    ] {
        check_error(
            &h.rpc(
                json!({"jsonrpc": "2.0", "id": 2, "method": m, "params": {}}),
                None,
            )
            .await,
            -32003,
            json!(2),
        );
    }
    check_error(
        &h.rpc(
            json!({"jsonrpc": "2.0", "id": 2, "method": "agent/getAuthenticatedExtendedCard"}),
            None,
        )
        .await,
        -32004,
        json!(2),
    );
}

#[tokio::test]
async fn card_at_both_paths() {
    let h = harness();
    for path in ["/.well-known/agent-card.json", "/.well-known/agent.json"] {
        let r = h.get(path).await;
        assert_eq!(r.status, 200);
        assert_eq!(r.headers["cache-control"], "public, max-age=60");
        let c = r.json();
        assert_eq!(c["protocolVersion"], "0.3.0");
        assert_eq!(c["preferredTransport"], "JSONRPC");
        assert_eq!(c["url"], "http://127.0.0.1:8080/api/v1/a2a");
        assert_eq!(c["capabilities"]["streaming"], true);
        assert_eq!(c["capabilities"]["stateTransitionHistory"], true);
        let ids: Vec<&str> = c["skills"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["id"].as_str().unwrap())
            .collect();
        assert_eq!(ids, ["catholic_qa", "echo", "slow", "boom"]);
        for s in c["skills"].as_array().unwrap() {
            for f in [
                "id",
                "name",
                "description",
                "tags",
                "inputModes",
                "outputModes",
            ] {
                assert!(s.get(f).is_some(), "skill lacks {f}: {s}");
            }
        }
    }
}

#[tokio::test]
async fn health_ready_metrics() {
    let h = harness();
    assert_eq!(h.get("/healthz").await.status, 200);
    let r = h.get("/readyz").await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["status"], "ready");
    h.rpc(
        send(Some("echo"), json!([{"kind": "text", "text": "hi"}])),
        None,
    )
    .await;
    let m = h.get("/metrics").await.text();
    assert!(
        m.contains(
            "ecclesia_requests_total{method=\"message/send\",skill=\"echo\",outcome=\"ok\"} 1"
        ),
        "{m}"
    );
    assert!(m.contains("ecclesia_request_duration_seconds_count{method=\"message/send\"} 1"));
    assert!(m.contains("ecclesia_tasks_stored 1"));
}

#[tokio::test]
async fn ids_beyond_64_bits_are_echoed_exactly() {
    let h = harness();
    for id in [
        "-9223372036854775809",
        "18446744073709551616",
        "123456789012345678901234567890",
        "1.00000000000000000001",
        "9223372036854775807",
        "-1.5",
    ] {
        let body = format!(
            r#"{{"jsonrpc": "2.0", "id": {id}, "method": "tasks/get", "params": {{"id": "nope"}}}}"#
        );
        let r = h.raw(body, None).await;
        let text = r.text();
        assert!(
            text.contains(&format!("\"id\":{id},")) || text.contains(&format!("\"id\":{id}}}")),
            "id {id} not echoed exactly: {text}"
        );
        // An error before the method is known echoes it too.
        let body = format!(r#"{{"jsonrpc": "1.0", "id": {id}, "method": "tasks/get"}}"#);
        assert!(h
            .raw(body, None)
            .await
            .text()
            .contains(&format!("\"id\":{id}")));
    }
    // Streaming replies echo it in every event.
    let body = r#"{"jsonrpc": "2.0", "id": -9223372036854775809, "method": "message/stream", "params": {"message": {"kind": "message", "messageId": "m", "role": "user", "parts": [{"kind": "text", "text": "hi"}], "metadata": {"skillId": "echo"}}}}"#;
    let r = h.raw(body, None).await;
    assert!(
        r.text().lines().any(|l| l.starts_with("data: ")),
        "{}",
        r.text()
    );
    for l in r.text().lines().filter(|l| l.starts_with("data: ")) {
        assert!(l.contains("\"id\":-9223372036854775809"), "{l}");
    }
}

//! Authentication and plans: keys, revocation, the free plan, open endpoints.

use crate::support::*;
use ecclesia_server::{KeyStore, ServerConfig};
use serde_json::json;

fn keyed() -> Harness {
    harness_with(ServerConfig::default())
}

#[track_caller]
fn check_401(r: &Resp) {
    assert_eq!(r.status, 401, "{}", r.text());
    assert!(r.headers["www-authenticate"]
        .to_str()
        .unwrap()
        .starts_with("Bearer"));
}

#[tokio::test]
async fn no_key_wrong_key_revoked_key() {
    let h = keyed();
    let body = send(Some("echo"), json!([{"kind": "text", "text": "hi"}]));
    check_401(&h.rpc(body.clone(), None).await);
    check_401(&h.rpc(body.clone(), Some("ecc_wrong")).await);
    let token = h.key("pro");
    assert_eq!(
        h.rpc(body.clone(), Some(&token)).await.json()["result"]["status"]["state"],
        "completed"
    );
    let id = h.db.list_keys().unwrap()[0].id.clone();
    assert_eq!(h.db.revoke_key(&id).unwrap(), 1);
    check_401(&h.rpc(body, Some(&token)).await);
}

#[tokio::test]
async fn malformed_authorization_header() {
    let h = keyed();
    let body = send(Some("echo"), json!([{"kind": "text", "text": "hi"}]));
    let req = axum::http::Request::post("/api/v1/a2a")
        .header("authorization", "Basic abc")
        .body(axum::body::Body::from(serde_json::to_vec(&body).unwrap()))
        .unwrap();
    use tower::ServiceExt;
    let r = ecclesia_server::router(h.state.clone())
        .oneshot(req)
        .await
        .unwrap();
    assert_eq!(r.status(), 401);
}

#[tokio::test]
async fn free_plan_gets_plan_required() {
    let h = keyed();
    let token = h.key("free");
    let r = h
        .rpc(
            send(Some("echo"), json!([{"kind": "text", "text": "hi"}])),
            Some(&token),
        )
        .await;
    check_error(&r, -32005, json!(1));
    assert!(r.json()["error"]["message"]
        .as_str()
        .unwrap()
        .contains("PLAN_REQUIRED"));
}

#[tokio::test]
async fn only_the_hash_is_stored() {
    let h = keyed();
    let token = h.key("pro");
    assert!(token.starts_with("ecc_") && token.len() > 60);
    assert_eq!(h.db.verify(&token).unwrap().unwrap().plan, "pro");
    let dump: Vec<String> =
        h.db.list_keys()
            .unwrap()
            .iter()
            .map(|k| format!("{k:?}"))
            .collect();
    assert!(!dump.concat().contains(&token[4..]));
}

#[tokio::test]
async fn card_and_health_need_no_key() {
    let h = keyed();
    for p in [
        "/.well-known/agent-card.json",
        "/.well-known/agent.json",
        "/healthz",
        "/readyz",
        "/metrics",
    ] {
        assert_eq!(h.get(p).await.status, 200, "{p}");
    }
    let card = h.get("/.well-known/agent-card.json").await.json();
    assert_eq!(card["securitySchemes"]["bearer"]["scheme"], "bearer");
    assert_eq!(card["security"], json!([{"bearer": []}]));
}

#[tokio::test]
async fn anonymous_only_when_enabled() {
    let h = harness();
    let r = h
        .rpc(
            send(Some("echo"), json!([{"kind": "text", "text": "hi"}])),
            None,
        )
        .await;
    assert_eq!(r.json()["result"]["status"]["state"], "completed");
    // In anonymous mode a token that matches no key is served as anonymous (clients such as
    // the official openai one must send some key)...
    let r = h
        .rpc(
            send(Some("echo"), json!([{"kind": "text", "text": "hi"}])),
            Some("sk-anything"),
        )
        .await;
    assert_eq!(
        r.json()["result"]["status"]["state"],
        "completed",
        "{:?}",
        r.json()
    );
    // ...but a revoked key is still refused.
    let (key, token) = h.db.create_key("old", "pro").unwrap();
    assert_eq!(h.db.revoke_key(&key.id).unwrap(), 1);
    check_401(
        &h.rpc(
            send(Some("echo"), json!([{"kind": "text", "text": "hi"}])),
            Some(&token),
        )
        .await,
    );
}

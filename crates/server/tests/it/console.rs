//! The web console is mounted at `/` beside the API, and `console = false` removes it.

use crate::support::harness_with;
use axum::http::StatusCode;

#[tokio::test]
async fn the_console_is_served_at_the_root_unless_turned_off() {
    let on = harness_with(ecclesia_server::ServerConfig {
        anonymous: true,
        ..Default::default()
    });
    let r = on.get("/").await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.text().contains("<html"), "{}", r.text());
    // The API is still there.
    assert_eq!(on.get("/healthz").await.status, StatusCode::OK);
    let off = harness_with(ecclesia_server::ServerConfig {
        anonymous: true,
        console: false,
        ..Default::default()
    });
    assert_eq!(off.get("/").await.status, StatusCode::NOT_FOUND);
}

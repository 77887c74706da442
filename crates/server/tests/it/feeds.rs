//! `GET` feeds registered by the skills (the iCalendar feed is one): routed by path, public,
//! bad queries answered 400 with the feed's message.

use crate::support::harness;
use axum::http::StatusCode;

#[tokio::test]
async fn a_registered_feed_is_served_without_a_key() {
    let h = crate::support::harness_with(ecclesia_server::ServerConfig::default());
    let r = h.get("/letters.txt?n=3").await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.text(), "abc");
    assert_eq!(r.headers["content-type"], "text/plain; charset=utf-8");
    assert!(r.headers.contains_key("cache-control"));
}

#[tokio::test]
async fn a_bad_query_is_a_400_with_the_feeds_message() {
    let h = harness();
    let r = h.get("/letters.txt?n=99").await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert_eq!(r.text(), "n: at most 26");
    let r = h.get("/letters.txt?n=%ZZ").await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn an_unregistered_path_is_404() {
    let h = harness();
    assert_eq!(h.get("/calendar.ics").await.status, StatusCode::NOT_FOUND);
}

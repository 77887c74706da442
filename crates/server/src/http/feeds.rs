//! `GET` documents the skills provide beside the JSON-RPC endpoint (the iCalendar feed at
//! `/calendar.ics`): routed by path, rendered by the domain on a blocking thread.
//!
//! Feeds are public, like the agent card: calendar apps subscribe by URL and send no bearer
//! key. Each request is bounded by the feed (the calendar feed: at most three years).

use crate::core::state::AppState;
use axum::extract::{Query, State};
use axum::http::{header, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use ecclesia_core::SkillError;
use std::collections::BTreeMap;

fn plain(status: StatusCode, message: String) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        message,
    )
        .into_response()
}

/// Serve the feed registered at the request's path.
pub(crate) async fn feed_handler(
    State(state): State<AppState>,
    uri: Uri,
    Query(query): Query<BTreeMap<String, String>>,
) -> Response {
    let registry = state.registry.load();
    let Some(feed) = registry
        .feeds()
        .iter()
        .find(|f| f.path() == uri.path())
        .cloned()
    else {
        return plain(StatusCode::NOT_FOUND, "no such feed".into());
    };
    let content_type = feed.content_type();
    match tokio::task::spawn_blocking(move || feed.render(&query)).await {
        Ok(Ok(body)) => (
            [
                (header::CONTENT_TYPE, content_type),
                (header::CACHE_CONTROL, "public, max-age=3600"),
            ],
            body,
        )
            .into_response(),
        Ok(Err(SkillError::InvalidParams(m))) => plain(StatusCode::BAD_REQUEST, m),
        Ok(Err(SkillError::Unavailable(m))) => plain(StatusCode::SERVICE_UNAVAILABLE, m),
        Ok(Err(e)) => {
            tracing::error!(path = %uri.path(), "feed failed: {e}");
            plain(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the feed could not be made".into(),
            )
        }
        Err(e) => {
            tracing::error!(path = %uri.path(), "feed task failed: {e}");
            plain(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the feed could not be made".into(),
            )
        }
    }
}

//! Server-Sent Events: a task's events as an SSE response, each written by the protocol
//! that streams it (0.3 JSON-RPC results, 1.0 wrapped `StreamResponse`s, or bare ones).

use crate::core::bus::EventStream;
use axum::http::HeaderMap;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use ecclesia_a2a::StreamEvent;
use futures::StreamExt;
use std::convert::Infallible;

/// `first`, then every event of `events` (up to the final status) written by `encode`.
pub(crate) fn events(
    first: Option<Event>,
    events: EventStream,
    encode: impl Fn(&StreamEvent) -> Event + Send + 'static,
    headers: HeaderMap,
) -> Response {
    let stream = futures::stream::iter(first)
        .chain(events.map(move |ev| encode(ev.as_ref())))
        .map(Ok::<Event, Infallible>);
    let mut resp = Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response();
    resp.headers_mut().extend(headers);
    resp
}

/// A stream of one event (a streaming method's error).
pub(crate) fn single(event: Event, headers: HeaderMap) -> Response {
    let stream = futures::stream::iter([Ok::<Event, Infallible>(event)]);
    let mut resp = Sse::new(stream).into_response();
    resp.headers_mut().extend(headers);
    resp
}

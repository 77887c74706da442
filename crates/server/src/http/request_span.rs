//! The front door of every request, whichever front-end serves it: one request id (the
//! caller's `X-Request-Id` when it is a sane token, else a new one), one tracing span
//! (`request`, with the id) around everything that runs for it, the id
//! echoed in the response's `X-Request-Id`, and one log line for requests that no front-end
//! logged itself: refusals before any handler ran (an unknown path, a wrong method, a body
//! too large), and every request of a front-end without its own line (MCP, the OpenAI API,
//! the console, feeds). A front-end that writes its own, richer line (A2A: method, caller,
//! outcome) marks its response with [`Logged`].

use crate::core::request;
use axum::extract::Request;
use axum::http::{HeaderName, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;
use std::time::Instant;
use tracing::Instrument;

/// `X-Request-Id`.
pub(crate) static REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// The longest caller-given request id kept (a longer one is replaced).
const MAX_ID: usize = 64;

/// A response extension: its handler has written the request's log line.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Logged;

/// The caller's id when it is 1–64 characters of `[A-Za-z0-9._-]`.
fn given_id(req: &Request) -> Option<String> {
    let v = req.headers().get(&REQUEST_ID)?.to_str().ok()?;
    let sane = !v.is_empty()
        && v.len() <= MAX_ID
        && v.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'));
    sane.then(|| v.to_string())
}

/// The middleware (see the module's documentation).
pub(crate) async fn request_span(req: Request, next: Next) -> Response {
    let started = Instant::now();
    let id = given_id(&req).unwrap_or_else(request::new_id);
    let method = req.method().clone();
    // The path is only written when this layer logs: keep the URI (a shared buffer), not a copy.
    let uri = req.uri().clone();
    // The id alone in the span (formatted once per request by the log subscriber); the method
    // and path go only into the lines this layer writes.
    let span = tracing::info_span!("request", request_id = %id);
    let mut response = request::scope(id.clone(), next.run(req))
        .instrument(span.clone())
        .await;
    if let Ok(v) = HeaderValue::from_str(&id) {
        response.headers_mut().insert(REQUEST_ID.clone(), v);
    }
    if response.extensions().get::<Logged>().is_none() {
        let status = response.status().as_u16();
        let elapsed_ms = started.elapsed().as_millis() as u64;
        let _entered = span.enter();
        if status >= 400 {
            tracing::info!(http.method = %method, http.path = %uri.path(), status, elapsed_ms, "request");
        } else {
            tracing::debug!(http.method = %method, http.path = %uri.path(), status, elapsed_ms, "request");
        }
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;

    fn with_id(v: &str) -> Request {
        axum::http::Request::builder()
            .header("x-request-id", v)
            .body(Body::empty())
            .unwrap()
    }

    #[test]
    fn a_sane_caller_id_is_kept_and_others_are_not() {
        assert_eq!(
            given_id(&with_id("abc-1.2_3")).as_deref(),
            Some("abc-1.2_3")
        );
        assert_eq!(given_id(&with_id("a b")), None);
        assert_eq!(given_id(&with_id(&"x".repeat(65))), None);
        assert_eq!(given_id(&with_id("<script>")), None);
    }
}

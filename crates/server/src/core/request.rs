//! The id of the request being served: set once per request by the front door
//! (`http::request_span`, which also opens the request's tracing span) and read wherever the
//! core needs it (an internal error's reference, a log line), instead of each front-end
//! making its own.

use std::future::Future;

tokio::task_local! {
    static REQUEST_ID: String;
}

/// Run `fut` as the request `id`.
pub async fn scope<F: Future>(id: String, fut: F) -> F::Output {
    REQUEST_ID.scope(id, fut).await
}

/// The current request's id; a new one outside a request (a background job, a test, a
/// spawned task, which does not inherit it).
pub fn id() -> String {
    REQUEST_ID
        .try_with(Clone::clone)
        .unwrap_or_else(|_| new_id())
}

/// A fresh id (32 hex digits).
pub fn new_id() -> String {
    uuid::Uuid::new_v4().simple().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_scoped_id_is_seen_inside_and_a_new_one_outside() {
        let inside = scope("req-1".into(), async { id() }).await;
        assert_eq!(inside, "req-1");
        let outside = id();
        assert_eq!(outside.len(), 32);
        assert_ne!(outside, id(), "a new id each time outside a request");
    }
}

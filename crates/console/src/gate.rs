//! The hook through which the deployment applies its keys, plans and rate
//! limits to the console: every page that runs a skill asks the [`Gate`]
//! first. The console itself keeps no keys; without a gate every page view is
//! admitted (the console then relies on `max_concurrent` and the deadline).

use axum::http::{HeaderMap, StatusCode};
use futures::future::BoxFuture;

/// Why a page view was refused.
#[derive(Debug, Clone)]
pub struct Refusal {
    /// 401, 403 or 429.
    pub status: StatusCode,
    /// Shown to the person (escaped).
    pub message: String,
    /// Seconds before a retry may succeed (429), sent as `Retry-After`.
    pub retry_after: Option<u64>,
}

/// Admits or refuses page views that run skills.
pub trait Gate: Send + Sync {
    /// One page view that runs `skill` (once per page, however many calls it
    /// makes) for the request carrying `headers`. Asynchronous: a key store or a
    /// rate limiter that waits on I/O does it off the async workers.
    fn admit<'a>(
        &'a self,
        skill: &'a str,
        headers: &'a HeaderMap,
    ) -> BoxFuture<'a, Result<(), Refusal>>;
}

impl<F> Gate for F
where
    F: Fn(&str, &HeaderMap) -> Result<(), Refusal> + Send + Sync,
{
    fn admit<'a>(
        &'a self,
        skill: &'a str,
        headers: &'a HeaderMap,
    ) -> BoxFuture<'a, Result<(), Refusal>> {
        Box::pin(std::future::ready(self(skill, headers)))
    }
}

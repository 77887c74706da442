//! The web console's pages go through the same keys, plans and rate limits as the API: a page
//! that runs a skill is one `message/send` (and, for `catholic_qa`, one request of its
//! stricter pool) for its caller. A page with a bearer key counts for that key; a page
//! without one (a person in a browser) counts in one shared `console` pool under the
//! `anonymous` plan's limits, whether or not anonymous API access is on — the console is
//! public reading, bounded, and `--no-console` turns it off.
//!
//! The gate admits the page as a [`Visitor`] carrying a [`PageCaller`]: the caller it found,
//! whose pools it has just drawn. The page's skill calls go through the core with it
//! ([`crate::console_runner`]): each is a task in its lane, under the deadline, counted in
//! the metrics, but draws no pool again, so that a month page (about 31 calls) is never
//! refused halfway.

use crate::console_runner::PageCaller;
use crate::core::callers::Caller;
use crate::core::plans;
use crate::core::state::AppState;
use axum::http::{header, HeaderMap, StatusCode};
use ecclesia_console::{Gate, Refusal, Visitor};
use futures::future::BoxFuture;
use std::time::Instant;

/// The gate over the server's key store and rate limiter.
pub(crate) struct ConsoleGate {
    pub(crate) state: AppState,
}

fn refuse(status: StatusCode, message: impl Into<String>, retry_after: Option<u64>) -> Refusal {
    Refusal {
        status,
        message: message.into(),
        retry_after,
    }
}

impl Gate for ConsoleGate {
    fn admit<'a>(
        &'a self,
        skill: &'a str,
        headers: &'a HeaderMap,
    ) -> BoxFuture<'a, Result<Visitor, Refusal>> {
        Box::pin(self.admit_now(skill, headers))
    }
}

impl ConsoleGate {
    /// The key (checked on a blocking thread: the key store may wait on its database),
    /// the plan, then the rate-limit pools of one page view; the page's visitor.
    async fn admit_now(&self, skill: &str, headers: &HeaderMap) -> Result<Visitor, Refusal> {
        let token = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|h| h.split_once(' '))
            .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
            .map(|(_, t)| t.trim().to_string())
            .filter(|t| !t.is_empty());
        let caller = match token {
            Some(t) => match verify(&self.state, t).await {
                Ok(Some(key)) => Caller {
                    plan: self.state.config.plan(&key.plan),
                    id: key.id,
                    plan_name: key.plan,
                },
                Ok(None) => {
                    return Err(refuse(
                        StatusCode::UNAUTHORIZED,
                        "the API key is invalid or revoked",
                        None,
                    ))
                }
                Err(e) => {
                    tracing::error!("console key check failed: {e}");
                    return Err(refuse(
                        StatusCode::SERVICE_UNAVAILABLE,
                        "the key store is not available; try again shortly",
                        Some(5),
                    ));
                }
            },
            None => Caller {
                id: "console".into(),
                plan_name: "anonymous".into(),
                plan: self.state.config.anonymous_plan(),
            },
        };
        if !caller.plan.a2a {
            return Err(refuse(
                StatusCode::FORBIDDEN,
                "this key's plan does not include skill calls",
                None,
            ));
        }
        let registry = self.state.registry.load();
        let extra = registry.get(skill).and_then(|s| s.extra_pool());
        let pools = plans::pools(&caller.id, &caller.plan, extra);
        match self.state.limiter.acquire(&pools, Instant::now()).await {
            Some(d) if d.unavailable => {
                let retry = d.reset_secs;
                let e = crate::core::errors::ServerError::rate_refused(d);
                Err(refuse(e.http_status(), e.message(), Some(retry)))
            }
            Some(d) if !d.allowed => {
                self.state.metrics.rate_limited(&d.pool);
                Err(refuse(
                    StatusCode::TOO_MANY_REQUESTS,
                    format!(
                        "too many requests: {} a minute for {}; try again in {} s",
                        d.limit, d.pool, d.reset_secs
                    ),
                    Some(d.reset_secs),
                ))
            }
            _ => Ok(Visitor::with_admission(
                caller.id.clone(),
                PageCaller::counted(caller),
            )),
        }
    }
}

async fn verify(state: &AppState, token: String) -> Result<Option<crate::ApiKey>, String> {
    let keys = state.keys.clone();
    tokio::task::spawn_blocking(move || keys.verify(&token))
        .await
        .map_err(|e| e.to_string())?
        .map_err(|e| e.to_string())
}

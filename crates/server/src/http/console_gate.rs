//! The web console's pages go through the same keys, plans and rate limits as the API: a page
//! that runs a skill is one `message/send` (and, for `catholic_qa`, one request of its
//! stricter pool) for its caller. A page with a bearer key counts for that key; a page
//! without one (a person in a browser) counts in one shared `console` pool under the
//! `anonymous` plan's limits, whether or not anonymous API access is on — the console is
//! public reading, bounded, and `--no-console` turns it off.

use crate::core::plans;
use crate::core::state::AppState;
use axum::http::{header, HeaderMap, StatusCode};
use ecclesia_console::{Gate, Refusal};
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
    ) -> BoxFuture<'a, Result<(), Refusal>> {
        Box::pin(self.admit_now(skill, headers))
    }
}

impl ConsoleGate {
    /// The key (checked on a blocking thread: the key store may wait on its database),
    /// the plan, then the rate-limit pools of one page view.
    async fn admit_now(&self, skill: &str, headers: &HeaderMap) -> Result<(), Refusal> {
        let token = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|h| h.split_once(' '))
            .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
            .map(|(_, t)| t.trim().to_string())
            .filter(|t| !t.is_empty());
        let (caller, plan) = match token {
            Some(t) => match verify(&self.state, t).await {
                Ok(Some(key)) => (key.id, self.state.config.plan(&key.plan)),
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
            None => ("console".to_string(), self.state.config.anonymous_plan()),
        };
        if !plan.a2a {
            return Err(refuse(
                StatusCode::FORBIDDEN,
                "this key's plan does not include skill calls",
                None,
            ));
        }
        let registry = self.state.registry.load();
        let extra = registry.get(skill).and_then(|s| s.extra_pool());
        let pools = plans::pools(&caller, &plan, extra);
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
            _ => Ok(()),
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

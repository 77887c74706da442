//! [`Runner`]: how a tool call reaches a skill.
//!
//! Over HTTP the call is sent in-process to the A2A endpoint of the same
//! server (`message/send` on `ecclesia_server::router`), with the caller's
//! `Authorization` header and address, so that keys, plans, lanes, the shared
//! rate-limit pool (and `catholic_qa`'s stricter one), tasks and metrics are
//! exactly those of A2A. Over stdio there is one local user: the skill runs on
//! a blocking thread with the server's default timeout and no rate limit.

use crate::error::RunError;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{header, HeaderValue, Request, StatusCode};
use ecclesia_a2a::{error_codes as codes, Artifact, Part};
use ecclesia_core::{SkillContext, SkillError, SkillRegistry, SkillRequest};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;
use tower::ServiceExt;

/// Largest A2A reply read back from the in-process call (a full document or
/// a 100-result search fits many times over).
const MAX_REPLY_BYTES: usize = 32 * 1024 * 1024;

/// Who is calling, as the HTTP layer saw it (forwarded to A2A unchanged).
#[derive(Debug, Clone, Default)]
pub struct CallerAuth {
    /// The request's `Authorization` header.
    pub authorization: Option<HeaderValue>,
    /// The peer address (anonymous callers are limited per address).
    pub peer: Option<SocketAddr>,
}

/// Where skills run.
#[derive(Clone)]
pub enum Runner {
    /// In this process, straight on the registry (stdio, tests).
    Local {
        /// The skills.
        registry: Arc<SkillRegistry>,
        /// Deadline of one run.
        timeout: Duration,
    },
    /// Through the server's A2A endpoint, in-process.
    Server {
        /// The server's state (registry, keys, limiter, lanes).
        state: ecclesia_server::AppState,
        /// `ecclesia_server::router(state)`, built once.
        app: axum::Router,
    },
}

impl std::fmt::Debug for Runner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Runner::Local { registry, timeout } => f
                .debug_struct("Local")
                .field("skills", &registry.ids())
                .field("timeout", timeout)
                .finish(),
            Runner::Server { .. } => f.write_str("Server"),
        }
    }
}

impl Runner {
    /// Skills run in this process with `timeout` each.
    pub fn local(registry: SkillRegistry, timeout: Duration) -> Self {
        Runner::Local {
            registry: Arc::new(registry),
            timeout,
        }
    }

    /// Skills run through `state`'s A2A endpoint.
    pub fn server(state: ecclesia_server::AppState) -> Self {
        let app = ecclesia_server::router(state.clone());
        Runner::Server { state, app }
    }

    /// Whether a skill with this id is offered now.
    pub fn has_skill(&self, id: &str) -> bool {
        match self {
            Runner::Local { registry, .. } => registry.get(id).is_some(),
            Runner::Server { state, .. } => state.registry.load().get(id).is_some(),
        }
    }

    /// Run `skill` on `parts` for `auth`.
    pub async fn run(
        &self,
        skill: &str,
        parts: Vec<Part>,
        auth: &CallerAuth,
    ) -> Result<Vec<Artifact>, RunError> {
        match self {
            Runner::Local { registry, timeout } => {
                run_local(registry.clone(), *timeout, skill, parts).await
            }
            Runner::Server { app, .. } => run_a2a(app.clone(), skill, parts, auth).await,
        }
    }
}

async fn run_local(
    registry: Arc<SkillRegistry>,
    timeout: Duration,
    skill_id: &str,
    parts: Vec<Part>,
) -> Result<Vec<Artifact>, RunError> {
    let Some(skill) = registry.get(skill_id).cloned() else {
        return Err(RunError::Failed(format!(
            "the skill {skill_id} is not available (is the store ingested?)"
        )));
    };
    let req = SkillRequest::from_parts(&parts).map_err(skill_error)?;
    let ctx = SkillContext::new(timeout, Arc::new(AtomicBool::new(false)));
    let out = tokio::task::spawn_blocking(move || skill.run(&req, &ctx))
        .await
        .map_err(|e| {
            tracing::error!(error = %e, skill = skill_id, "skill run panicked");
            RunError::Failed("internal error".into())
        })?;
    out.map_err(skill_error)
}

fn skill_error(e: SkillError) -> RunError {
    match e {
        SkillError::InvalidParams(m) => RunError::InvalidParams(m),
        SkillError::Unavailable(m) => RunError::Failed(m),
        SkillError::Canceled => RunError::Failed("the call timed out or was canceled".into()),
        SkillError::Internal(m) => {
            tracing::error!(error = %m, "skill failed");
            RunError::Failed("internal error".into())
        }
    }
}

async fn run_a2a(
    app: axum::Router,
    skill: &str,
    parts: Vec<Part>,
    auth: &CallerAuth,
) -> Result<Vec<Artifact>, RunError> {
    let body = json!({
        "jsonrpc": "2.0",
        "id": 1,
        "method": "message/send",
        "params": {"message": {
            "kind": "message",
            "role": "user",
            "messageId": message_id(),
            "parts": parts,
            "metadata": {"skillId": skill},
        }},
    });
    let mut req = Request::post("/api/v1/a2a")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .map_err(|e| RunError::Failed(format!("internal error: {e}")))?;
    if let Some(a) = &auth.authorization {
        req.headers_mut().insert(header::AUTHORIZATION, a.clone());
    }
    if let Some(peer) = auth.peer {
        req.extensions_mut().insert(ConnectInfo(peer));
    }
    let resp = app
        .oneshot(req)
        .await
        .map_err(|e| RunError::Failed(format!("internal error: {e}")))?;
    let status = resp.status();
    let bytes = axum::body::to_bytes(resp.into_body(), MAX_REPLY_BYTES)
        .await
        .map_err(|e| RunError::Failed(format!("the answer could not be read: {e}")))?;
    let v: Value = serde_json::from_slice(&bytes)
        .map_err(|e| RunError::Failed(format!("the answer is not JSON: {e}")))?;
    a2a_outcome(status, v)
}

/// The artifacts of an A2A `message/send` reply, or why there are none.
pub fn a2a_outcome(status: StatusCode, v: Value) -> Result<Vec<Artifact>, RunError> {
    if let Some(err) = v.get("error") {
        let message = err
            .get("message")
            .and_then(Value::as_str)
            .unwrap_or("the call failed")
            .to_string();
        let code = err.get("code").and_then(Value::as_i64).unwrap_or(0);
        return Err(match code {
            codes::INVALID_PARAMS => RunError::InvalidParams(message),
            codes::RATE_LIMITED => RunError::RateLimited {
                message,
                retry_after_secs: err
                    .pointer("/data/retry_after_seconds")
                    .and_then(Value::as_u64),
            },
            codes::PLAN_REQUIRED => RunError::NotAllowed(message),
            -32000 if status == StatusCode::UNAUTHORIZED => RunError::NotAllowed(message),
            codes::SERVER_BUSY => RunError::Busy(message),
            _ => RunError::Failed(message),
        });
    }
    let task = v
        .get("result")
        .ok_or_else(|| RunError::Failed("the answer holds neither a result nor an error".into()))?;
    let state = task
        .pointer("/status/state")
        .and_then(Value::as_str)
        .unwrap_or("unknown");
    if state != "completed" {
        let why: Vec<&str> = task
            .pointer("/status/message/parts")
            .and_then(Value::as_array)
            .map(|ps| {
                ps.iter()
                    .filter_map(|p| p.get("text").and_then(Value::as_str))
                    .collect()
            })
            .unwrap_or_default();
        let why = if why.is_empty() {
            format!("the task ended {state}")
        } else {
            why.join(" ")
        };
        return Err(RunError::Failed(why));
    }
    let artifacts = task
        .get("artifacts")
        .cloned()
        .unwrap_or(Value::Array(vec![]));
    serde_json::from_value(artifacts)
        .map_err(|e| RunError::Failed(format!("the artifacts could not be read: {e}")))
}

/// A unique message id for an in-process A2A call.
pub(crate) fn message_id() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    format!("mcp-{t:x}-{}", N.fetch_add(1, Ordering::Relaxed))
}

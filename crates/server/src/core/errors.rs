//! [`ServerError`]: every way the core refuses or fails a request, in one type. Each
//! protocol encodes it once: A2A 0.3 JSON-RPC codes (`a2a_v03::errors`), A2A 1.0 codes with
//! `ErrorInfo` and the REST problem details (`a2a_v1::errors`). The HTTP status and headers
//! that travel with an error (429 and `Retry-After` for rate limits, 503 and `Retry-After`
//! for a full lane or an unreachable rate-limit store) are the core's, the same in every
//! protocol.

use crate::core::limits::RateDecision;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use ecclesia_a2a::TaskState;
use ecclesia_core::SkillError;
use serde_json::{json, Value};

/// Why a request was refused or failed.
#[derive(Debug, Clone, PartialEq)]
pub enum ServerError {
    /// The body is not JSON (JSON-RPC front-ends).
    Parse(String),
    /// Not a valid request envelope.
    InvalidRequest(String),
    /// No such method.
    MethodNotFound(String),
    /// Bad parameters: what is wrong, and data for the caller (the skills available …).
    InvalidParams {
        /// What is wrong.
        message: String,
        /// Machine-readable detail.
        data: Option<Value>,
    },
    /// No task with this id for this caller (or it expired).
    TaskNotFound(String),
    /// The task has finished (or is finishing) and cannot be canceled.
    TaskNotCancelable {
        /// The task.
        id: String,
        /// Its state.
        state: TaskState,
    },
    /// A message names a task that has finished.
    TaskFinished {
        /// The task.
        id: String,
        /// Its state.
        state: TaskState,
    },
    /// A message names a task that is still running (our tasks never wait for input).
    TaskStillWorking(String),
    /// The caller's plan does not include A2A.
    PlanRequired(String),
    /// A rate-limit pool is empty.
    RateLimited(RateDecision),
    /// The shared rate limiter's store (Redis) cannot be reached and the server fails closed:
    /// limited calls are refused until it answers again.
    LimiterUnavailable {
        /// Seconds until the server asks the store again.
        retry_after: u64,
    },
    /// The skill's lane (or the caller's share of it) is full.
    Busy {
        /// Seconds to wait.
        retry_after: u64,
        /// What is full.
        message: String,
        /// Lane, queue and limits.
        data: Value,
    },
    /// No push-notification config with this id on this task.
    PushConfigNotFound {
        /// The task.
        task_id: String,
        /// The config.
        id: String,
    },
    /// Push notifications are turned off on this server.
    PushNotSupported,
    /// A method this agent does not offer (the extended card).
    UnsupportedOperation(String),
    /// Every part of the message is of a media type the agent does not accept.
    ContentTypeNotSupported(String),
    /// A skill cannot serve now (before any task exists).
    Unavailable(String),
    /// Something broke inside; logged with the request id, which is all the caller sees.
    Internal {
        /// The request id to quote.
        request_id: String,
    },
}

impl ServerError {
    /// Bad parameters.
    pub fn invalid_params(message: impl Into<String>) -> Self {
        ServerError::InvalidParams {
            message: message.into(),
            data: None,
        }
    }

    /// An internal failure: logged with `request_id` and its cause.
    pub fn internal(request_id: &str, cause: impl std::fmt::Display) -> Self {
        tracing::error!(request_id, error = %cause, "internal error");
        ServerError::Internal {
            request_id: request_id.to_string(),
        }
    }

    /// The one mapping of a refusing [`RateDecision`]: 429 when a pool is empty, 503 when
    /// the limiter cannot count.
    pub fn rate_refused(d: RateDecision) -> Self {
        if d.unavailable {
            ServerError::LimiterUnavailable {
                retry_after: d.reset_secs.max(1),
            }
        } else {
            ServerError::RateLimited(d)
        }
    }

    /// The one mapping of a [`SkillError`] raised before a task exists (decoding the parts).
    /// After a task exists, the same error ends it instead (see `core::tasks::finish`).
    pub fn from_skill(e: SkillError, request_id: &str) -> Self {
        match e {
            SkillError::InvalidParams(m) => Self::invalid_params(m),
            SkillError::Unavailable(m) => ServerError::Unavailable(m),
            SkillError::Canceled => ServerError::Unavailable("the task was canceled".into()),
            SkillError::Internal(m) => Self::internal(request_id, m),
        }
    }

    /// The message shown to the caller (the same text in every protocol).
    pub fn message(&self) -> String {
        match self {
            ServerError::Parse(m) => format!("Invalid JSON payload: {m}"),
            ServerError::InvalidRequest(m)
            | ServerError::MethodNotFound(m)
            | ServerError::InvalidParams { message: m, .. }
            | ServerError::UnsupportedOperation(m)
            | ServerError::Unavailable(m)
            | ServerError::Busy { message: m, .. } => m.clone(),
            ServerError::TaskNotFound(id) => format!("Task not found: {id}"),
            ServerError::TaskNotCancelable { id, state } => format!(
                "Task cannot be canceled: task {id} is already {}",
                state.as_str()
            ),
            ServerError::TaskFinished { id, state } => format!(
                "Task {id} is in terminal state: {}; send a new message without taskId (the same contextId may be kept) to start a new task",
                state.as_str()
            ),
            ServerError::TaskStillWorking(id) => format!(
                "Task {id} is still working; wait for it (tasks/get) or cancel it before sending more"
            ),
            ServerError::PlanRequired(plan) => format!(
                "PLAN_REQUIRED: the {plan} plan does not include A2A access; ask the operator for a key on a paid plan"
            ),
            ServerError::RateLimited(d) => format!(
                "rate limit exceeded: {} requests a minute for {}; retry in {} s",
                d.limit, d.pool, d.reset_secs
            ),
            ServerError::LimiterUnavailable { retry_after } => format!(
                "rate-limit store unavailable: the shared rate limiter (Redis) cannot be reached, \
                 so calls on limited plans are refused for now (the server fails closed); retry in \
                 {retry_after} s. Operators: check [limits] url, or set [limits] on_outage = \"open\" \
                 to let calls through unlimited during an outage"
            ),
            ServerError::PushConfigNotFound { task_id, id } => format!(
                "no push notification config {id:?} on task {task_id}"
            ),
            ServerError::PushNotSupported => "Push Notification is not supported".into(),
            ServerError::ContentTypeNotSupported(m) => format!("Incompatible content types: {m}"),
            ServerError::Internal { request_id } => {
                format!("Internal error (request id {request_id})")
            }
        }
    }

    /// Machine-readable detail (0.3 `error.data`; 1.0 `ErrorInfo.metadata`).
    pub fn data(&self) -> Option<Value> {
        match self {
            ServerError::InvalidParams { data, .. } => data.clone(),
            ServerError::PlanRequired(plan) => Some(json!({ "plan": plan })),
            ServerError::RateLimited(d) => Some(json!({
                "retry_after_seconds": d.reset_secs, "limit": d.limit, "pool": d.pool
            })),
            ServerError::Busy { data, .. } => Some(data.clone()),
            ServerError::LimiterUnavailable { retry_after } => Some(json!({
                "retry_after_seconds": retry_after, "reason": "rate_limit_store_unavailable"
            })),
            _ => None,
        }
    }

    /// The HTTP status the error travels with on JSON-RPC (200 unless the server is
    /// refusing for load); REST derives its own from the error's kind when this is 200.
    pub fn http_status(&self) -> StatusCode {
        match self {
            ServerError::RateLimited(_) => StatusCode::TOO_MANY_REQUESTS,
            ServerError::Busy { .. } | ServerError::LimiterUnavailable { .. } => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            _ => StatusCode::OK,
        }
    }

    /// Headers the error travels with (`Retry-After`, `RateLimit-*`).
    pub fn headers(&self) -> HeaderMap {
        match self {
            ServerError::RateLimited(d) => rate_headers(d),
            ServerError::Busy { retry_after, .. }
            | ServerError::LimiterUnavailable { retry_after } => {
                let mut h = HeaderMap::new();
                h.insert(header::RETRY_AFTER, HeaderValue::from(*retry_after));
                h
            }
            _ => HeaderMap::new(),
        }
    }

    /// The rate-limit pool that refused (for the metrics).
    pub fn refused_pool(&self) -> Option<&str> {
        match self {
            ServerError::RateLimited(d) => Some(&d.pool),
            _ => None,
        }
    }
}

/// `RateLimit-Limit`, `-Remaining`, `-Reset` (and `Retry-After` when refused).
pub fn rate_headers(d: &RateDecision) -> HeaderMap {
    let mut h = HeaderMap::new();
    let num = |n: u64| HeaderValue::from(n);
    h.insert("ratelimit-limit", num(d.limit as u64));
    h.insert("ratelimit-remaining", num(d.remaining as u64));
    h.insert("ratelimit-reset", num(d.reset_secs));
    if !d.allowed {
        h.insert("retry-after", num(d.reset_secs));
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::limits::RateDecision;

    #[test]
    fn an_unreachable_limiter_is_a_503_with_retry_after() {
        let e = ServerError::rate_refused(RateDecision::unavailable(2));
        assert_eq!(e, ServerError::LimiterUnavailable { retry_after: 2 });
        assert_eq!(e.http_status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(e.headers()[header::RETRY_AFTER], "2");
        assert!(e.message().starts_with("rate-limit store unavailable"));
        assert!(e.message().contains("on_outage"), "{}", e.message());
        assert_eq!(e.refused_pool(), None, "no pool is over its limit");
        // Its 0.3 and 1.0 codes: the tests of `a2a_v03::errors` and `a2a_v1::errors`.
    }

    #[test]
    fn a_full_pool_stays_a_429() {
        let d = RateDecision {
            allowed: false,
            unavailable: false,
            pool: "message/send".into(),
            limit: 15,
            remaining: 0,
            reset_secs: 40,
        };
        let e = ServerError::rate_refused(d);
        assert_eq!(e.http_status(), StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(e.refused_pool(), Some("message/send"));
    }
}

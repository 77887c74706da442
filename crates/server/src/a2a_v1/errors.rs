//! [`ServerError`] in A2A 1.0: the error kind (code, `ErrorInfo` reason and domain), the
//! message and the metadata, for both 1.0 bindings; with the HTTP status and headers of the
//! core kept ([`Failure`]). REST writes a [`Failure`] as problem details (`rest.rs`).

use crate::core::errors::ServerError;
use axum::http::{HeaderMap, StatusCode};
use ecclesia_a2a::v1::{A2aError, ErrorKind};
use serde_json::Value;

/// The 1.0 kind of `e`.
fn kind(e: &ServerError) -> ErrorKind {
    match e {
        ServerError::Parse(_) => ErrorKind::JsonParse,
        ServerError::InvalidRequest(_) => ErrorKind::InvalidRequest,
        ServerError::MethodNotFound(_) => ErrorKind::MethodNotFound,
        ServerError::InvalidParams { .. } | ServerError::TaskStillWorking(_) => {
            ErrorKind::InvalidParams
        }
        ServerError::TaskNotFound(_) | ServerError::PushConfigNotFound { .. } => {
            ErrorKind::TaskNotFound
        }
        ServerError::TaskNotCancelable { .. } => ErrorKind::TaskNotCancelable,
        // 1.0 answers a message to a finished task with UnsupportedOperation.
        ServerError::TaskFinished { .. } | ServerError::UnsupportedOperation(_) => {
            ErrorKind::UnsupportedOperation
        }
        ServerError::PlanRequired(_) => ErrorKind::PlanRequired,
        ServerError::RateLimited(_) => ErrorKind::RateLimited,
        // The server cannot serve the call now (503, RetryInfo); the message says why.
        ServerError::Busy { .. } | ServerError::LimiterUnavailable { .. } => ErrorKind::ServerBusy,
        ServerError::PushNotSupported => ErrorKind::PushNotificationNotSupported,
        ServerError::ContentTypeNotSupported(_) => ErrorKind::ContentTypeNotSupported,
        ServerError::Unavailable(_) | ServerError::Internal { .. } => ErrorKind::Internal,
    }
}

/// `e` as a 1.0 error: its message, its data as `ErrorInfo.metadata` (values as strings) and
/// `retry_after_seconds` as a `RetryInfo`.
pub(crate) fn encode(e: &ServerError) -> A2aError {
    let message = match e {
        ServerError::TaskFinished { id, state } => format!(
            "Task {id} is in terminal state {}: send a new message without taskId (the same contextId may be kept)",
            state.as_str()
        ),
        other => other.message(),
    };
    let mut out = A2aError::new(kind(e)).with_message(message);
    if let Some(Value::Object(data)) = e.data() {
        for (k, v) in data {
            if k == "retry_after_seconds" {
                if let Some(s) = v.as_u64() {
                    out = out.with_retry_after(s);
                    continue;
                }
            }
            let text = match v {
                Value::String(s) => s,
                other => other.to_string(),
            };
            out = out.with_metadata(k, text);
        }
    }
    out
}

/// A 1.0 error with the HTTP status (200 unless the core says otherwise: 429, 503) and the
/// headers it travels with.
#[derive(Debug, Clone)]
pub(crate) struct Failure {
    pub error: Box<A2aError>,
    pub status: StatusCode,
    pub headers: HeaderMap,
}

impl From<A2aError> for Failure {
    fn from(error: A2aError) -> Self {
        Failure {
            error: Box::new(error),
            status: StatusCode::OK,
            headers: HeaderMap::new(),
        }
    }
}

impl From<ServerError> for Failure {
    fn from(e: ServerError) -> Self {
        Failure {
            error: Box::new(encode(&e)),
            status: e.http_status(),
            headers: e.headers(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::limits::RateDecision;

    #[test]
    fn an_unreachable_limiter_is_server_busy_and_503() {
        let e = ServerError::rate_refused(RateDecision::unavailable(2));
        let v1 = encode(&e);
        assert_eq!(v1.kind, ecclesia_a2a::v1::ErrorKind::ServerBusy);
        assert_eq!(v1.kind.http_status(), 503);
    }
}

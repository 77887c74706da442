//! [`ApiError`]: OpenAI's error shape (`{"error": {"message", "type", "param", "code"}}`)
//! with its HTTP status.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use ecclesia_server::{AskError, ServerError};
use serde_json::json;

/// An error as the OpenAI API reports it.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{status}: {message}")]
pub struct ApiError {
    /// HTTP status.
    pub status: StatusCode,
    /// What went wrong and how to fix it.
    pub message: String,
    /// `invalid_request_error`, `authentication_error`, `permission_error`,
    /// `not_found_error`, `requests` (rate limits), `server_error`.
    pub kind: &'static str,
    /// The offending parameter, when one is.
    pub param: Option<String>,
    /// A machine-readable code (`invalid_api_key`, `model_not_found`, `rate_limit_exceeded`, …).
    pub code: Option<&'static str>,
    /// Seconds to wait (429 and 503), sent as `Retry-After`.
    pub retry_after: Option<u64>,
}

impl ApiError {
    fn new(status: StatusCode, kind: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            status,
            message: message.into(),
            kind,
            param: None,
            code: None,
            retry_after: None,
        }
    }

    /// 400 `invalid_request_error` about `param`.
    pub fn invalid(param: Option<&str>, message: impl Into<String>) -> Self {
        let mut e = Self::new(StatusCode::BAD_REQUEST, "invalid_request_error", message);
        e.param = param.map(String::from);
        e
    }

    /// 401 `invalid_api_key`.
    pub fn unauthorized(message: impl Into<String>) -> Self {
        let mut e = Self::new(StatusCode::UNAUTHORIZED, "invalid_request_error", message);
        e.code = Some("invalid_api_key");
        e
    }

    /// 404 `model_not_found`.
    pub fn model_not_found(model: &str) -> Self {
        let shown: String = model.chars().take(100).collect();
        let mut e = Self::new(
            StatusCode::NOT_FOUND,
            "invalid_request_error",
            format!(
                "The model `{shown}` does not exist or you do not have access to it. Models: {}.",
                crate::MODELS.join(", ")
            ),
        );
        e.param = Some("model".into());
        e.code = Some("model_not_found");
        e
    }

    /// 413: the body is over the server's limit.
    pub fn too_large(limit: usize) -> Self {
        let mut e = Self::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "invalid_request_error",
            format!("the request body is over the limit of {limit} bytes"),
        );
        e.code = Some("request_too_large");
        e
    }

    /// 500 with a generic message (the cause is logged).
    pub fn internal(cause: impl std::fmt::Display) -> Self {
        tracing::error!(error = %cause, "chat completion failed");
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "server_error",
            "The server had an error while processing your request.",
        )
    }

    /// Set the code.
    pub fn with_code(mut self, code: &'static str) -> Self {
        self.code = Some(code);
        self
    }
}

impl From<AskError> for ApiError {
    fn from(e: AskError) -> Self {
        if e.is_invalid_params() {
            return ApiError::invalid(Some("messages"), e.to_string()).with_code("invalid_value");
        }
        match e {
            AskError::Refused(refusal) => ApiError::from(refusal),
            AskError::Ended { message, .. } => {
                tracing::warn!(error = %message, "the skill's task failed");
                ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "server_error", message)
            }
        }
    }
}

/// The one table from the core's errors to OpenAI's.
impl From<ServerError> for ApiError {
    fn from(e: ServerError) -> Self {
        let message = e.message();
        let with_retry = |mut api: ApiError, secs: u64| {
            api.retry_after = Some(secs);
            api
        };
        match e {
            ServerError::InvalidParams { .. } => {
                ApiError::invalid(Some("messages"), message).with_code("invalid_value")
            }
            ServerError::RateLimited(d) => with_retry(
                ApiError::new(StatusCode::TOO_MANY_REQUESTS, "requests", message)
                    .with_code("rate_limit_exceeded"),
                d.reset_secs,
            ),
            ServerError::LimiterUnavailable { retry_after } => with_retry(
                ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "server_error", message)
                    .with_code("rate_limit_store_unavailable"),
                retry_after,
            ),
            ServerError::PlanRequired(_) => {
                ApiError::new(StatusCode::FORBIDDEN, "permission_error", message)
                    .with_code("plan_required")
            }
            ServerError::Busy { retry_after, .. } => with_retry(
                ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "server_error", message)
                    .with_code("server_busy"),
                retry_after,
            ),
            ServerError::Unavailable(_) => {
                ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "server_error", message)
                    .with_code("skill_unavailable")
            }
            other => ApiError::internal(other.message()),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = json!({"error": {
            "message": self.message,
            "type": self.kind,
            "param": self.param,
            "code": self.code,
        }});
        let mut resp = (self.status, axum::Json(body)).into_response();
        if self.status == StatusCode::UNAUTHORIZED {
            resp.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Bearer realm=\"ecclesia\""),
            );
        }
        if let Some(s) = self.retry_after {
            resp.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(s.max(1)));
        }
        if self.status == StatusCode::PAYLOAD_TOO_LARGE {
            // the body was not read: the server closes this connection, and
            // says so, so that a client does not send its next request on it
            resp.headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
        }
        resp
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unread_body_closes_the_connection_and_says_so() {
        let r = ApiError::too_large(10).into_response();
        assert_eq!(r.status(), StatusCode::PAYLOAD_TOO_LARGE);
        assert_eq!(r.headers()[header::CONNECTION], "close");
        let r = ApiError::too_large(10);
        assert_eq!(r.code, Some("request_too_large"));
    }
}

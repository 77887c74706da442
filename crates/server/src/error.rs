//! Errors as they go out: JSON-RPC errors (HTTP 200, or 429 for rate limits)
//! and the few plain HTTP errors (401, 413, 408).

use axum::http::{header, HeaderValue, StatusCode};

/// Extra headers of an error response.
pub type Headers = Vec<(header::HeaderName, HeaderValue)>;
use axum::response::{IntoResponse, Response};
use ecclesia_a2a::{error_codes as codes, JsonRpcError};
use ecclesia_core::SkillError;
use serde_json::json;

/// A JSON-RPC error, with the HTTP status and headers it travels with.
#[derive(Debug, Clone)]
pub struct RpcError {
    /// The error object.
    pub error: JsonRpcError,
    /// HTTP status (200 except for rate limits).
    pub status: StatusCode,
    /// Extra headers (`Retry-After`, `RateLimit-*`).
    pub headers: Headers,
}

impl RpcError {
    /// An error with HTTP 200.
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        RpcError {
            error: JsonRpcError::new(code, message),
            status: StatusCode::OK,
            headers: Vec::new(),
        }
    }

    /// -32602 with a message saying what is wrong.
    pub fn invalid_params(message: impl Into<String>) -> Self {
        Self::new(codes::INVALID_PARAMS, message)
    }

    /// -32001.
    pub fn task_not_found(id: &str) -> Self {
        Self::new(codes::TASK_NOT_FOUND, format!("Task not found: {id}"))
    }

    /// -32603, logged with `request_id`; the caller sees only the request id.
    pub fn internal(request_id: &str, cause: impl std::fmt::Display) -> Self {
        tracing::error!(request_id, error = %cause, "internal error");
        Self::new(
            codes::INTERNAL_ERROR,
            format!("Internal error (request id {request_id})"),
        )
    }

    /// Attach data.
    pub fn with_data(mut self, data: serde_json::Value) -> Self {
        self.error.data = Some(data);
        self
    }

    /// Map a skill error raised before a task exists.
    pub fn from_skill(e: SkillError, request_id: &str) -> Self {
        match e {
            SkillError::InvalidParams(m) => Self::invalid_params(m),
            SkillError::Unavailable(m) => Self::new(codes::INTERNAL_ERROR, m),
            SkillError::Canceled => Self::new(codes::INTERNAL_ERROR, "the task was canceled"),
            SkillError::Internal(m) => Self::internal(request_id, m),
        }
    }
}

/// A plain HTTP error (before JSON-RPC could start), with a JSON body.
#[derive(Debug)]
pub struct HttpError {
    status: StatusCode,
    message: String,
}

impl HttpError {
    /// 401 with `WWW-Authenticate: Bearer`.
    pub fn unauthorized(message: &str) -> Self {
        HttpError {
            status: StatusCode::UNAUTHORIZED,
            message: message.into(),
        }
    }

    /// 500 (logged).
    pub fn internal(cause: String) -> Self {
        tracing::error!(error = %cause, "internal error during authentication");
        HttpError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: "internal error".into(),
        }
    }
}

impl IntoResponse for HttpError {
    fn into_response(self) -> Response {
        let body = json!({
            "jsonrpc": "2.0", "id": null,
            "error": {"code": if self.status == StatusCode::UNAUTHORIZED { -32000 } else { codes::INTERNAL_ERROR },
                      "message": self.message}
        });
        let mut resp = (self.status, axum::Json(body)).into_response();
        if self.status == StatusCode::UNAUTHORIZED {
            resp.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Bearer realm=\"ecclesia\""),
            );
        }
        resp
    }
}

/// What a panic in a handler becomes: a 500 with a JSON-RPC internal error.
pub fn panic_response(_: Box<dyn std::any::Any + Send + 'static>) -> Response {
    tracing::error!("a request handler panicked");
    (
        StatusCode::INTERNAL_SERVER_ERROR,
        axum::Json(json!({"jsonrpc": "2.0", "id": null,
            "error": {"code": codes::INTERNAL_ERROR, "message": "Internal error"}})),
    )
        .into_response()
}

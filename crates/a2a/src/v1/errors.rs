//! The 1.0 errors: codes, standard messages, `google.rpc.ErrorInfo` reasons,
//! the HTTP and gRPC statuses of each, and their JSON-RPC rendering
//! (`error.data` is an array of `@type` objects in 1.0).

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use crate::JsonRpcError;

/// `ErrorInfo.domain` of the specification's errors.
pub const A2A_DOMAIN: &str = "a2a-protocol.org";
/// `ErrorInfo.domain` of this server's own errors (plan, rate limit, busy).
pub const ECCLESIA_DOMAIN: &str = "ecclesia";
/// `@type` of `google.rpc.ErrorInfo`.
pub const ERROR_INFO_TYPE: &str = "type.googleapis.com/google.rpc.ErrorInfo";
/// `@type` of `google.rpc.BadRequest`.
pub const BAD_REQUEST_TYPE: &str = "type.googleapis.com/google.rpc.BadRequest";
/// `@type` of `google.rpc.RetryInfo`.
pub const RETRY_INFO_TYPE: &str = "type.googleapis.com/google.rpc.RetryInfo";

/// Every error a 1.0 front-end can answer with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// -32700: the body is not JSON.
    JsonParse,
    /// -32600: not a JSON-RPC 2.0 request.
    InvalidRequest,
    /// -32601: no such method.
    MethodNotFound,
    /// -32602: bad params.
    InvalidParams,
    /// -32603: internal error.
    Internal,
    /// -32001.
    TaskNotFound,
    /// -32002.
    TaskNotCancelable,
    /// -32003.
    PushNotificationNotSupported,
    /// -32004 (also: a message to a terminal task, subscribing to one).
    UnsupportedOperation,
    /// -32005.
    ContentTypeNotSupported,
    /// -32006.
    InvalidAgentResponse,
    /// -32007.
    ExtendedAgentCardNotConfigured,
    /// -32008.
    ExtensionSupportRequired,
    /// -32009: the `A2A-Version` asked for is not served (or does not fit the method).
    VersionNotSupported,
    /// This server: the caller's plan does not include A2A. -32031 in 1.0,
    /// because 1.0 gives -32005 (0.3's code for it here) to ContentTypeNotSupported.
    PlanRequired,
    /// This server: rate limit exceeded (-32029, as in 0.3).
    RateLimited,
    /// This server: the skill's work queue is full (-32030, as in 0.3).
    ServerBusy,
}

impl ErrorKind {
    /// Every kind.
    pub const ALL: [ErrorKind; 17] = [
        ErrorKind::JsonParse,
        ErrorKind::InvalidRequest,
        ErrorKind::MethodNotFound,
        ErrorKind::InvalidParams,
        ErrorKind::Internal,
        ErrorKind::TaskNotFound,
        ErrorKind::TaskNotCancelable,
        ErrorKind::PushNotificationNotSupported,
        ErrorKind::UnsupportedOperation,
        ErrorKind::ContentTypeNotSupported,
        ErrorKind::InvalidAgentResponse,
        ErrorKind::ExtendedAgentCardNotConfigured,
        ErrorKind::ExtensionSupportRequired,
        ErrorKind::VersionNotSupported,
        ErrorKind::PlanRequired,
        ErrorKind::RateLimited,
        ErrorKind::ServerBusy,
    ];

    /// The JSON-RPC code (specification §5.4 and §9.5).
    pub fn code(self) -> i64 {
        match self {
            ErrorKind::JsonParse => -32700,
            ErrorKind::InvalidRequest => -32600,
            ErrorKind::MethodNotFound => -32601,
            ErrorKind::InvalidParams => -32602,
            ErrorKind::Internal => -32603,
            ErrorKind::TaskNotFound => -32001,
            ErrorKind::TaskNotCancelable => -32002,
            ErrorKind::PushNotificationNotSupported => -32003,
            ErrorKind::UnsupportedOperation => -32004,
            ErrorKind::ContentTypeNotSupported => -32005,
            ErrorKind::InvalidAgentResponse => -32006,
            ErrorKind::ExtendedAgentCardNotConfigured => -32007,
            ErrorKind::ExtensionSupportRequired => -32008,
            ErrorKind::VersionNotSupported => -32009,
            ErrorKind::RateLimited => -32029,
            ErrorKind::ServerBusy => -32030,
            ErrorKind::PlanRequired => -32031,
        }
    }

    /// The standard message: the specification's table (§9.5) for the JSON-RPC
    /// codes, the official SDK's (`a2a-python` `utils/errors.py`) for the A2A ones.
    pub fn default_message(self) -> &'static str {
        match self {
            ErrorKind::JsonParse => "Invalid JSON payload",
            ErrorKind::InvalidRequest => "Request payload validation error",
            ErrorKind::MethodNotFound => "Method not found",
            ErrorKind::InvalidParams => "Invalid parameters",
            ErrorKind::Internal => "Internal error",
            ErrorKind::TaskNotFound => "Task not found",
            ErrorKind::TaskNotCancelable => "Task cannot be canceled",
            ErrorKind::PushNotificationNotSupported => "Push Notification is not supported",
            ErrorKind::UnsupportedOperation => "This operation is not supported",
            ErrorKind::ContentTypeNotSupported => "Incompatible content types",
            ErrorKind::InvalidAgentResponse => "Invalid agent response",
            ErrorKind::ExtendedAgentCardNotConfigured => {
                "Authenticated Extended Card is not configured"
            }
            ErrorKind::ExtensionSupportRequired => "Extension support required",
            ErrorKind::VersionNotSupported => "Version not supported",
            ErrorKind::PlanRequired => "Your plan does not include A2A access",
            ErrorKind::RateLimited => "Rate limit exceeded",
            ErrorKind::ServerBusy => "Server busy",
        }
    }

    /// `ErrorInfo.reason` (UPPER_SNAKE, as the official SDK sends it).
    pub fn reason(self) -> &'static str {
        match self {
            ErrorKind::JsonParse => "JSON_PARSE_ERROR",
            ErrorKind::InvalidRequest => "INVALID_REQUEST",
            ErrorKind::MethodNotFound => "METHOD_NOT_FOUND",
            ErrorKind::InvalidParams => "INVALID_PARAMS",
            ErrorKind::Internal => "INTERNAL_ERROR",
            ErrorKind::TaskNotFound => "TASK_NOT_FOUND",
            ErrorKind::TaskNotCancelable => "TASK_NOT_CANCELABLE",
            ErrorKind::PushNotificationNotSupported => "PUSH_NOTIFICATION_NOT_SUPPORTED",
            ErrorKind::UnsupportedOperation => "UNSUPPORTED_OPERATION",
            ErrorKind::ContentTypeNotSupported => "CONTENT_TYPE_NOT_SUPPORTED",
            ErrorKind::InvalidAgentResponse => "INVALID_AGENT_RESPONSE",
            ErrorKind::ExtendedAgentCardNotConfigured => "EXTENDED_AGENT_CARD_NOT_CONFIGURED",
            ErrorKind::ExtensionSupportRequired => "EXTENSION_SUPPORT_REQUIRED",
            ErrorKind::VersionNotSupported => "VERSION_NOT_SUPPORTED",
            ErrorKind::PlanRequired => "PLAN_REQUIRED",
            ErrorKind::RateLimited => "RATE_LIMITED",
            ErrorKind::ServerBusy => "SERVER_BUSY",
        }
    }

    /// `ErrorInfo.domain`.
    pub fn domain(self) -> &'static str {
        match self {
            ErrorKind::PlanRequired | ErrorKind::RateLimited | ErrorKind::ServerBusy => {
                ECCLESIA_DOMAIN
            }
            _ => A2A_DOMAIN,
        }
    }

    /// The HTTP status in the HTTP+JSON binding (§5.4).
    pub fn http_status(self) -> u16 {
        match self {
            ErrorKind::TaskNotFound | ErrorKind::MethodNotFound => 404,
            ErrorKind::TaskNotCancelable => 409,
            ErrorKind::ContentTypeNotSupported => 415,
            ErrorKind::Internal => 500,
            ErrorKind::InvalidAgentResponse => 502,
            ErrorKind::PlanRequired => 403,
            ErrorKind::RateLimited => 429,
            ErrorKind::ServerBusy => 503,
            _ => 400,
        }
    }

    /// The gRPC status name (§5.4).
    pub fn grpc_status(self) -> &'static str {
        match self {
            ErrorKind::TaskNotFound | ErrorKind::MethodNotFound => "NOT_FOUND",
            ErrorKind::JsonParse
            | ErrorKind::InvalidRequest
            | ErrorKind::InvalidParams
            | ErrorKind::ContentTypeNotSupported => "INVALID_ARGUMENT",
            ErrorKind::Internal | ErrorKind::InvalidAgentResponse => "INTERNAL",
            ErrorKind::PlanRequired => "PERMISSION_DENIED",
            ErrorKind::RateLimited => "RESOURCE_EXHAUSTED",
            ErrorKind::ServerBusy => "UNAVAILABLE",
            _ => "FAILED_PRECONDITION",
        }
    }
}

/// One invalid field (`google.rpc.BadRequest.FieldViolation`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldViolation {
    /// Path of the field (`message.parts[0]`), or `params`.
    pub field: String,
    /// What is wrong and what is expected.
    pub description: String,
}

/// A 1.0 error, ready to be rendered by any binding.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct A2aError {
    /// What kind of error.
    pub kind: ErrorKind,
    /// Human-readable message (the kind's standard message unless told otherwise).
    pub message: String,
    /// `ErrorInfo.metadata` (string values, as `google.rpc.ErrorInfo` has them).
    pub metadata: BTreeMap<String, String>,
    /// `BadRequest.fieldViolations` (invalid params).
    pub field_violations: Vec<FieldViolation>,
    /// `RetryInfo.retryDelay`, in seconds (rate limited, busy).
    pub retry_after_seconds: Option<u64>,
}

impl A2aError {
    /// An error with the kind's standard message.
    pub fn new(kind: ErrorKind) -> Self {
        A2aError {
            kind,
            message: kind.default_message().to_string(),
            metadata: BTreeMap::new(),
            field_violations: Vec::new(),
            retry_after_seconds: None,
        }
    }

    /// Replace the message.
    pub fn with_message(mut self, message: impl Into<String>) -> Self {
        self.message = message.into();
        self
    }

    /// Add an `ErrorInfo.metadata` entry (`taskId`, …).
    pub fn with_metadata(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.metadata.insert(key.into(), value.into());
        self
    }

    /// Set the retry delay.
    pub fn with_retry_after(mut self, seconds: u64) -> Self {
        self.retry_after_seconds = Some(seconds);
        self
    }

    /// Invalid params: the message names the field and says what is wrong.
    pub fn invalid_params(field: impl Into<String>, description: impl Into<String>) -> Self {
        let field = field.into();
        let description = description.into();
        let message = format!("Invalid parameters: {field}: {description}");
        let mut e = A2aError::new(ErrorKind::InvalidParams).with_message(message);
        e.field_violations
            .push(FieldViolation { field, description });
        e
    }

    /// Task not found, with its id in the metadata.
    pub fn task_not_found(task_id: &str) -> Self {
        A2aError::new(ErrorKind::TaskNotFound).with_metadata("taskId", task_id)
    }

    /// The JSON-RPC code.
    pub fn code(&self) -> i64 {
        self.kind.code()
    }

    /// The `error.data` array: an `ErrorInfo`, then `BadRequest` and
    /// `RetryInfo` when they apply.
    pub fn details(&self) -> Vec<Value> {
        let mut info = Map::new();
        info.insert("@type".into(), json!(ERROR_INFO_TYPE));
        info.insert("reason".into(), json!(self.kind.reason()));
        info.insert("domain".into(), json!(self.kind.domain()));
        let mut metadata = self.metadata.clone();
        if let Some(s) = self.retry_after_seconds {
            metadata.insert("retryAfterSeconds".into(), s.to_string());
        }
        if !metadata.is_empty() {
            info.insert("metadata".into(), json!(metadata));
        }
        let mut out = vec![Value::Object(info)];
        if !self.field_violations.is_empty() {
            let violations: Vec<Value> = self
                .field_violations
                .iter()
                .map(|v| json!({"field": v.field, "description": v.description}))
                .collect();
            out.push(json!({"@type": BAD_REQUEST_TYPE, "fieldViolations": violations}));
        }
        if let Some(s) = self.retry_after_seconds {
            out.push(json!({"@type": RETRY_INFO_TYPE, "retryDelay": format!("{s}s")}));
        }
        out
    }

    /// The JSON-RPC error object: code, message and the `data` details array.
    pub fn to_jsonrpc(&self) -> JsonRpcError {
        JsonRpcError::new(self.code(), self.message.clone()).with_data(Value::Array(self.details()))
    }
}

impl From<ErrorKind> for A2aError {
    fn from(kind: ErrorKind) -> Self {
        A2aError::new(kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_distinct_and_as_specified() {
        let mut codes: Vec<i64> = ErrorKind::ALL.iter().map(|k| k.code()).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), ErrorKind::ALL.len());
        assert_eq!(ErrorKind::ContentTypeNotSupported.code(), -32005);
        assert_eq!(ErrorKind::VersionNotSupported.code(), -32009);
        assert_eq!(ErrorKind::TaskNotFound.http_status(), 404);
        assert_eq!(ErrorKind::TaskNotCancelable.http_status(), 409);
        assert_eq!(ErrorKind::ContentTypeNotSupported.http_status(), 415);
        assert_eq!(ErrorKind::InvalidAgentResponse.http_status(), 502);
        assert_eq!(ErrorKind::InvalidAgentResponse.grpc_status(), "INTERNAL");
    }

    #[test]
    fn task_not_found_shape() {
        let e = A2aError::task_not_found("t-1").to_jsonrpc();
        assert_eq!(
            serde_json::to_value(e).unwrap(),
            json!({"code": -32001, "message": "Task not found", "data": [{
                "@type": ERROR_INFO_TYPE, "reason": "TASK_NOT_FOUND",
                "domain": "a2a-protocol.org", "metadata": {"taskId": "t-1"}}]})
        );
    }

    #[test]
    fn invalid_params_carries_bad_request() {
        let e = A2aError::invalid_params("message.parts", "at least one part is required");
        assert_eq!(
            e.to_string(),
            "Invalid parameters: message.parts: at least one part is required"
        );
        let data = e.details();
        assert_eq!(data.len(), 2);
        assert_eq!(data[1]["fieldViolations"][0]["field"], "message.parts");
    }

    #[test]
    fn retry_info() {
        let e = A2aError::new(ErrorKind::RateLimited).with_retry_after(12);
        let d = e.details();
        assert_eq!(d[0]["domain"], ECCLESIA_DOMAIN);
        assert_eq!(d[0]["metadata"]["retryAfterSeconds"], "12");
        assert_eq!(d[1]["retryDelay"], "12s");
    }
}

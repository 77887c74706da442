//! The JSON-RPC 2.0 envelope and the A2A error codes.

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::Value;

/// A request id: a string, a number or null.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum JsonRpcId {
    /// String id.
    Str(String),
    /// Numeric id that `serde_json::Number` holds exactly (an `i64`, a `u64`,
    /// or a float whose shortest form is the text the client sent).
    Num(serde_json::Number),
    /// `null`, or an id that could not be read.
    Null,
    /// A number kept as the client wrote it (beyond 64 bits, or a float that
    /// `f64` would round): echoed byte for byte. Built by [`JsonRpcId::exact_number`].
    #[serde(skip_deserializing)]
    Exact(ExactNumber),
}

/// The text of a JSON number, validated, serialized verbatim.
#[derive(Debug, Clone, Serialize)]
#[serde(transparent)]
pub struct ExactNumber(Box<RawValue>);

impl ExactNumber {
    /// The number as written.
    pub fn as_str(&self) -> &str {
        self.0.get()
    }
}

impl PartialEq for ExactNumber {
    fn eq(&self, other: &Self) -> bool {
        self.0.get() == other.0.get()
    }
}

impl JsonRpcId {
    /// The id for the JSON number written as `text`: [`JsonRpcId::Num`] when that
    /// loses nothing, [`JsonRpcId::Exact`] otherwise; `None` when `text` is not
    /// a JSON number.
    pub fn exact_number(text: &str) -> Option<JsonRpcId> {
        let text = text.trim();
        let n: serde_json::Number = serde_json::from_str(text).ok()?;
        if n.is_i64() || n.is_u64() || n.to_string() == text {
            return Some(JsonRpcId::Num(n));
        }
        let raw = RawValue::from_string(text.to_string()).ok()?;
        Some(JsonRpcId::Exact(ExactNumber(raw)))
    }

    /// Read an id from a raw value; `None` when the value is of a type no id may have.
    pub fn from_value(v: &Value) -> Option<JsonRpcId> {
        match v {
            Value::String(s) => Some(JsonRpcId::Str(s.clone())),
            Value::Number(n) => Some(JsonRpcId::Num(n.clone())),
            Value::Null => Some(JsonRpcId::Null),
            _ => None,
        }
    }
}

/// A JSON-RPC request, after the envelope was validated.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JsonRpcRequest {
    /// Always `"2.0"`.
    pub jsonrpc: String,
    /// Request id (absent in notifications, which still get a reply here).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<JsonRpcId>,
    /// Method name (`message/send`, …).
    pub method: String,
    /// Parameters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub params: Option<Value>,
}

/// A JSON-RPC error object.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JsonRpcError {
    /// Error code (see [`error_codes`]).
    pub code: i64,
    /// Human-readable message.
    pub message: String,
    /// Extra data.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

impl JsonRpcError {
    /// An error with a code and message.
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        JsonRpcError {
            code,
            message: message.into(),
            data: None,
        }
    }

    /// Attach data.
    pub fn with_data(mut self, data: Value) -> Self {
        self.data = Some(data);
        self
    }
}

/// A successful response.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JsonRpcSuccessResponse {
    /// `"2.0"`.
    pub jsonrpc: String,
    /// The request's id.
    pub id: JsonRpcId,
    /// The result.
    pub result: Value,
}

/// An error response.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JsonRpcErrorResponse {
    /// `"2.0"`.
    pub jsonrpc: String,
    /// The request's id, or null when unreadable.
    pub id: JsonRpcId,
    /// The error.
    pub error: JsonRpcError,
}

/// Either response.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum JsonRpcResponse {
    /// Success.
    Success(JsonRpcSuccessResponse),
    /// Error.
    Error(JsonRpcErrorResponse),
}

impl JsonRpcResponse {
    /// A success response.
    pub fn success(id: JsonRpcId, result: Value) -> Self {
        JsonRpcResponse::Success(JsonRpcSuccessResponse {
            jsonrpc: "2.0".into(),
            id,
            result,
        })
    }

    /// An error response.
    pub fn error(id: JsonRpcId, error: JsonRpcError) -> Self {
        JsonRpcResponse::Error(JsonRpcErrorResponse {
            jsonrpc: "2.0".into(),
            id,
            error,
        })
    }
}

/// The error codes of JSON-RPC 2.0, A2A 0.3 and this server.
pub mod error_codes {
    /// Body is not JSON.
    pub const PARSE_ERROR: i64 = -32700;
    /// Not a valid JSON-RPC request.
    pub const INVALID_REQUEST: i64 = -32600;
    /// Unknown method.
    pub const METHOD_NOT_FOUND: i64 = -32601;
    /// Invalid parameters.
    pub const INVALID_PARAMS: i64 = -32602;
    /// Internal error.
    pub const INTERNAL_ERROR: i64 = -32603;
    /// Task not found (or not the caller's).
    pub const TASK_NOT_FOUND: i64 = -32001;
    /// Task not cancelable.
    pub const TASK_NOT_CANCELABLE: i64 = -32002;
    /// Push notifications not supported.
    pub const PUSH_NOT_SUPPORTED: i64 = -32003;
    /// Unsupported operation.
    pub const UNSUPPORTED_OPERATION: i64 = -32004;
    /// The caller's plan does not include A2A (`PLAN_REQUIRED`).
    pub const PLAN_REQUIRED: i64 = -32005;
    /// A message whose parts are all of media types the agent does not accept
    /// (`ContentTypeNotSupportedError`, the 0.3 spec's -32005, which this server also gives,
    /// with its own message, to `PLAN_REQUIRED`).
    pub const CONTENT_TYPE_NOT_SUPPORTED: i64 = -32005;
    /// Rate limit exceeded.
    pub const RATE_LIMITED: i64 = -32029;
    /// The server's work queue for this skill is full (HTTP 503, `Retry-After`):
    /// retry after `data.retry_after_seconds`.
    pub const SERVER_BUSY: i64 = -32030;
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ids() {
        assert_eq!(
            JsonRpcId::from_value(&json!("a")),
            Some(JsonRpcId::Str("a".into()))
        );
        assert_eq!(
            JsonRpcId::from_value(&json!(1.5)),
            Some(JsonRpcId::Num(serde_json::Number::from_f64(1.5).unwrap()))
        );
        assert_eq!(JsonRpcId::from_value(&json!({})), None);
        assert_eq!(JsonRpcId::exact_number("7"), Some(JsonRpcId::Num(7.into())));
        assert_eq!(JsonRpcId::exact_number("x"), None);
        assert_eq!(JsonRpcId::exact_number("1 2"), None);
        for big in [
            "-9223372036854775809",
            "18446744073709551616",
            "1.00000000000000000001",
        ] {
            let id = JsonRpcId::exact_number(big).unwrap();
            assert!(matches!(id, JsonRpcId::Exact(_)), "{big}");
            let r = JsonRpcResponse::error(id, JsonRpcError::new(-1, "x"));
            let text = serde_json::to_string(&r).unwrap();
            assert!(text.contains(&format!("\"id\":{big},")), "{text}");
        }
        assert_eq!(JsonRpcId::from_value(&json!([1])), None);
    }

    #[test]
    fn error_response_shape() {
        let r = JsonRpcResponse::error(JsonRpcId::Null, JsonRpcError::new(-32700, "bad"));
        assert_eq!(
            serde_json::to_value(r).unwrap(),
            json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "bad"}})
        );
    }
}

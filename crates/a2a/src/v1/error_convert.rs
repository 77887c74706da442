//! The 1.0 error for a 0.3 JSON-RPC error of this server, so that the code
//! paths that build 0.3 errors today can answer 1.0 callers too.

use serde_json::Value;

use super::errors::{A2aError, ErrorKind};
use crate::{error_codes, JsonRpcError};

impl ErrorKind {
    /// The kind of a 0.3 error code of this server ([`crate::error_codes`]).
    /// The numbers are the same in both versions except this server's
    /// plan-required error (-32005 in 0.3, -32031 in 1.0). An unknown code is `None`.
    pub fn from_v03_code(code: i64) -> Option<ErrorKind> {
        Some(match code {
            error_codes::PARSE_ERROR => ErrorKind::JsonParse,
            error_codes::INVALID_REQUEST => ErrorKind::InvalidRequest,
            error_codes::METHOD_NOT_FOUND => ErrorKind::MethodNotFound,
            error_codes::INVALID_PARAMS => ErrorKind::InvalidParams,
            error_codes::INTERNAL_ERROR => ErrorKind::Internal,
            error_codes::TASK_NOT_FOUND => ErrorKind::TaskNotFound,
            error_codes::TASK_NOT_CANCELABLE => ErrorKind::TaskNotCancelable,
            error_codes::PUSH_NOT_SUPPORTED => ErrorKind::PushNotificationNotSupported,
            error_codes::UNSUPPORTED_OPERATION => ErrorKind::UnsupportedOperation,
            error_codes::PLAN_REQUIRED => ErrorKind::PlanRequired,
            -32006 => ErrorKind::InvalidAgentResponse,
            -32007 => ErrorKind::ExtendedAgentCardNotConfigured,
            error_codes::RATE_LIMITED => ErrorKind::RateLimited,
            error_codes::SERVER_BUSY => ErrorKind::ServerBusy,
            _ => return None,
        })
    }
}

impl From<&JsonRpcError> for A2aError {
    /// Same message; the 0.3 `data` object becomes `ErrorInfo.metadata`
    /// (values as strings), and `retry_after_seconds` a `RetryInfo`. An
    /// unknown code becomes an internal error, keeping the message.
    fn from(e: &JsonRpcError) -> Self {
        let kind = ErrorKind::from_v03_code(e.code).unwrap_or(ErrorKind::Internal);
        let mut out = A2aError::new(kind).with_message(e.message.clone());
        if let Some(Value::Object(data)) = &e.data {
            for (k, v) in data {
                if k == "retry_after_seconds" {
                    if let Some(s) = v.as_u64() {
                        out = out.with_retry_after(s);
                        continue;
                    }
                }
                let text = match v {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                out = out.with_metadata(k.clone(), text);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn codes_map() {
        assert_eq!(
            ErrorKind::from_v03_code(-32005),
            Some(ErrorKind::PlanRequired)
        );
        assert_eq!(ErrorKind::PlanRequired.code(), -32031);
        assert_eq!(
            ErrorKind::from_v03_code(-32001),
            Some(ErrorKind::TaskNotFound)
        );
        assert_eq!(ErrorKind::from_v03_code(-1), None);
        for k in ErrorKind::ALL {
            if k != ErrorKind::PlanRequired
                && k != ErrorKind::ContentTypeNotSupported
                && k != ErrorKind::ExtensionSupportRequired
                && k != ErrorKind::VersionNotSupported
            {
                assert_eq!(ErrorKind::from_v03_code(k.code()), Some(k), "{k:?}");
            }
        }
    }

    #[test]
    fn rate_limit_data() {
        let old = JsonRpcError::new(-32029, "Rate limit exceeded")
            .with_data(json!({"retry_after_seconds": 30, "limit": 15, "pool": "a2a"}));
        let e = A2aError::from(&old);
        assert_eq!(e.kind, ErrorKind::RateLimited);
        assert_eq!(e.retry_after_seconds, Some(30));
        assert_eq!(e.metadata.get("limit").map(String::as_str), Some("15"));
        assert_eq!(e.metadata.get("pool").map(String::as_str), Some("a2a"));
        let j = serde_json::to_value(e.to_jsonrpc()).unwrap();
        assert_eq!(j["code"], -32029);
        assert_eq!(j["data"][1]["retryDelay"], "30s");
    }
}

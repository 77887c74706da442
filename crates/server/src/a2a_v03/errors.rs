//! [`ServerError`] in A2A 0.3: the JSON-RPC code of each error, its message and `data`.

use crate::core::errors::ServerError;
use ecclesia_a2a::{error_codes as codes, JsonRpcError};

/// The 0.3 JSON-RPC code of `e`.
pub(crate) fn code(e: &ServerError) -> i64 {
    match e {
        ServerError::Parse(_) => codes::PARSE_ERROR,
        ServerError::InvalidRequest(_) => codes::INVALID_REQUEST,
        ServerError::MethodNotFound(_) => codes::METHOD_NOT_FOUND,
        // 0.3 has no code of its own for a message to a finished or running task.
        ServerError::InvalidParams { .. }
        | ServerError::TaskFinished { .. }
        | ServerError::TaskStillWorking(_) => codes::INVALID_PARAMS,
        ServerError::TaskNotFound(_) | ServerError::PushConfigNotFound { .. } => {
            codes::TASK_NOT_FOUND
        }
        ServerError::TaskNotCancelable { .. } => codes::TASK_NOT_CANCELABLE,
        ServerError::PlanRequired(_) => codes::PLAN_REQUIRED,
        ServerError::RateLimited(_) => codes::RATE_LIMITED,
        // 0.3 has no code of its own for it: the server cannot serve the call now.
        ServerError::Busy { .. } | ServerError::LimiterUnavailable { .. } => codes::SERVER_BUSY,
        ServerError::PushNotSupported => codes::PUSH_NOT_SUPPORTED,
        ServerError::UnsupportedOperation(_) => codes::UNSUPPORTED_OPERATION,
        ServerError::ContentTypeNotSupported(_) => codes::CONTENT_TYPE_NOT_SUPPORTED,
        ServerError::Unavailable(_) | ServerError::Internal { .. } => codes::INTERNAL_ERROR,
    }
}

/// `e` as a 0.3 JSON-RPC error object.
pub(crate) fn encode(e: &ServerError) -> JsonRpcError {
    let mut out = JsonRpcError::new(code(e), e.message());
    out.data = e.data();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::limits::RateDecision;

    #[test]
    fn an_unreachable_limiter_is_server_busy() {
        let e = ServerError::rate_refused(RateDecision::unavailable(2));
        assert_eq!(code(&e), ecclesia_a2a::error_codes::SERVER_BUSY);
    }
}

//! [`QaError`]: every way answering a question can fail, split into what the
//! caller can fix (a bad question) and what the operator must fix (store, model).

use std::fmt;

/// Why a question could not be answered.
#[derive(Debug, thiserror::Error)]
pub enum QaError {
    /// The question is unusable as given (empty, too long); the message says why.
    #[error("{0}")]
    InvalidQuestion(String),
    /// The `[qa]` settings are unusable; the message names the setting.
    #[error("invalid [qa] settings: {0}")]
    Config(String),
    /// The passage store failed (I/O, index); not the caller's fault.
    #[error("retrieval failed: {0}")]
    Retrieval(String),
    /// The generation backend answered with an error or an unreadable reply.
    #[error("generation backend failed: {0}")]
    Backend(BackendFailure),
    /// The caller canceled, or the deadline passed.
    #[error("the question was canceled")]
    Canceled,
}

/// What went wrong with a generation backend.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BackendFailure {
    /// The server answered with an HTTP error status.
    Status {
        /// The HTTP status code.
        code: u16,
        /// The start of the response body.
        body: String,
    },
    /// Connecting, sending or reading failed (refused, reset, timed out).
    Transport(String),
    /// The reply was not the chat-completions shape.
    BadReply(String),
    /// The in-process model failed (prompt too long for the context, decoding).
    Local(String),
}

impl fmt::Display for BackendFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BackendFailure::Status { code, body } => write!(f, "http status {code}: {body}"),
            BackendFailure::Transport(m) => write!(f, "transport error: {m}"),
            BackendFailure::BadReply(m) => write!(f, "unreadable reply: {m}"),
            BackendFailure::Local(m) => write!(f, "local model: {m}"),
        }
    }
}

impl QaError {
    /// Shorthand for a retrieval failure from any error.
    pub fn retrieval(e: impl fmt::Display) -> Self {
        QaError::Retrieval(e.to_string())
    }
}

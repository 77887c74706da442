//! [`RunError`]: why a skill run through MCP gave no artifacts.

/// Why a skill gave no answer. Every variant becomes a tool result with
/// `isError: true` whose text is the message (the model can read and act on it).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RunError {
    /// The arguments are wrong in a way the caller can fix (a bad date phrase,
    /// a missing query, a limit out of range).
    #[error("{0}")]
    InvalidParams(String),
    /// The caller's rate-limit pool (shared with A2A) is used up.
    #[error("{message}")]
    RateLimited {
        /// What the server said (pool, limit, when to retry).
        message: String,
        /// Seconds until a slot frees, when known.
        retry_after_secs: Option<u64>,
    },
    /// The caller's plan does not allow this (no A2A/MCP access).
    #[error("{0}")]
    NotAllowed(String),
    /// The server is busy (queue full); retry later.
    #[error("{0}")]
    Busy(String),
    /// The skill failed or is unavailable (store not ingested, model loading).
    #[error("{0}")]
    Failed(String),
}

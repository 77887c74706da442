//! A task as stored: deflated JSON of what `tasks/get` returns, with user messages over
//! [`MAX_STORED_MESSAGE`](ecclesia_state::MAX_STORED_MESSAGE) shortened by the server's own
//! [`ecclesia_state::compact_for_storage`] (through [`storage_json`], which copies the task only when something needs shortening), exactly as the embedded SQLite store keeps it.

use ecclesia_a2a::Task;
use ecclesia_state::storage_json;
use std::io::{Read, Write};

/// The most bytes a stored task inflates to (a corrupt row cannot exhaust memory).
const MAX_INFLATED: u64 = 64 * 1024 * 1024;

/// A stored task that cannot be written or read back.
#[derive(Debug, thiserror::Error)]
pub enum CodecError {
    /// JSON (de)serialization failed.
    #[error("stored task is unreadable: {0}")]
    Json(#[from] serde_json::Error),
    /// Deflate failed.
    #[error("stored task is unreadable: {0}")]
    Io(#[from] std::io::Error),
}

/// Deflated JSON of `task`, big user messages shortened.
pub fn encode(task: &Task) -> Result<Vec<u8>, CodecError> {
    let json = storage_json(task)?;
    let mut z = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
    z.write_all(&json)?;
    Ok(z.finish()?)
}

/// The task in `bytes` (from [`encode`]).
pub fn decode(bytes: &[u8]) -> Result<Task, CodecError> {
    let mut json = Vec::new();
    flate2::read::DeflateDecoder::new(bytes)
        .take(MAX_INFLATED)
        .read_to_end(&mut json)?;
    Ok(serde_json::from_slice(&json)?)
}

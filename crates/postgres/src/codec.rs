//! A task as stored: deflated JSON of what `tasks/get` returns, with user messages over
//! [`MAX_STORED_MESSAGE`] shortened, exactly as the embedded SQLite store keeps it.

use ecclesia_a2a::{Part, Role, Task};
use std::io::{Read, Write};

/// The largest user message kept whole in a stored task (the SQLite store's bound).
pub const MAX_STORED_MESSAGE: usize = 16 * 1024;
/// A text or data part bigger than this, in a user message bigger than
/// [`MAX_STORED_MESSAGE`], is stored shortened.
const MAX_STORED_PART: usize = 2 * 1024;
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
    let json = serde_json::to_vec(&compact(task))?;
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

/// The task with user messages over [`MAX_STORED_MESSAGE`] shortened part by part.
fn compact(task: &Task) -> Task {
    let mut t = task.clone();
    for m in t.history.iter_mut().flatten() {
        if m.role != Role::User {
            continue;
        }
        let size = serde_json::to_vec(&m.parts).map(|v| v.len()).unwrap_or(0);
        if size <= MAX_STORED_MESSAGE {
            continue;
        }
        for p in &mut m.parts {
            shorten(p);
        }
    }
    t
}

fn shorten(p: &mut Part) {
    match p {
        Part::Text { text, .. } if text.len() > MAX_STORED_PART => {
            let mut cut = MAX_STORED_PART;
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            let total = text.len();
            text.truncate(cut);
            text.push_str(&format!(" … [shortened in storage: {total} bytes]"));
        }
        Part::Data { data, .. } => {
            let n = serde_json::to_vec(&*data).map(|v| v.len()).unwrap_or(0);
            if n > MAX_STORED_PART {
                let mut m = serde_json::Map::new();
                m.insert("shortened_in_storage".into(), serde_json::Value::Bool(true));
                m.insert("bytes".into(), serde_json::Value::from(n));
                *data = m;
            }
        }
        _ => {}
    }
}

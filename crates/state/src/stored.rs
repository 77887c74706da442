//! The stored form of a task, the same in every engine: user messages over
//! [`MAX_STORED_MESSAGE`] are shortened, so a task reads back the same from any of them.

use ecclesia_a2a::{Part, Task};
use std::io::Write;

/// The largest user message kept whole in a stored task.
pub const MAX_STORED_MESSAGE: usize = 16 * 1024;
/// A text or data part bigger than this, in a user message bigger than
/// [`MAX_STORED_MESSAGE`], is stored shortened.
const MAX_STORED_PART: usize = 2 * 1024;

/// The task as stored: user messages over [`MAX_STORED_MESSAGE`] are shortened. Every
/// `TaskStore` engine stores this form, so a task reads back the same from any of them.
pub fn compact_for_storage(task: &Task) -> Task {
    let mut t = task.clone();
    for m in t.history.iter_mut().flatten() {
        if m.role != ecclesia_a2a::Role::User || json_len(&m.parts) <= MAX_STORED_MESSAGE {
            continue;
        }
        for p in &mut m.parts {
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
                    let n = json_len(&*data);
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
    }
    t
}

/// The JSON of the stored form of `task` ([`compact_for_storage`], without copying the
/// task when nothing needs shortening, the usual case).
pub fn storage_json(task: &Task) -> Result<Vec<u8>, serde_json::Error> {
    let fits =
        task.history.iter().flatten().all(|m| {
            m.role != ecclesia_a2a::Role::User || json_len(&m.parts) <= MAX_STORED_MESSAGE
        });
    if fits {
        serde_json::to_vec(task)
    } else {
        serde_json::to_vec(&compact_for_storage(task))
    }
}

/// The length of `v`'s JSON, counted without building it.
fn json_len<T: serde::Serialize + ?Sized>(v: &T) -> usize {
    struct Count(usize);
    impl Write for Count {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0 += b.len();
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut c = Count(0);
    match serde_json::to_writer(&mut c, v) {
        Ok(()) => c.0,
        Err(_) => usize::MAX,
    }
}

//! Task persistence: the [`TaskStore`] trait (what a task store must do), its embedded
//! SQLite implementation ([`SqliteStore`], which also holds the API keys), and the write
//! queue in front of it ([`TaskWriter`]: group commit).

mod checkpointer;
mod sqlite;
mod writer;

pub use sqlite::SqliteStore;
pub use writer::TaskWriter;

pub use ecclesia_state::stored::{compact_for_storage, storage_json, MAX_STORED_MESSAGE};
pub use ecclesia_state::tasks::*;

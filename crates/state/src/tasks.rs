//! Tasks as the server keeps them ([`TaskRecord`]), what a task store must do
//! ([`TaskStore`]), listing pages, bounds and upkeep, and the status helpers every engine
//! uses when it fails a task.

use chrono::{DateTime, Utc};
use ecclesia_a2a::{Message, Part, Role, Task, TaskState, TaskStatus};

/// A status with an agent message holding `text` (how a task says why it ended).
pub fn status_with_text(
    state: TaskState,
    text: &str,
    now: DateTime<Utc>,
    task_id: &str,
    context_id: &str,
) -> TaskStatus {
    TaskStatus {
        state,
        message: Some(agent_message(vec![Part::text(text)], task_id, context_id)),
        timestamp: Some(rfc3339(now)),
    }
}

/// A time as the tasks show it (RFC 3339, milliseconds, `Z`).
pub fn rfc3339(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// An agent message of the task.
pub fn agent_message(parts: Vec<Part>, task_id: &str, context_id: &str) -> Message {
    Message {
        message_id: uuid::Uuid::new_v4().to_string(),
        role: Role::Agent,
        parts,
        task_id: Some(task_id.to_string()),
        context_id: Some(context_id.to_string()),
        metadata: None,
        extensions: None,
        reference_task_ids: None,
    }
}

/// Mark `rec` failed because the server restarted before it finished (what
/// [`TaskStore::fail_unfinished`] does to each task it finds unfinished).
pub fn failed_by_restart(rec: &mut TaskRecord, now: DateTime<Utc>) {
    let (id, ctx) = (rec.task.id.clone(), rec.task.context_id.clone());
    rec.set_status(status_with_text(
        TaskState::Failed,
        "the server restarted before this task finished; please send it again",
        now,
        &id,
        &ctx,
    ));
}

/// A storage failure (I/O, corruption, serialization). Never shown to callers.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite failed (the embedded store).
    #[cfg(feature = "sqlite")]
    #[error("sqlite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// A stored task could not be read back.
    #[error("stored task is unreadable: {0}")]
    Corrupt(#[from] serde_json::Error),
    /// A stored task could not be (de)compressed.
    #[error("stored task is unreadable: {0}")]
    Io(std::io::Error),
}

/// A task with what only the server knows about it.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskRecord {
    /// The task as the protocol shows it.
    pub task: Task,
    /// Who created it (key id, or `anon:<address>`); only they can see it.
    pub owner: String,
    /// The skill that runs it.
    pub skill: String,
    /// Creation time.
    pub created_at: DateTime<Utc>,
    /// After this, the task is gone.
    pub expires_at: DateTime<Utc>,
    /// Every status the task went through, oldest first.
    pub status_history: Vec<TaskStatus>,
}

impl TaskRecord {
    /// Set a new status, keeping the old one in the history.
    pub fn set_status(&mut self, status: TaskStatus) {
        self.status_history.push(status.clone());
        self.task.status = status;
    }

    /// The current state.
    pub fn state(&self) -> TaskState {
        self.task.status.state
    }
}

/// Where tasks live. Implementations must be safe to share between threads.
///
/// Calls block: the core makes them on its blocking pool (and the write queue on its own
/// thread), never on an async worker. They stay synchronous because the embedded engine
/// (SQLite) is, and a store call is a unit of work that a blocking thread already bounds.
pub trait TaskStore: Send + Sync {
    /// Insert or replace a task.
    fn put(&self, rec: &TaskRecord) -> Result<(), StoreError>;
    /// The task `id` of `owner`, unless it expired; another owner's task is `None`.
    fn get(
        &self,
        id: &str,
        owner: &str,
        now: DateTime<Utc>,
    ) -> Result<Option<TaskRecord>, StoreError>;
    /// Delete expired tasks; returns how many.
    fn purge_expired(&self, now: DateTime<Utc>) -> Result<usize, StoreError>;
    /// Tasks stored and not expired.
    fn count(&self, now: DateTime<Utc>) -> Result<u64, StoreError>;
    /// Mark tasks left unfinished by a previous process as failed (with
    /// [`failed_by_restart`]); returns how many.
    fn fail_unfinished(&self, now: DateTime<Utc>) -> Result<usize, StoreError>;
    /// Insert or replace several tasks, all or none (one transaction where the store has
    /// them: the write queue commits a batch at once). The default puts them one by one.
    fn put_batch(&self, recs: &[TaskRecord]) -> Result<(), StoreError> {
        recs.iter().try_for_each(|r| self.put(r))
    }
    /// Called by the write queue once it has answered a batch's writers: housekeeping that
    /// would otherwise make them wait (SQLite: let the WAL start over when it has grown).
    fn after_batch(&self) {}
    /// Background upkeep: expire, keep under the size ceiling, reclaim space.
    /// Works in small steps so that requests never wait long for the store.
    fn maintain(&self, now: DateTime<Utc>) -> Result<Maintenance, StoreError> {
        Ok(Maintenance {
            expired: self.purge_expired(now)?,
            ..Maintenance::default()
        })
    }
    /// Bytes the store occupies (`None` when unknown).
    fn size_bytes(&self) -> Option<u64> {
        None
    }
    /// A page of `owner`'s tasks that are not expired, newest first (A2A 1.0 `ListTasks`).
    fn list(
        &self,
        owner: &str,
        query: &TaskListQuery,
        now: DateTime<Utc>,
    ) -> Result<TaskPage, StoreError>;
}

/// Which of a caller's tasks to list, and from where.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TaskListQuery {
    /// Only tasks of this context.
    pub context_id: Option<String>,
    /// Only tasks in this state.
    pub state: Option<TaskState>,
    /// Tasks per page (1 or more).
    pub page_size: usize,
    /// Continue after this task (from [`TaskPage::next`]).
    pub after: Option<TaskCursor>,
}

/// A position in a caller's task list: the last task of a page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskCursor {
    /// Its creation time (ms).
    pub created_ms: i64,
    /// Its id.
    pub id: String,
}

impl TaskCursor {
    /// The opaque page token (hex of `created_ms.id`).
    pub fn token(&self) -> String {
        hex::encode(format!("{}.{}", self.created_ms, self.id))
    }

    /// Read a page token back; `None` when it is not one this server gave.
    pub fn from_token(token: &str) -> Option<TaskCursor> {
        let raw = String::from_utf8(hex::decode(token).ok()?).ok()?;
        let (ms, id) = raw.split_once('.')?;
        Some(TaskCursor {
            created_ms: ms.parse().ok()?,
            id: id.to_string(),
        })
    }
}

/// One page of a caller's tasks.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TaskPage {
    /// The tasks, newest first.
    pub tasks: Vec<TaskRecord>,
    /// Where the next page starts, when there is one.
    pub next: Option<TaskCursor>,
    /// How many of the caller's tasks match the filters, over all pages.
    pub total: u64,
}

/// What one [`TaskStore::maintain`] pass did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Maintenance {
    /// Expired tasks deleted.
    pub expired: usize,
    /// Finished tasks evicted (oldest first) to stay under the size ceiling.
    pub evicted: usize,
    /// Free pages given back to the file system.
    pub vacuumed_pages: u64,
}

/// Bounds of the task store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StoreLimits {
    /// Ceiling on the bytes in use; past it, the oldest finished tasks go.
    pub max_bytes: u64,
    /// Tasks kept per caller; past it, that caller's oldest finished tasks go.
    pub max_per_caller: u64,
}

impl Default for StoreLimits {
    fn default() -> Self {
        StoreLimits {
            max_bytes: 1024 * 1024 * 1024,
            max_per_caller: 10_000,
        }
    }
}

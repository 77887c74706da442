//! Task persistence: the [`TaskStore`] trait and its embedded SQLite
//! implementation, which also holds the API keys (see `auth`).

use chrono::{DateTime, TimeZone, Utc};
use ecclesia_a2a::{Task, TaskState, TaskStatus};
use rusqlite::{params, Connection, OptionalExtension};
use std::path::Path;
use std::sync::Mutex;

/// A storage failure (I/O, corruption, serialization). Never shown to callers.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite failed.
    #[error("sqlite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// A stored task could not be read back.
    #[error("stored task is unreadable: {0}")]
    Corrupt(#[from] serde_json::Error),
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

/// Where tasks live. Implementations must be safe to share between threads;
/// calls block (run them on a blocking thread).
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
    /// Mark tasks left unfinished by a previous process as failed; returns how many.
    fn fail_unfinished(&self, now: DateTime<Utc>) -> Result<usize, StoreError>;
}

/// Tasks and API keys in one SQLite database (WAL mode).
pub struct SqliteStore {
    pub(crate) conn: Mutex<Connection>,
}

impl std::fmt::Debug for SqliteStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SqliteStore")
    }
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS tasks (
    id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    skill TEXT NOT NULL,
    state TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    task_json TEXT NOT NULL,
    statuses_json TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS tasks_expires ON tasks(expires_at);
CREATE TABLE IF NOT EXISTS api_keys (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    plan TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    revoked_at TEXT
);
";

impl SqliteStore {
    /// Open (or create) the database at `path`.
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        let conn = Connection::open(path)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.execute_batch(SCHEMA)?;
        Ok(SqliteStore {
            conn: Mutex::new(conn),
        })
    }

    /// An in-memory database (tests).
    pub fn in_memory() -> Result<Self, StoreError> {
        let conn = Connection::open_in_memory()?;
        conn.execute_batch(SCHEMA)?;
        Ok(SqliteStore {
            conn: Mutex::new(conn),
        })
    }

    pub(crate) fn lock(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Checkpoint the WAL into the main file (on shutdown).
    pub fn checkpoint(&self) {
        let conn = self.lock();
        if let Err(e) = conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);") {
            tracing::warn!(error = %e, "checkpoint failed");
        }
    }
}

fn ms(t: DateTime<Utc>) -> i64 {
    t.timestamp_millis()
}

fn from_ms(v: i64) -> DateTime<Utc> {
    Utc.timestamp_millis_opt(v).single().unwrap_or_default()
}

impl TaskStore for SqliteStore {
    fn put(&self, rec: &TaskRecord) -> Result<(), StoreError> {
        let task_json = serde_json::to_string(&rec.task)?;
        let statuses = serde_json::to_string(&rec.status_history)?;
        self.lock().execute(
            "INSERT OR REPLACE INTO tasks (id, owner, skill, state, created_at, expires_at, task_json, statuses_json)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![
                rec.task.id,
                rec.owner,
                rec.skill,
                rec.state().as_str(),
                ms(rec.created_at),
                ms(rec.expires_at),
                task_json,
                statuses
            ],
        )?;
        Ok(())
    }

    fn get(
        &self,
        id: &str,
        owner: &str,
        now: DateTime<Utc>,
    ) -> Result<Option<TaskRecord>, StoreError> {
        let row = self
            .lock()
            .query_row(
                "SELECT skill, created_at, expires_at, task_json, statuses_json FROM tasks
                 WHERE id = ?1 AND owner = ?2 AND expires_at > ?3",
                params![id, owner, ms(now)],
                |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, i64>(1)?,
                        r.get::<_, i64>(2)?,
                        r.get::<_, String>(3)?,
                        r.get::<_, String>(4)?,
                    ))
                },
            )
            .optional()?;
        let Some((skill, created, expires, task_json, statuses)) = row else {
            return Ok(None);
        };
        Ok(Some(TaskRecord {
            task: serde_json::from_str(&task_json)?,
            owner: owner.to_string(),
            skill,
            created_at: from_ms(created),
            expires_at: from_ms(expires),
            status_history: serde_json::from_str(&statuses)?,
        }))
    }

    fn purge_expired(&self, now: DateTime<Utc>) -> Result<usize, StoreError> {
        Ok(self
            .lock()
            .execute("DELETE FROM tasks WHERE expires_at <= ?1", params![ms(now)])?)
    }

    fn count(&self, now: DateTime<Utc>) -> Result<u64, StoreError> {
        let n: i64 = self.lock().query_row(
            "SELECT COUNT(*) FROM tasks WHERE expires_at > ?1",
            params![ms(now)],
            |r| r.get(0),
        )?;
        Ok(n.max(0) as u64)
    }

    fn fail_unfinished(&self, now: DateTime<Utc>) -> Result<usize, StoreError> {
        let rows: Vec<(String, String, String)> = {
            let conn = self.lock();
            let mut stmt = conn.prepare(
                "SELECT id, owner, task_json FROM tasks WHERE state IN ('submitted', 'working')",
            )?;
            let rows = stmt
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
                .collect::<Result<_, _>>()?;
            rows
        };
        let mut n = 0;
        for (id, owner, _) in rows {
            if let Some(mut rec) = self.get(&id, &owner, now)? {
                rec.set_status(crate::runner::status_with_text(
                    TaskState::Failed,
                    "the server restarted before this task finished; please send it again",
                    now,
                    &rec.task.id,
                    &rec.task.context_id,
                ));
                self.put(&rec)?;
                n += 1;
            }
        }
        Ok(n)
    }
}

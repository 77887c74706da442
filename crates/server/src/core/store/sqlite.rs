//! [`SqliteStore`]: tasks (and, in `core::callers`, API keys) in one SQLite database.

use super::checkpointer::Checkpointer;
use super::{
    Maintenance, StoreError, StoreLimits, TaskCursor, TaskListQuery, TaskPage, TaskRecord,
    TaskStore,
};
use chrono::{DateTime, TimeZone, Utc};
use ecclesia_a2a::Task;
use ecclesia_state::stored::storage_json;
use rusqlite::{params, Connection, OptionalExtension};
use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::Path;
use std::sync::Mutex;

/// The most rows one `list` call reads when filtering by context (bounded work per request).
const LIST_SCAN_LIMIT: usize = 10_000;

/// Rows deleted per statement (each holds the connection for a few milliseconds).
const BATCH: usize = 500;
/// Pages reclaimed per statement.
const VACUUM_STEP: u64 = 512;
/// Stored JSON longer than this is deflated (below, compressing costs more time than the
/// bytes it saves are worth).
pub const DEFLATE_ABOVE: usize = 16 * 1024;
/// Over its cap, a caller loses this share of the cap at once (1/128, so the deletes
/// come once in that many writes rather than with every write).
const EVICT_SLACK_DIVISOR: u64 = 128;
const TERMINAL: &str = "('completed', 'canceled', 'failed', 'rejected', 'unknown')";

/// Tasks and API keys in one SQLite database (WAL mode, incremental vacuum).
///
/// A task is stored as the JSON of what `tasks/get` returns, as text up to
/// [`DEFLATE_ABOVE`] bytes and deflated above (the status history is not kept; user
/// messages over 16 KiB are shortened).
pub struct SqliteStore {
    pub(crate) conn: Mutex<Connection>,
    /// Stored tasks per owner, counted on first use (locked under `conn`).
    owners: Mutex<HashMap<String, u64>>,
    limits: Mutex<StoreLimits>,
    /// Copies the WAL into the main file off the writer's path (file-backed stores).
    checkpointer: Option<Checkpointer>,
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
CREATE INDEX IF NOT EXISTS tasks_created ON tasks(created_at);
CREATE INDEX IF NOT EXISTS tasks_owner ON tasks(owner, created_at);
CREATE TABLE IF NOT EXISTS push_configs (
    task_id TEXT NOT NULL,
    id TEXT NOT NULL,
    owner TEXT NOT NULL,
    config_json TEXT NOT NULL,
    created_at INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (task_id, id)
);
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
    /// Open (or create) the database at `path`. A database made before
    /// incremental vacuum was turned on is converted once (a full `VACUUM`).
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        let conn = Connection::open(path)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        let auto_vacuum: i64 = conn.query_row("PRAGMA auto_vacuum", [], |r| r.get(0))?;
        if auto_vacuum != 2 {
            let tables: i64 =
                conn.query_row("SELECT COUNT(*) FROM sqlite_master", [], |r| r.get(0))?;
            conn.pragma_update(None, "auto_vacuum", "INCREMENTAL")?;
            if tables > 0 {
                // Existing store: the setting takes effect only through a VACUUM.
                let started = std::time::Instant::now();
                conn.execute_batch("VACUUM;")?;
                tracing::info!(
                    elapsed_ms = started.elapsed().as_millis() as u64,
                    "task store converted to incremental vacuum"
                );
            }
        }
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        // Until the background checkpoints run (below), commits checkpoint themselves, at
        // SQLite's default of 1,000 pages. The WAL file is cut back to `journal_size_limit`
        // when it starts over.
        conn.pragma_update(None, "journal_size_limit", 32 * 1024 * 1024)?;
        // SQLite's default page cache, 2 MiB. A larger one costs every commit a scan of it:
        // a b-tree balance that swaps two pages parks one at the page after the 1 GiB lock
        // byte, and the commit's truncation of pages past the end of the file then walks the
        // whole cache. With 16 MiB that walk was 11 % of the task writer's CPU (`perf`,
        // `pcache1TruncateUnsafe`), more than the re-reads of the pages evictions touch.
        conn.pragma_update(None, "cache_size", -2 * 1024)?;
        conn.execute_batch(SCHEMA)?;
        add_config_times(&conn)?;
        let checkpointer = Checkpointer::start(path)
            .map_err(|e| tracing::warn!(error = %e, "no background checkpoints: commits checkpoint themselves"))
            .ok();
        if checkpointer.is_some() {
            // The background thread copies the WAL; commits no longer do (see `Checkpointer`).
            conn.pragma_update(None, "wal_autocheckpoint", 0)?;
        }
        Ok(Self {
            checkpointer,
            ..Self::from_conn(conn)
        })
    }

    /// An in-memory database (tests).
    pub fn in_memory() -> Result<Self, StoreError> {
        let conn = Connection::open_in_memory()?;
        conn.pragma_update(None, "auto_vacuum", "INCREMENTAL")?;
        conn.execute_batch(SCHEMA)?;
        Ok(Self::from_conn(conn))
    }

    fn from_conn(conn: Connection) -> Self {
        SqliteStore {
            conn: Mutex::new(conn),
            owners: Mutex::new(HashMap::new()),
            limits: Mutex::new(StoreLimits::default()),
            checkpointer: None,
        }
    }

    /// Set the size ceiling and the per-caller cap.
    pub fn set_limits(&self, limits: StoreLimits) {
        *self.limits.lock().unwrap_or_else(|e| e.into_inner()) = limits;
    }

    fn limits(&self) -> StoreLimits {
        *self.limits.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(crate) fn lock(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn owners(&self) -> std::sync::MutexGuard<'_, HashMap<String, u64>> {
        self.owners.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Checkpoint the WAL into the main file and empty it (on shutdown). While the
    /// background checkpoint runs this one is busy, so it tries again for up to a second.
    pub fn checkpoint(&self) {
        let conn = self.lock();
        for _ in 0..50 {
            match conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| {
                r.get::<_, i64>(0)
            }) {
                Ok(0) => return,
                Ok(_busy) => std::thread::sleep(std::time::Duration::from_millis(20)),
                Err(e) => {
                    tracing::warn!(error = %e, "checkpoint failed");
                    return;
                }
            }
        }
        tracing::warn!("checkpoint still busy after a second: the WAL is left for the next start");
    }

    /// Bytes in use (pages not on the free list).
    fn used_bytes(conn: &Connection) -> Result<u64, StoreError> {
        let pages: i64 = conn.query_row("PRAGMA page_count", [], |r| r.get(0))?;
        let free: i64 = conn.query_row("PRAGMA freelist_count", [], |r| r.get(0))?;
        let size: i64 = conn.query_row("PRAGMA page_size", [], |r| r.get(0))?;
        Ok(((pages - free).max(0) * size) as u64)
    }

    /// Delete the rows `select` (a rowid query with `?1`, `?2` bound to `a`, `b`)
    /// names, in one statement; returns how many, and forgets their owners' counts.
    fn delete_batch(
        &self,
        select: &str,
        a: &dyn rusqlite::ToSql,
        b: &dyn rusqlite::ToSql,
    ) -> Result<usize, StoreError> {
        self.delete_rows(&self.lock(), select, a, b)
    }

    /// [`Self::delete_batch`] on `conn` (the store's connection, locked by the caller, or
    /// a transaction on it).
    fn delete_rows(
        &self,
        conn: &Connection,
        select: &str,
        a: &dyn rusqlite::ToSql,
        b: &dyn rusqlite::ToSql,
    ) -> Result<usize, StoreError> {
        let mut stmt = conn.prepare_cached(&format!(
            "DELETE FROM tasks WHERE rowid IN ({select}) RETURNING owner"
        ))?;
        let owners: Vec<String> = stmt
            .query_map(params![a, b], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        let mut counts = self.owners();
        for o in &owners {
            if let Some(n) = counts.get_mut(o) {
                *n = n.saturating_sub(1);
            }
        }
        Ok(owners.len())
    }

    /// Free pages kept for the next writes (new rows reuse them): a tenth of the file, and
    /// at most a tenth of the ceiling. Vacuuming them would only make the file grow again,
    /// with a checkpoint each time, which stalls the writes.
    fn free_reserve(&self, conn: &Connection) -> Result<i64, StoreError> {
        let pages: i64 = conn.query_row("PRAGMA page_count", [], |r| r.get(0))?;
        let size: i64 = conn.query_row("PRAGMA page_size", [], |r| r.get(0))?;
        let ceiling = (self.limits().max_bytes / size.max(1) as u64) as i64;
        Ok((pages / 10).min(ceiling / 10))
    }

    /// Give free pages beyond the reserve back, a step at a time; returns how many.
    fn vacuum_some(&self, max_steps: usize) -> Result<u64, StoreError> {
        let mut done = 0;
        for _ in 0..max_steps {
            let conn = self.lock();
            let free: i64 = conn.query_row("PRAGMA freelist_count", [], |r| r.get(0))?;
            let excess = free - self.free_reserve(&conn)?;
            if excess <= 0 {
                break;
            }
            let step = (excess as u64).min(VACUUM_STEP);
            // Each step of the statement frees one page: step it to the end
            // (`execute_batch` would step it once).
            let mut stmt = conn.prepare(&format!("PRAGMA incremental_vacuum({step})"))?;
            let mut rows = stmt.query([])?;
            while rows.next()?.is_some() {}
            drop(rows);
            drop(stmt);
            done += step;
            drop(conn);
            std::thread::yield_now();
        }
        if done > 0 {
            // Let the shrunken main file reach the disk and cut the WAL back.
            let _ = self.lock().execute_batch("PRAGMA wal_checkpoint(PASSIVE);");
        }
        Ok(done)
    }

    /// Stored tasks of `owner` (counted once, then kept up to date).
    fn owner_count(&self, conn: &Connection, owner: &str) -> Result<u64, StoreError> {
        if let Some(n) = self.owners().get(owner) {
            return Ok(*n);
        }
        let n: i64 = conn.query_row(
            "SELECT COUNT(*) FROM tasks WHERE owner = ?1",
            params![owner],
            |r| r.get(0),
        )?;
        let n = n.max(0) as u64;
        let mut owners = self.owners();
        if owners.len() > 100_000 {
            owners.clear();
        }
        owners.insert(owner.to_string(), n);
        Ok(n)
    }
    /// Update or insert one row (`task` is the encoded task); returns how many tasks the
    /// owner has over the cap, when over it.
    fn write(
        &self,
        conn: &Connection,
        rec: &TaskRecord,
        task: rusqlite::types::Value,
    ) -> Result<Option<i64>, StoreError> {
        let updated = conn
            .prepare_cached(
                "UPDATE tasks SET state = ?2, expires_at = ?3, task_json = ?4 WHERE id = ?1",
            )?
            .execute(params![
                rec.task.id,
                rec.state().as_str(),
                ms(rec.expires_at),
                task
            ])?;
        if updated > 0 {
            return Ok(None);
        }
        let before = self.owner_count(conn, &rec.owner)?;
        conn.prepare_cached(
            "INSERT OR REPLACE INTO tasks (id, owner, skill, state, created_at, expires_at, task_json, statuses_json)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, '[]')",
        )?
        .execute(params![
            rec.task.id,
            rec.owner,
            rec.skill,
            rec.state().as_str(),
            ms(rec.created_at),
            ms(rec.expires_at),
            task
        ])?;
        let count = before + 1;
        if let Some(n) = self.owners().get_mut(&rec.owner) {
            *n = count;
        }
        let cap = self.limits().max_per_caller.max(1);
        let slack = cap / EVICT_SLACK_DIVISOR;
        Ok((count > cap).then(|| (count - cap + slack) as i64))
    }

    /// Over the caller's cap: its oldest finished tasks go, in the transaction (`conn`) that
    /// stored the write which went over it.
    fn evict_over_cap(
        &self,
        conn: &Connection,
        owner: &str,
        excess: i64,
    ) -> Result<(), StoreError> {
        self.delete_rows(
            conn,
            &format!(
                "SELECT rowid FROM tasks WHERE owner = ?1 AND state IN {TERMINAL} ORDER BY created_at LIMIT ?2"
            ),
            &owner,
            &excess,
        )?;
        Ok(())
    }
}

fn encode(task: &Task) -> Result<rusqlite::types::Value, StoreError> {
    let json = storage_json(task)?;
    if json.len() <= DEFLATE_ABOVE {
        // serde_json writes UTF-8
        return Ok(match String::from_utf8(json) {
            Ok(s) => rusqlite::types::Value::Text(s),
            Err(e) => rusqlite::types::Value::Blob(deflate(e.as_bytes())?),
        });
    }
    Ok(rusqlite::types::Value::Blob(deflate(&json)?))
}

fn deflate(json: &[u8]) -> Result<Vec<u8>, StoreError> {
    let mut z = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
    z.write_all(json).map_err(StoreError::Io)?;
    z.finish().map_err(StoreError::Io)
}

fn decode(v: rusqlite::types::Value) -> Result<Task, StoreError> {
    match v {
        rusqlite::types::Value::Text(s) => Ok(serde_json::from_str(&s)?),
        rusqlite::types::Value::Blob(b) => {
            let mut json = Vec::new();
            flate2::read::DeflateDecoder::new(&b[..])
                .take(64 * 1024 * 1024)
                .read_to_end(&mut json)
                .map_err(StoreError::Io)?;
            Ok(serde_json::from_slice(&json)?)
        }
        _ => Err(StoreError::Io(std::io::Error::other(
            "a stored task is neither text nor blob",
        ))),
    }
}

/// How long a push config may wait for its task to be stored before upkeep deletes it.
pub const ORPHAN_CONFIG_GRACE_MS: i64 = 60 * 60 * 1000;

/// A store made before push configs had a creation time gets the column (its rows get 0:
/// past the grace at once, as they were before).
fn add_config_times(conn: &Connection) -> Result<(), StoreError> {
    let has: i64 = conn.query_row(
        "SELECT COUNT(*) FROM pragma_table_info('push_configs') WHERE name = 'created_at'",
        [],
        |r| r.get(0),
    )?;
    if has == 0 {
        conn.execute_batch(
            "ALTER TABLE push_configs ADD COLUMN created_at INTEGER NOT NULL DEFAULT 0;",
        )?;
    }
    Ok(())
}

fn ms(t: DateTime<Utc>) -> i64 {
    t.timestamp_millis()
}

fn from_ms(v: i64) -> DateTime<Utc> {
    Utc.timestamp_millis_opt(v).single().unwrap_or_default()
}

impl TaskStore for SqliteStore {
    fn put(&self, rec: &TaskRecord) -> Result<(), StoreError> {
        self.put_batch(std::slice::from_ref(rec))
    }

    fn list(
        &self,
        owner: &str,
        query: &TaskListQuery,
        now: DateTime<Utc>,
    ) -> Result<TaskPage, StoreError> {
        let state = query.state.map(|s| s.as_str().to_string());
        let (after_ms, after_id) = match &query.after {
            Some(c) => (c.created_ms, c.id.clone()),
            None => (i64::MAX, String::new()),
        };
        let conn = self.lock();
        let mut stmt = conn.prepare_cached(
            "SELECT id, skill, created_at, expires_at, task_json FROM tasks
             WHERE owner = ?1 AND expires_at > ?2 AND (?3 IS NULL OR state = ?3)
               AND (created_at < ?4 OR (created_at = ?4 AND id < ?5))
             ORDER BY created_at DESC, id DESC LIMIT ?6",
        )?;
        let want = query.page_size.max(1);
        let scan = if query.context_id.is_some() {
            LIST_SCAN_LIMIT
        } else {
            want + 1
        };
        let rows = stmt.query_map(
            params![owner, ms(now), state, after_ms, after_id, scan as i64],
            |r| {
                Ok((
                    r.get::<_, String>(1)?,
                    r.get::<_, i64>(2)?,
                    r.get::<_, i64>(3)?,
                    r.get::<_, rusqlite::types::Value>(4)?,
                ))
            },
        )?;
        let mut tasks = Vec::new();
        let mut matched = 0usize;
        for row in rows {
            let (skill, created, expires, task_json) = row?;
            let task = decode(task_json)?;
            if query
                .context_id
                .as_ref()
                .is_some_and(|c| *c != task.context_id)
            {
                continue;
            }
            matched += 1;
            if tasks.len() == want {
                continue;
            }
            tasks.push(TaskRecord {
                task,
                owner: owner.to_string(),
                skill,
                created_at: from_ms(created),
                expires_at: from_ms(expires),
                status_history: Vec::new(),
            });
        }
        let more = matched > tasks.len();
        let next = if more {
            tasks.last().map(|t| TaskCursor {
                created_ms: ms(t.created_at),
                id: t.task.id.clone(),
            })
        } else {
            None
        };
        let total = if query.context_id.is_some() {
            // The context lives inside the stored task: counted over the rows read (at most
            // LIST_SCAN_LIMIT after the cursor).
            matched as u64
        } else {
            conn.prepare_cached(
                "SELECT COUNT(*) FROM tasks WHERE owner = ?1 AND expires_at > ?2 AND (?3 IS NULL OR state = ?3)",
            )?
            .query_row(params![owner, ms(now), state], |r| r.get::<_, i64>(0))? as u64
        };
        Ok(TaskPage { tasks, next, total })
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
                        r.get::<_, rusqlite::types::Value>(3)?,
                        r.get::<_, String>(4)?,
                    ))
                },
            )
            .optional()?;
        let Some((skill, created, expires, task_json, statuses)) = row else {
            return Ok(None);
        };
        Ok(Some(TaskRecord {
            task: decode(task_json)?,
            owner: owner.to_string(),
            skill,
            created_at: from_ms(created),
            expires_at: from_ms(expires),
            // Not kept any more (older rows may still have it).
            status_history: serde_json::from_str(&statuses).unwrap_or_default(),
        }))
    }

    fn purge_expired(&self, now: DateTime<Utc>) -> Result<usize, StoreError> {
        let mut total = 0;
        loop {
            let n = self.delete_batch(
                "SELECT rowid FROM tasks WHERE expires_at <= ?1 LIMIT ?2",
                &ms(now),
                &(BATCH as i64),
            )?;
            total += n;
            if n < BATCH {
                return Ok(total);
            }
            // Let requests at the store between batches.
            std::thread::yield_now();
        }
    }

    fn maintain(&self, now: DateTime<Utc>) -> Result<Maintenance, StoreError> {
        let expired = self.purge_expired(now)?;
        let max = self.limits().max_bytes;
        let mut evicted = 0;
        // Past 90 % of the ceiling, evict the oldest finished tasks down to 80 %
        // (room for the writes until the next pass and for the WAL).
        if Self::used_bytes(&self.lock())? > max / 10 * 9 {
            let target = max / 10 * 8;
            loop {
                let used = Self::used_bytes(&self.lock())?;
                if used <= target {
                    break;
                }
                // about as many rows as the excess holds (at most a batch), so that large
                // rows do not overshoot the target by a whole batch
                let rows: i64 = self
                    .lock()
                    .query_row("SELECT COUNT(*) FROM tasks", [], |r| r.get(0))?;
                let per_row = (used / rows.max(1) as u64).max(1);
                let n = ((used - target) / per_row + 1).min(BATCH as u64) as i64;
                let k = self.delete_batch(
                    &format!(
                        "SELECT rowid FROM tasks WHERE state IN {TERMINAL} ORDER BY created_at LIMIT ?2"
                    ),
                    &0i64,
                    &n,
                )?;
                evicted += k;
                if k == 0 {
                    break;
                }
                std::thread::yield_now();
            }
        }
        // Push configs of tasks that are gone go with them, past a grace period: a blocking
        // send attaches its webhook before the task's only write, at the end of its run.
        self.lock().execute(
            "DELETE FROM push_configs WHERE created_at < ?1 AND task_id NOT IN (SELECT id FROM tasks)",
            [ms(now) - ORPHAN_CONFIG_GRACE_MS],
        )?;
        // Free pages beyond the reserve go back, a step at a time.
        let vacuumed_pages = self.vacuum_some(usize::MAX)?;
        Ok(Maintenance {
            expired,
            evicted,
            vacuumed_pages,
        })
    }

    fn size_bytes(&self) -> Option<u64> {
        let conn = self.lock();
        let pages: i64 = conn.query_row("PRAGMA page_count", [], |r| r.get(0)).ok()?;
        let size: i64 = conn.query_row("PRAGMA page_size", [], |r| r.get(0)).ok()?;
        Some((pages.max(0) * size.max(0)) as u64)
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
        let rows: Vec<(String, String)> = {
            let conn = self.lock();
            let mut stmt = conn
                .prepare("SELECT id, owner FROM tasks WHERE state IN ('submitted', 'working')")?;
            let rows = stmt
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<Result<_, _>>()?;
            rows
        };
        let mut n = 0;
        for (id, owner) in rows {
            if let Some(mut rec) = self.get(&id, &owner, now)? {
                super::failed_by_restart(&mut rec, now);
                self.put(&rec)?;
                n += 1;
            }
        }
        Ok(n)
    }

    fn after_batch(&self) {
        let wanted = self
            .checkpointer
            .as_ref()
            .is_some_and(Checkpointer::take_restart_wanted);
        if wanted {
            // Between two commits, and the background checkpoints copied nearly all of it:
            // this one completes the copy, so the next commit starts the WAL over.
            let conn = self.lock();
            // (busy, pages in the WAL, pages of it now in the main file)
            match conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| r.get::<_, i64>(0)) {
                Ok(0) => {}
                Ok(_) => {
                    // Another checkpoint held the copy: try again after the next batch.
                    if let Some(c) = &self.checkpointer {
                        c.restart_again();
                    }
                }
                Err(e) => tracing::debug!(error = %e, "WAL restart checkpoint skipped"),
            }
        }
    }

    fn put_batch(&self, recs: &[TaskRecord]) -> Result<(), StoreError> {
        let encoded = recs
            .iter()
            .map(|r| encode(&r.task))
            .collect::<Result<Vec<_>, _>>()?;
        // One commit for the batch and the evictions it causes: a caller's count never
        // stays over the cap in the file, and the deletes cost no commit of their own.
        let mut conn = self.lock();
        let stored = (|| {
            let tx = conn.transaction()?;
            for (rec, task) in recs.iter().zip(encoded) {
                if let Some(excess) = self.write(&tx, rec, task)? {
                    self.evict_over_cap(&tx, &rec.owner, excess)?;
                }
            }
            tx.commit().map_err(StoreError::from)
        })();
        if stored.is_err() {
            // The counts moved with a transaction that rolled back: count again.
            self.owners().clear();
        }
        stored
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ecclesia_a2a::{Artifact, Message, Part, Role, TaskState, TaskStatus};
    use ecclesia_state::stored::compact_for_storage;

    fn rec(id: &str, owner: &str, state: TaskState, at: DateTime<Utc>, text: &str) -> TaskRecord {
        let status = TaskStatus {
            state,
            message: None,
            timestamp: None,
        };
        TaskRecord {
            task: Task {
                id: id.into(),
                context_id: "c".into(),
                status: status.clone(),
                history: Some(vec![Message {
                    message_id: "m".into(),
                    role: Role::User,
                    parts: vec![Part::text(text)],
                    task_id: None,
                    context_id: None,
                    metadata: None,
                    extensions: None,
                    reference_task_ids: None,
                }]),
                artifacts: Some(vec![Artifact {
                    artifact_id: format!("a-{id}"),
                    name: None,
                    description: None,
                    parts: vec![Part::text(text)],
                    metadata: None,
                    extensions: None,
                }]),
                metadata: None,
            },
            owner: owner.into(),
            skill: "echo".into(),
            created_at: at,
            expires_at: at + chrono::Duration::hours(1),
            status_history: vec![status],
        }
    }

    /// Text that deflate cannot shrink much.
    fn noise(n: usize, seed: u64) -> String {
        let mut x = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
        (0..n)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                char::from(b'a' + ((x >> 33) % 26) as u8)
            })
            .collect()
    }

    fn count(db: &SqliteStore, sql: &str) -> i64 {
        db.lock().query_row(sql, [], |r| r.get(0)).unwrap()
    }

    #[test]
    fn rows_round_trip_as_text_or_deflated_and_without_the_status_history() {
        let db = SqliteStore::in_memory().unwrap();
        let now = Utc::now();
        let r = rec("t1", "o", TaskState::Completed, now, "hello");
        db.put(&r).unwrap();
        let back = db.get("t1", "o", now).unwrap().unwrap();
        assert_eq!(back.task, r.task);
        assert!(back.status_history.is_empty());
        assert!(db.get("t1", "someone else", now).unwrap().is_none());
        let kind: String = db
            .lock()
            .query_row("SELECT typeof(task_json) FROM tasks", [], |r| r.get(0))
            .unwrap();
        assert_eq!(kind, "text");
        // A big task is deflated, and reads back the same.
        let big = rec(
            "t2",
            "o",
            TaskState::Completed,
            now,
            &noise(DEFLATE_ABOVE, 7),
        );
        db.put(&big).unwrap();
        let kind: String = db
            .lock()
            .query_row(
                "SELECT typeof(task_json) FROM tasks WHERE id = 't2'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(kind, "blob");
        let stored = compact_for_storage(&big.task);
        assert!(db.get("t2", "o", now).unwrap().unwrap().task == stored);
        db.lock()
            .execute("DELETE FROM tasks WHERE id = 't2'", [])
            .unwrap();
        db.owners().clear();
        // An update keeps the row (and the owner's count).
        db.put(&rec("t1", "o", TaskState::Failed, now, "bye"))
            .unwrap();
        assert_eq!(count(&db, "SELECT COUNT(*) FROM tasks"), 1);
        assert_eq!(
            db.get("t1", "o", now).unwrap().unwrap().state(),
            TaskState::Failed
        );
    }

    #[test]
    fn big_user_messages_are_shortened_in_storage() {
        let db = SqliteStore::in_memory().unwrap();
        let now = Utc::now();
        let big = "é".repeat(20_000);
        db.put(&rec("t", "o", TaskState::Completed, now, &big))
            .unwrap();
        let back = db.get("t", "o", now).unwrap().unwrap();
        let Part::Text { text, .. } = &back.task.history.unwrap()[0].parts[0] else {
            panic!("not text")
        };
        assert!(text.len() < 3 * 1024, "{}", text.len());
        assert!(text.contains("shortened in storage: 40000 bytes"), "{text}");
        // The artifact (what the skill answered) is kept whole.
        let Part::Text { text, .. } = &back.task.artifacts.unwrap()[0].parts[0] else {
            panic!("not text")
        };
        assert_eq!(text.len(), big.len());
    }

    #[test]
    fn the_per_caller_cap_drops_that_callers_oldest_finished_tasks() {
        let db = SqliteStore::in_memory().unwrap();
        db.set_limits(StoreLimits {
            max_per_caller: 3,
            ..StoreLimits::default()
        });
        let t0 = Utc::now();
        db.put(&rec("running", "a", TaskState::Working, t0, "x"))
            .unwrap();
        for i in 0..5 {
            let at = t0 + chrono::Duration::seconds(i + 1);
            db.put(&rec(&format!("a{i}"), "a", TaskState::Completed, at, "x"))
                .unwrap();
        }
        db.put(&rec("b0", "b", TaskState::Completed, t0, "x"))
            .unwrap();
        let now = t0 + chrono::Duration::seconds(10);
        assert!(db.get("running", "a", now).unwrap().is_some());
        for gone in ["a0", "a1", "a2"] {
            assert!(db.get(gone, "a", now).unwrap().is_none(), "{gone}");
        }
        for kept in ["a3", "a4"] {
            assert!(db.get(kept, "a", now).unwrap().is_some(), "{kept}");
        }
        assert!(db.get("b0", "b", now).unwrap().is_some());
    }

    #[test]
    fn a_batch_over_the_cap_evicts_in_its_own_commit_and_keeps_its_new_tasks() {
        let db = SqliteStore::in_memory().unwrap();
        db.set_limits(StoreLimits {
            max_per_caller: 3,
            ..StoreLimits::default()
        });
        let t0 = Utc::now();
        let batch: Vec<_> = (0..6)
            .map(|i| {
                let at = t0 + chrono::Duration::seconds(i);
                rec(&format!("a{i}"), "a", TaskState::Completed, at, "x")
            })
            .collect();
        db.put_batch(&batch).unwrap();
        let now = t0 + chrono::Duration::seconds(10);
        let left = count(&db, "SELECT COUNT(*) FROM tasks WHERE owner = 'a'");
        assert_eq!(left, 3, "tasks left under a cap of 3");
        for kept in ["a3", "a4", "a5"] {
            assert!(db.get(kept, "a", now).unwrap().is_some(), "{kept}");
        }
        assert!(db.get("a0", "a", now).unwrap().is_none());
        // The count kept in memory agrees with the rows.
        assert_eq!(db.owners().get("a").copied(), Some(left as u64));
    }

    #[test]
    fn expiry_runs_in_batches_and_forgets_counts() {
        let db = SqliteStore::in_memory().unwrap();
        let t0 = Utc::now() - chrono::Duration::hours(2);
        for i in 0..(BATCH * 2 + 7) {
            db.put(&rec(&format!("t{i}"), "o", TaskState::Completed, t0, "x"))
                .unwrap();
        }
        let fresh = Utc::now();
        db.put(&rec("fresh", "o", TaskState::Completed, fresh, "x"))
            .unwrap();
        assert_eq!(db.purge_expired(Utc::now()).unwrap(), BATCH * 2 + 7);
        assert_eq!(count(&db, "SELECT COUNT(*) FROM tasks"), 1);
        assert_eq!(db.owners().get("o"), Some(&1));
    }

    #[test]
    fn the_size_ceiling_evicts_the_oldest_finished_tasks_and_the_file_shrinks() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.sqlite");
        let db = SqliteStore::open(&path).unwrap();
        let max = 2 * 1024 * 1024;
        db.set_limits(StoreLimits {
            max_bytes: max,
            ..StoreLimits::default()
        });
        let t0 = Utc::now();
        db.put(&rec("running", "o", TaskState::Working, t0, "x"))
            .unwrap();
        for i in 0..2000u64 {
            let at = t0 + chrono::Duration::milliseconds(i as i64 + 1);
            db.put(&rec(
                &format!("t{i}"),
                "o",
                TaskState::Completed,
                at,
                &noise(2000, i),
            ))
            .unwrap();
        }
        let before = db.size_bytes().unwrap();
        assert!(before > 2 * max, "{before}");
        let m = db.maintain(t0).unwrap();
        assert!(m.evicted > 0, "{m:?}");
        assert!(m.vacuumed_pages > 0, "{m:?}");
        let after = db.size_bytes().unwrap();
        assert!(after <= max + max / 10, "{after} > {max}");
        db.checkpoint();
        let on_disk = std::fs::metadata(&path).unwrap().len();
        assert!(on_disk <= max + max / 10, "file {on_disk} > {max}");
        // The newest and the unfinished are kept; the oldest went first.
        assert!(db.get("running", "o", t0).unwrap().is_some());
        assert!(db.get("t1999", "o", t0).unwrap().is_some());
        assert!(db.get("t0", "o", t0).unwrap().is_none());
    }

    #[test]
    fn under_steady_writes_the_wal_starts_over_instead_of_growing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.sqlite");
        let db = SqliteStore::open(&path).unwrap();
        db.set_limits(StoreLimits {
            max_per_caller: 2_000,
            ..StoreLimits::default()
        });
        let wal = path.with_file_name("state.sqlite-wal");
        let t0 = Utc::now();
        let mut largest = 0;
        // Commits back to back, so the background checkpoints never catch up by themselves:
        // only the restart asked for through `after_batch` keeps the WAL short (without it,
        // this WAL reached 66 MB; with it, 19 MB).
        for round in 0..12u64 {
            for b in 0..40u64 {
                let batch: Vec<_> = (0..25u64)
                    .map(|i| {
                        let n = (round * 40 + b) * 25 + i;
                        let at = t0 + chrono::Duration::milliseconds(n as i64);
                        rec(
                            &format!("t{n}"),
                            "o",
                            TaskState::Completed,
                            at,
                            &noise(600, n),
                        )
                    })
                    .collect();
                db.put_batch(&batch).unwrap();
                db.after_batch();
            }
            largest = largest.max(std::fs::metadata(&wal).map(|m| m.len()).unwrap_or(0));
        }
        let page = 4096 + 24;
        let bound = (super::super::checkpointer::RESTART_PAGES as u64 + 4_000) * page;
        assert!(
            largest < bound,
            "WAL grew to {largest} bytes (bound {bound})"
        );
        assert!(db.get("t11999", "o", t0).unwrap().is_some());
    }

    #[test]
    fn an_old_store_is_converted_to_incremental_vacuum_and_stays_readable() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.sqlite");
        let now = Utc::now();
        let r = rec("old", "o", TaskState::Completed, now, "from before");
        {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(SCHEMA).unwrap();
            conn.execute(
                "INSERT INTO tasks VALUES (?1, ?2, 'echo', 'completed', ?3, ?4, ?5, ?6)",
                params![
                    "old",
                    "o",
                    ms(now),
                    ms(r.expires_at),
                    serde_json::to_string(&r.task).unwrap(),
                    serde_json::to_string(&r.status_history).unwrap()
                ],
            )
            .unwrap();
            let av: i64 = conn
                .query_row("PRAGMA auto_vacuum", [], |r| r.get(0))
                .unwrap();
            assert_eq!(av, 0);
        }
        let db = SqliteStore::open(&path).unwrap();
        assert_eq!(count(&db, "PRAGMA auto_vacuum"), 2);
        let back = db.get("old", "o", now).unwrap().unwrap();
        assert_eq!(back.task, r.task);
        assert_eq!(back.status_history, r.status_history);
        drop(db);
        // Opening again does not convert again.
        let db = SqliteStore::open(&path).unwrap();
        assert_eq!(count(&db, "PRAGMA auto_vacuum"), 2);
    }
}

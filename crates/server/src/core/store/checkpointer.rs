//! [`Checkpointer`]: copies the WAL back into the main database file from its own thread and
//! connection, so that the task writer does not.
//!
//! In WAL mode a commit only appends pages to the WAL; a checkpoint copies them into the main
//! file and syncs both files. When the committing connection checkpoints (SQLite's
//! automatic checkpoint), every write waiting behind that commit waits for the copy and the
//! two `fsync`s too: under load those stalls were most of the p99. So the store's own
//! connection never checkpoints by itself (`wal_autocheckpoint = 0`, set only once this
//! thread runs); a thread with its own connection runs a PASSIVE checkpoint (it never blocks
//! readers or the writer) every [`INTERVAL`].
//!
//! The WAL starts over from its beginning only when a checkpoint has copied all of it before
//! the next commit, which under steady writes the background one rarely manages. So when the
//! WAL holds more than [`RESTART_PAGES`], this thread asks for a restart
//! ([`Checkpointer::take_restart_wanted`]): the write queue, after answering a batch, runs
//! one more checkpoint on the store's connection, between two commits, where it finds
//! nearly every page copied already; the next commit then starts the WAL over.

use super::StoreError;
use rusqlite::Connection;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::time::Duration;

/// Time between two checkpoints.
pub const INTERVAL: Duration = Duration::from_millis(200);
/// WAL pages past which the WAL is to start over (16 MiB).
pub const RESTART_PAGES: i64 = 4_096;

/// The checkpoint thread of one database (it ends when this is dropped).
pub struct Checkpointer {
    _stop: mpsc::Sender<()>,
    pages_copied: Arc<AtomicU64>,
    restart_wanted: Arc<AtomicBool>,
}

impl Checkpointer {
    /// Start checkpointing the database at `path` (already in WAL mode).
    pub fn start(path: &Path) -> Result<Self, StoreError> {
        let conn = Connection::open(path)?;
        conn.busy_timeout(Duration::from_millis(100))?;
        // A checkpoint syncs according to the connection that runs it.
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        let (stop, stopped) = mpsc::channel();
        let pages_copied = Arc::new(AtomicU64::new(0));
        let restart_wanted = Arc::new(AtomicBool::new(false));
        let (copied, wanted) = (pages_copied.clone(), restart_wanted.clone());
        std::thread::Builder::new()
            .name("wal-checkpoint".into())
            .spawn(move || run(conn, stopped, copied, wanted))
            .map_err(StoreError::Io)?;
        Ok(Checkpointer {
            _stop: stop,
            pages_copied,
            restart_wanted,
        })
    }

    /// Whether the WAL has grown past [`RESTART_PAGES`] without starting over (and forget
    /// the request: it is made again while the WAL stays that long).
    pub fn take_restart_wanted(&self) -> bool {
        self.restart_wanted.swap(false, Ordering::Relaxed)
    }

    /// WAL pages this thread has copied into the main file so far.
    pub fn pages_copied(&self) -> u64 {
        self.pages_copied.load(Ordering::Relaxed)
    }
}

fn run(
    conn: Connection,
    stopped: mpsc::Receiver<()>,
    copied: Arc<AtomicU64>,
    restart_wanted: Arc<AtomicBool>,
) {
    let mut last_checkpointed = 0i64;
    while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(INTERVAL) {
        // (busy, pages in the WAL, pages of it now in the main file)
        let result = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| {
            Ok((r.get::<_, i64>(1)?, r.get::<_, i64>(2)?))
        });
        match result {
            Ok((log, checkpointed)) => {
                // The WAL restarted (fewer pages than last time): count from its start.
                let before = if checkpointed < last_checkpointed || log < last_checkpointed {
                    0
                } else {
                    last_checkpointed
                };
                copied.fetch_add((checkpointed - before).max(0) as u64, Ordering::Relaxed);
                last_checkpointed = checkpointed.max(0);
                if log >= RESTART_PAGES {
                    restart_wanted.store(true, Ordering::Relaxed);
                }
            }
            Err(e) => tracing::debug!(error = %e, "background checkpoint skipped"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn committed_pages_are_copied_into_the_main_file_by_the_thread() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("db.sqlite");
        let conn = Connection::open(&path).unwrap();
        conn.pragma_update(None, "journal_mode", "WAL").unwrap();
        // Only the thread may checkpoint here.
        conn.pragma_update(None, "wal_autocheckpoint", 0).unwrap();
        conn.execute_batch("CREATE TABLE t (x BLOB)").unwrap();
        let ckpt = Checkpointer::start(&path).unwrap();
        for _ in 0..50 {
            conn.execute("INSERT INTO t VALUES (zeroblob(8000))", [])
                .unwrap();
        }
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while ckpt.pages_copied() < 100 && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(ckpt.pages_copied() >= 100, "{}", ckpt.pages_copied());
        // The rows are in the main file: a reader that ignores the WAL would see them.
        let (log, done): (i64, i64) = conn
            .query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| {
                Ok((r.get(1)?, r.get(2)?))
            })
            .unwrap();
        assert_eq!(log, done);
    }
}

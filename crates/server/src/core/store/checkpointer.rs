//! [`Checkpointer`]: copies the WAL back into the main database file from its own thread and
//! connection, so that the task writer does not.
//!
//! In WAL mode a commit only appends pages to the WAL; a checkpoint copies them into the main
//! file and syncs both files. When the committing connection checkpoints (SQLite's
//! automatic checkpoint), every write waiting behind that commit waits for the copy and the
//! two `fsync`s too: under load those stalls were most of the p99. So the store's own
//! connection never checkpoints by itself (`wal_autocheckpoint = 0`, set only once this
//! thread runs); a thread with its own connection runs a PASSIVE checkpoint (it never blocks
//! readers or the writer) every [`INTERVAL`] while commits arrive ([`IDLE_INTERVAL`] once
//! they stop).
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
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::time::Duration;

/// Time between two checkpoints while commits arrive. Short: a checkpoint's two `fsync`s
/// slow the writer's WAL appends while they run, and the fewer pages each copies, the
/// shorter they are (under load, p99 fell from 9.3 ms at 200 ms to 7.0–7.3 ms at 20 ms).
pub const INTERVAL: Duration = Duration::from_millis(20);
/// Time between two checkpoints once the WAL has stopped growing (an idle server).
pub const IDLE_INTERVAL: Duration = Duration::from_millis(200);
/// Rounds this thread leaves to the write queue's restart checkpoint before it checkpoints
/// again itself.
const MAX_DEFERRED: u32 = 5;
/// WAL pages past which the WAL is to start over (16 MiB).
pub const RESTART_PAGES: i64 = 4_096;

/// The checkpoint thread of one database (it ends when this is dropped).
pub struct Checkpointer {
    _stop: mpsc::Sender<()>,
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
        let restart_wanted = Arc::new(AtomicBool::new(false));
        let wanted = restart_wanted.clone();
        std::thread::Builder::new()
            .name("wal-checkpoint".into())
            .spawn(move || run(conn, stopped, wanted))
            .map_err(StoreError::Io)?;
        Ok(Checkpointer {
            _stop: stop,
            restart_wanted,
        })
    }

    /// Whether the WAL has grown past [`RESTART_PAGES`] without starting over (and forget
    /// the request: it is made again while the WAL stays that long).
    pub fn take_restart_wanted(&self) -> bool {
        self.restart_wanted.swap(false, Ordering::Relaxed)
    }

    /// Ask for the restart again (the last try found this thread's checkpoint running).
    pub fn restart_again(&self) {
        self.restart_wanted.store(true, Ordering::Relaxed);
    }
}

fn run(conn: Connection, stopped: mpsc::Receiver<()>, restart_wanted: Arc<AtomicBool>) {
    let mut wait = IDLE_INTERVAL;
    let mut last_log = -1;
    let mut deferred = 0;
    while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(wait) {
        if restart_wanted.load(Ordering::Relaxed) && deferred < MAX_DEFERRED {
            // The write queue's restart checkpoint is due: running one here now would only
            // make it find a checkpoint in progress and skip. (Not for long: with no more
            // writes, the queue never runs it, and the WAL must still reach the main file.)
            deferred += 1;
            continue;
        }
        deferred = 0;
        // (busy, pages in the WAL, pages of it now in the main file)
        match conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| r.get::<_, i64>(1)) {
            Ok(log) => {
                if log >= RESTART_PAGES {
                    restart_wanted.store(true, Ordering::Relaxed);
                }
                wait = if log == last_log {
                    IDLE_INTERVAL
                } else {
                    INTERVAL
                };
                last_log = log;
            }
            Err(e) => tracing::debug!(error = %e, "background checkpoint skipped"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn committed_pages_reach_the_main_file_without_a_checkpoint_by_the_writer() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("db.sqlite");
        let conn = Connection::open(&path).unwrap();
        conn.pragma_update(None, "journal_mode", "WAL").unwrap();
        // Only the thread may checkpoint here.
        conn.pragma_update(None, "wal_autocheckpoint", 0).unwrap();
        conn.execute_batch("CREATE TABLE t (x BLOB)").unwrap();
        let size = || std::fs::metadata(&path).unwrap().len();
        let empty = size();
        let _ckpt = Checkpointer::start(&path).unwrap();
        for _ in 0..50 {
            conn.execute("INSERT INTO t VALUES (zeroblob(8000))", [])
                .unwrap();
        }
        // 50 rows of 8,000 bytes: the main file grows only when a checkpoint copies them.
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while size() < empty + 400_000 && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(size() >= empty + 400_000, "main file {} bytes", size());
    }
}

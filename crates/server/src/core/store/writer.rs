//! [`TaskWriter`]: the write queue in front of a [`TaskStore`], with group commit.
//!
//! Every task change the core persists goes through here. One writer thread takes the
//! writes waiting in the queue (up to [`MAX_BATCH`]) and stores them with one
//! [`TaskStore::put_batch`] (one transaction in SQLite); each writer is answered only after
//! its batch is committed, so a caller never hears of a task that is not stored. Under load
//! the batches grow and the commits per request fall; alone, a write is a batch of one.
//! When the last batch held more than one write (writers are arriving together), the thread
//! waits [`GATHER`] before taking the next one: a commit costs about the same for one task as
//! for ten, so waiting that long for more company costs less than committing them one by one.
//! The queue is bounded ([`QUEUE`]): when it is full, writers wait for room.

use super::{TaskRecord, TaskStore};
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot};

/// Writes waiting at most (then writers wait).
pub const QUEUE: usize = 4096;
/// Writes committed together at most.
pub const MAX_BATCH: usize = 256;
/// How long a batch waits for more writes when the last one was not alone.
pub const GATHER: std::time::Duration = std::time::Duration::from_micros(300);

type Reply = oneshot::Sender<Result<(), String>>;

/// The write queue (cheap to clone).
#[derive(Clone)]
pub struct TaskWriter {
    tx: mpsc::Sender<(TaskRecord, Reply)>,
}

impl std::fmt::Debug for TaskWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TaskWriter")
    }
}

impl TaskWriter {
    /// A queue writing into `store` from its own thread (which ends when the last clone of
    /// the writer is dropped).
    pub fn new(store: Arc<dyn TaskStore>) -> Self {
        let (tx, rx) = mpsc::channel(QUEUE);
        let spawned = std::thread::Builder::new()
            .name("task-writer".into())
            .spawn(move || write_loop(store, rx));
        if let Err(e) = spawned {
            // Without a thread every write fails (and says so) rather than hang.
            tracing::error!(error = %e, "the task writer thread could not start");
        }
        TaskWriter { tx }
    }

    /// Store `rec`; resolves once it is committed.
    pub async fn put(&self, rec: TaskRecord) -> Result<(), String> {
        let (reply, done) = oneshot::channel();
        self.tx
            .send((rec, reply))
            .await
            .map_err(|_| "the task writer has stopped".to_string())?;
        done.await
            .map_err(|_| "the task writer has stopped".to_string())?
    }
}

fn write_loop(store: Arc<dyn TaskStore>, mut rx: mpsc::Receiver<(TaskRecord, Reply)>) {
    let mut recs = Vec::with_capacity(MAX_BATCH);
    let mut replies = Vec::with_capacity(MAX_BATCH);
    let mut in_company = false;
    while let Some((rec, reply)) = rx.blocking_recv() {
        recs.push(rec);
        replies.push(reply);
        if in_company {
            std::thread::sleep(GATHER);
        }
        while recs.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok((rec, reply)) => {
                    recs.push(rec);
                    replies.push(reply);
                }
                Err(_) => break,
            }
        }
        let result = store.put_batch(&recs).map_err(|e| e.to_string());
        in_company = recs.len() > 1;
        for reply in replies.drain(..) {
            let _ = reply.send(result.clone());
        }
        recs.clear();
        store.after_batch();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::store::SqliteStore;
    use ecclesia_a2a::{Task, TaskState, TaskStatus};

    fn rec(id: &str) -> TaskRecord {
        let now = chrono::Utc::now();
        TaskRecord {
            task: Task {
                id: id.into(),
                context_id: "c".into(),
                status: TaskStatus {
                    state: TaskState::Completed,
                    message: None,
                    timestamp: None,
                },
                history: None,
                artifacts: None,
                metadata: None,
            },
            owner: "o".into(),
            skill: "echo".into(),
            created_at: now,
            expires_at: now + chrono::Duration::hours(1),
            status_history: Vec::new(),
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn every_acknowledged_write_is_stored() {
        let db = Arc::new(SqliteStore::in_memory().unwrap());
        let writer = TaskWriter::new(db.clone());
        let writes: Vec<_> = (0..500)
            .map(|i| {
                let w = writer.clone();
                tokio::spawn(async move { w.put(rec(&format!("t{i}"))).await })
            })
            .collect();
        for w in writes {
            w.await.unwrap().unwrap();
        }
        let now = chrono::Utc::now();
        assert_eq!(db.count(now).unwrap(), 500);
        assert!(db.get("t499", "o", now).unwrap().is_some());
    }
}

//! Replica leases. Every replica renews `replicas.seen_at` (database time) each heartbeat;
//! the tasks it holds (`tasks.replica`, set while a task is unfinished) are safe while its
//! lease is younger than the lease length. Any live replica marks the unfinished tasks of a
//! replica whose lease ran out (it was killed, lost its network, hung) as `failed`, so no task
//! stays `working` forever; a replica that restarts gets a new id and rejoins.

use crate::codec::{decode, encode};
use crate::store::{PgError, PgStore};
use chrono::{DateTime, Utc};
use deadpool_postgres::Pool;
use ecclesia_a2a::{Message, Part, Role, TaskState, TaskStatus};
use std::time::Duration;

/// What a task failed by a lease says to its caller.
pub const LEASE_LOST: &str =
    "the server running this task stopped before it finished; please send it again";

/// Renew this replica's lease now, then every heartbeat on the driver's runtime, and fail
/// the tasks of dead replicas; stops when the store is dropped.
pub(crate) fn start(store: &PgStore) -> Result<(), PgError> {
    let (pool, replica) = (store.pool.clone(), store.replica.clone());
    let first = (pool.clone(), replica.clone());
    store.call(async move { renew(&first.0, &first.1).await })?;
    let (lease, every) = (store.options.lease, store.options.heartbeat);
    store.bridge.handle().spawn(async move {
        let mut tick = tokio::time::interval(every.max(Duration::from_millis(100)));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            let beat = async {
                renew(&pool, &replica).await?;
                fail_expired(&pool, lease, Utc::now()).await
            };
            match tokio::time::timeout(every.max(Duration::from_secs(1)) * 2, beat).await {
                Ok(Ok(0)) => {}
                Ok(Ok(n)) => tracing::warn!(
                    failed = n,
                    "tasks of a replica whose lease ran out were marked failed"
                ),
                Ok(Err(e)) => tracing::warn!(error = %e, "renewing the replica lease failed"),
                Err(_) => tracing::warn!("renewing the replica lease timed out"),
            }
        }
    });
    Ok(())
}

async fn renew(pool: &Pool, replica: &str) -> Result<(), PgError> {
    let client = pool.get().await?;
    client
        .execute(
            "INSERT INTO replicas (id) VALUES ($1) ON CONFLICT (id) DO UPDATE SET seen_at = now()",
            &[&replica],
        )
        .await?;
    Ok(())
}

/// Mark `failed` every unfinished task whose replica's lease is older than `lease` (or
/// that no replica holds); forget replicas dead for a day. Returns how many tasks failed.
pub async fn fail_expired(
    pool: &Pool,
    lease: Duration,
    now: DateTime<Utc>,
) -> Result<usize, PgError> {
    let client = pool.get().await?;
    let secs = lease.as_secs_f64();
    let rows = client
        .query(
            "SELECT t.id, t.task FROM tasks t
             WHERE t.state IN ('submitted', 'working')
               AND NOT EXISTS (SELECT 1 FROM replicas r WHERE r.id = t.replica
                               AND r.seen_at > now() - make_interval(secs => $1))
             LIMIT 1000",
            &[&secs],
        )
        .await?;
    let mut failed = 0;
    for row in rows {
        let id: String = row.get(0);
        let blob: Vec<u8> = row.get(1);
        let mut task = match decode(&blob) {
            Ok(t) => t,
            Err(e) => {
                tracing::warn!(task = %id, error = %e, "an unreadable task is left as it is");
                continue;
            }
        };
        task.status = TaskStatus {
            state: TaskState::Failed,
            message: Some(Message {
                message_id: format!("lease-{}", hex::encode(rand::random::<[u8; 8]>())),
                role: Role::Agent,
                parts: vec![Part::text(LEASE_LOST)],
                task_id: Some(task.id.clone()),
                context_id: Some(task.context_id.clone()),
                metadata: None,
                extensions: None,
                reference_task_ids: None,
            }),
            timestamp: Some(now.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)),
        };
        let blob = encode(&task)?;
        let bytes = i32::try_from(blob.len()).unwrap_or(i32::MAX);
        // Only if nobody finished it meanwhile (two replicas may sweep at once).
        failed += client
            .execute(
                "UPDATE tasks SET state = 'failed', task = $2, bytes = $3, replica = NULL
                 WHERE id = $1 AND state IN ('submitted', 'working')",
                &[&id, &blob, &bytes],
            )
            .await? as usize;
    }
    client
        .execute(
            "DELETE FROM replicas WHERE seen_at < now() - interval '1 day'",
            &[],
        )
        .await?;
    Ok(failed)
}

impl PgStore {
    /// The replicas whose lease is live now (id, seconds since their last renewal).
    pub fn live_replicas(&self) -> Result<Vec<(String, f64)>, PgError> {
        let pool = self.pool.clone();
        let secs = self.options.lease.as_secs_f64();
        self.call(async move {
            let client = pool.get().await?;
            let rows = client
                .query(
                    "SELECT id, EXTRACT(EPOCH FROM now() - seen_at)::float8 FROM replicas
                     WHERE seen_at > now() - make_interval(secs => $1) ORDER BY id",
                    &[&secs],
                )
                .await?;
            Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
        })
    }
}

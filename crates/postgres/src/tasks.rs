//! [`TaskStore`] on PostgreSQL, behaving as the SQLite store does: an update keeps the owner,
//! skill and creation time of the first write; a caller past its cap loses its oldest finished
//! tasks; expired tasks are invisible and purged in batches; lists are newest first with an
//! opaque cursor.

use crate::codec::{decode, encode};
use crate::store::{PgError, PgStore};
use chrono::{DateTime, TimeZone, Utc};
use ecclesia_state::{
    Maintenance, StoreError, TaskCursor, TaskListQuery, TaskPage, TaskRecord, TaskStore,
};

/// Rows deleted per statement.
const BATCH: i64 = 500;
/// States a task cannot leave (the SQLite store's eviction set).
const TERMINAL: &str = "('completed', 'canceled', 'failed', 'rejected', 'unknown')";

/// A batch of tasks as one array per column (the parameters of one `UNNEST` insert); a task
/// written twice in a batch keeps its last write, as one put after another would.
struct Rows {
    id: Vec<String>,
    owner: Vec<String>,
    skill: Vec<String>,
    state: Vec<&'static str>,
    context: Vec<String>,
    created: Vec<i64>,
    expires: Vec<i64>,
    task: Vec<Vec<u8>>,
    bytes: Vec<i32>,
    /// While a task is unfinished, the replica writing it holds it (see `lease`).
    replica: Vec<Option<String>>,
}

impl Rows {
    fn of(recs: &[TaskRecord], replica: &str) -> Result<Self, PgError> {
        let mut rows = Rows {
            id: Vec::with_capacity(recs.len()),
            owner: Vec::with_capacity(recs.len()),
            skill: Vec::with_capacity(recs.len()),
            state: Vec::with_capacity(recs.len()),
            context: Vec::with_capacity(recs.len()),
            created: Vec::with_capacity(recs.len()),
            expires: Vec::with_capacity(recs.len()),
            task: Vec::with_capacity(recs.len()),
            bytes: Vec::with_capacity(recs.len()),
            replica: Vec::with_capacity(recs.len()),
        };
        let mut seen = std::collections::HashSet::with_capacity(recs.len());
        // The last write of each task, in the batch's order otherwise.
        let last: Vec<&TaskRecord> = recs
            .iter()
            .rev()
            .filter(|r| seen.insert(r.task.id.as_str()))
            .collect();
        for rec in last.into_iter().rev() {
            let blob = encode(&rec.task)?;
            rows.bytes
                .push(i32::try_from(blob.len()).unwrap_or(i32::MAX));
            rows.task.push(blob);
            rows.id.push(rec.task.id.clone());
            rows.owner.push(rec.owner.clone());
            rows.skill.push(rec.skill.clone());
            rows.state.push(rec.state().as_str());
            rows.context.push(rec.task.context_id.clone());
            rows.created.push(ms(rec.created_at));
            rows.expires.push(ms(rec.expires_at));
            rows.replica
                .push((!rec.state().is_terminal()).then(|| replica.to_string()));
        }
        Ok(rows)
    }
}

pub(crate) fn ms(t: DateTime<Utc>) -> i64 {
    t.timestamp_millis()
}

pub(crate) fn from_ms(v: i64) -> DateTime<Utc> {
    Utc.timestamp_millis_opt(v).single().unwrap_or_default()
}

impl TaskStore for PgStore {
    fn put(&self, rec: &TaskRecord) -> Result<(), StoreError> {
        self.put_batch(std::slice::from_ref(rec))
    }

    /// One statement for the whole batch (all or none), then the cap of the callers that got
    /// new tasks, read from `task_owner_counts` (kept by triggers): two round trips for a
    /// batch of any size, where one `put` after another cost two or three per task and a
    /// `COUNT` over the caller's tasks each.
    fn put_batch(&self, recs: &[TaskRecord]) -> Result<(), StoreError> {
        if recs.is_empty() {
            return Ok(());
        }
        let rows = Rows::of(recs, &self.replica)?;
        let cap = i64::try_from(self.limits().max_per_caller.max(1)).unwrap_or(i64::MAX);
        let pool = self.pool.clone();
        Ok(self.call(async move {
            let mut client = pool.get().await?;
            let upsert = client
                .prepare_cached(
                    "INSERT INTO tasks (id, owner, skill, state, context_id, created_at, expires_at, task, bytes, replica)
                     SELECT * FROM UNNEST($1::text[], $2::text[], $3::text[], $4::text[], $5::text[],
                                          $6::int8[], $7::int8[], $8::bytea[], $9::int4[], $10::text[])
                     ON CONFLICT (id) DO UPDATE SET state = EXCLUDED.state, expires_at = EXCLUDED.expires_at,
                         task = EXCLUDED.task, bytes = EXCLUDED.bytes, replica = EXCLUDED.replica
                     RETURNING owner, (xmax = 0)",
                )
                .await?;
            let written = client
                .query(
                    &upsert,
                    &[
                        &rows.id, &rows.owner, &rows.skill, &rows.state, &rows.context,
                        &rows.created, &rows.expires, &rows.task, &rows.bytes, &rows.replica,
                    ],
                )
                .await?;
            let mut grew: Vec<String> = written
                .iter()
                .filter(|r| r.get::<_, bool>(1))
                .map(|r| r.get::<_, String>(0))
                .collect();
            grew.sort();
            grew.dedup();
            if grew.is_empty() {
                return Ok(());
            }
            let over = client
                .prepare_cached(
                    "SELECT owner, tasks FROM task_owner_counts WHERE owner = ANY($1) AND tasks > $2",
                )
                .await?;
            let mut over: Vec<String> = client
                .query(&over, &[&grew, &cap])
                .await?
                .iter()
                .map(|r| r.get(0))
                .collect();
            over.sort();
            for owner in over {
                // Over the caller's cap: its oldest finished tasks go. One eviction per caller
                // at a time, across replicas (its count row locked first): two deletes of the
                // same oldest rows, locked in different orders, would deadlock.
                let tx = client.transaction().await?;
                let n: i64 = tx
                    .query_one(
                        "SELECT tasks FROM task_owner_counts WHERE owner = $1 FOR UPDATE",
                        &[&owner],
                    )
                    .await?
                    .get(0);
                if n > cap {
                    let evict = tx
                        .prepare_cached(&format!(
                            "DELETE FROM tasks WHERE id IN (SELECT id FROM tasks WHERE owner = $1 AND state IN {TERMINAL}
                             ORDER BY created_at LIMIT $2)"
                        ))
                        .await?;
                    tx.execute(&evict, &[&owner, &(n - cap)]).await?;
                }
                tx.commit().await?;
            }
            Ok(())
        })?)
    }

    fn get(
        &self,
        id: &str,
        owner: &str,
        now: DateTime<Utc>,
    ) -> Result<Option<TaskRecord>, StoreError> {
        let (id, owner_s, now) = (id.to_string(), owner.to_string(), ms(now));
        let pool = self.pool.clone();
        let row = self.call(async move {
            let client = pool.get().await?;
            let stmt = client
                .prepare_cached(
                    "SELECT skill, created_at, expires_at, task FROM tasks
                     WHERE id = $1 AND owner = $2 AND expires_at > $3",
                )
                .await?;
            Ok(client.query_opt(&stmt, &[&id, &owner_s, &now]).await?)
        })?;
        let Some(row) = row else {
            return Ok(None);
        };
        let blob: Vec<u8> = row.get(3);
        Ok(Some(TaskRecord {
            task: decode(&blob).map_err(PgError::from)?,
            owner: owner.to_string(),
            skill: row.get(0),
            created_at: from_ms(row.get(1)),
            expires_at: from_ms(row.get(2)),
            status_history: Vec::new(),
        }))
    }

    fn list(
        &self,
        owner: &str,
        query: &TaskListQuery,
        now: DateTime<Utc>,
    ) -> Result<TaskPage, StoreError> {
        let state = query.state.map(|s| s.as_str().to_string());
        let context = query.context_id.clone();
        let (after_ms, after_id) = match &query.after {
            Some(c) => (c.created_ms, c.id.clone()),
            None => (i64::MAX, String::new()),
        };
        let want = query.page_size.max(1);
        let limit = i64::try_from(want).unwrap_or(i64::MAX - 1) + 1;
        let (owner_s, now) = (owner.to_string(), ms(now));
        let pool = self.pool.clone();
        let (rows, total) = self.call(async move {
            let client = pool.get().await?;
            let page = client
                .prepare_cached(
                    "SELECT id, skill, created_at, expires_at, task FROM tasks
                     WHERE owner = $1 AND expires_at > $2 AND ($3::text IS NULL OR state = $3)
                       AND ($4::text IS NULL OR context_id = $4)
                       AND (created_at < $5 OR (created_at = $5 AND id < $6))
                     ORDER BY created_at DESC, id DESC LIMIT $7",
                )
                .await?;
            let rows = client
                .query(
                    &page,
                    &[
                        &owner_s, &now, &state, &context, &after_ms, &after_id, &limit,
                    ],
                )
                .await?;
            let count = client
                .prepare_cached(
                    "SELECT COUNT(*) FROM tasks
                     WHERE owner = $1 AND expires_at > $2 AND ($3::text IS NULL OR state = $3)
                       AND ($4::text IS NULL OR context_id = $4)",
                )
                .await?;
            let total: i64 = client
                .query_one(&count, &[&owner_s, &now, &state, &context])
                .await?
                .get(0);
            Ok((rows, total))
        })?;
        let more = rows.len() > want;
        let mut tasks = Vec::with_capacity(want.min(rows.len()));
        for row in rows.iter().take(want) {
            let blob: Vec<u8> = row.get(4);
            tasks.push(TaskRecord {
                task: decode(&blob).map_err(PgError::from)?,
                owner: owner.to_string(),
                skill: row.get(1),
                created_at: from_ms(row.get(2)),
                expires_at: from_ms(row.get(3)),
                status_history: Vec::new(),
            });
        }
        let next = if more {
            tasks.last().map(|t| TaskCursor {
                created_ms: ms(t.created_at),
                id: t.task.id.clone(),
            })
        } else {
            None
        };
        Ok(TaskPage {
            tasks,
            next,
            total: total.max(0) as u64,
        })
    }

    fn purge_expired(&self, now: DateTime<Utc>) -> Result<usize, StoreError> {
        let now = ms(now);
        let pool = self.pool.clone();
        let mut total = 0;
        loop {
            let pool = pool.clone();
            let n = self.call(async move {
                let client = pool.get().await?;
                let stmt = client
                    .prepare_cached(
                        "DELETE FROM tasks WHERE id IN (SELECT id FROM tasks WHERE expires_at <= $1 LIMIT $2)",
                    )
                    .await?;
                Ok(client.execute(&stmt, &[&now, &BATCH]).await?)
            })?;
            total += n as usize;
            if (n as i64) < BATCH {
                return Ok(total);
            }
        }
    }

    fn maintain(&self, now: DateTime<Utc>) -> Result<Maintenance, StoreError> {
        if !self.upkeep_turn()? {
            // Another replica did it moments ago.
            return Ok(Maintenance::default());
        }
        let expired = self.purge_expired(now)?;
        let max = i64::try_from(self.limits().max_bytes).unwrap_or(i64::MAX);
        let pool = self.pool.clone();
        // The ceiling counts the stored tasks' bytes (PostgreSQL reuses freed space itself):
        // past 90 %, the oldest finished tasks go down to 80 %.
        let now_ms = ms(now);
        let evicted = self.call(async move {
            let client = pool.get().await?;
            crate::push::purge_orphans(&client, now_ms).await?;
            let used: i64 = client
                .query_one("SELECT COALESCE(SUM(bytes), 0)::BIGINT FROM tasks", &[])
                .await?
                .get(0);
            if used <= max / 10 * 9 {
                return Ok(0u64);
            }
            let target = max / 10 * 8;
            let evict = client
                .prepare_cached(&format!(
                    "DELETE FROM tasks WHERE id IN (
                         SELECT id FROM (
                             SELECT id, SUM(bytes) OVER (ORDER BY created_at, id) AS freed
                             FROM tasks WHERE state IN {TERMINAL}
                         ) oldest WHERE freed - bytes < $1 LIMIT $2)"
                ))
                .await?;
            // `freed - bytes`: the bytes freed before this row; delete while short of the goal.
            let mut evicted = 0;
            let mut short = used - target;
            while short > 0 {
                let n = client.execute(&evict, &[&short, &BATCH]).await?;
                if n == 0 {
                    break;
                }
                evicted += n;
                short = client
                    .query_one("SELECT COALESCE(SUM(bytes), 0)::BIGINT FROM tasks", &[])
                    .await?
                    .get::<_, i64>(0)
                    - target;
            }
            Ok(evicted)
        })?;
        Ok(Maintenance {
            expired,
            evicted: evicted as usize,
            vacuumed_pages: 0,
        })
    }

    fn size_bytes(&self) -> Option<u64> {
        let pool = self.pool.clone();
        self.call(async move {
            let client = pool.get().await?;
            let n: i64 = client
                .query_one("SELECT pg_total_relation_size('tasks')", &[])
                .await?
                .get(0);
            Ok(n.max(0) as u64)
        })
        .ok()
    }

    fn count(&self, now: DateTime<Utc>) -> Result<u64, StoreError> {
        let now = ms(now);
        let pool = self.pool.clone();
        let n: i64 = self.call(async move {
            let client = pool.get().await?;
            let stmt = client
                .prepare_cached("SELECT COUNT(*) FROM tasks WHERE expires_at > $1")
                .await?;
            Ok(client.query_one(&stmt, &[&now]).await?.get(0))
        })?;
        Ok(n.max(0) as u64)
    }

    /// Fails the unfinished tasks of replicas whose lease ran out (not those of live
    /// replicas, which share this database): see [`crate::lease`].
    fn fail_unfinished(&self, now: DateTime<Utc>) -> Result<usize, StoreError> {
        let pool = self.pool.clone();
        let lease = self.options.lease;
        Ok(self.call(async move { crate::lease::fail_expired(&pool, lease, now).await })?)
    }
}

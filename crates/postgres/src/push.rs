//! [`PushConfigStore`] on PostgreSQL: the webhooks of tasks, shared by every replica, so a
//! config set through one replica is read, listed, deleted and delivered to through any
//! other. Rows are the config's JSON, as in the embedded store; the configs of tasks that are
//! gone are deleted by upkeep ([`purge_orphans`]).

use crate::store::{PgError, PgStore};
use ecclesia_state::{PushConfig, PushConfigStore, StoreError};

/// A config younger than this is kept even without its task: a blocking send attaches the
/// config before the task's first (and only) write, at the end of its run.
pub(crate) const ORPHAN_GRACE_MS: i64 = 60 * 60 * 1000;

fn decode(json: &str) -> Result<PushConfig, StoreError> {
    Ok(serde_json::from_str(json)?)
}

fn decode_all(rows: &[tokio_postgres::Row]) -> Result<Vec<PushConfig>, StoreError> {
    rows.iter().map(|r| decode(r.get(0))).collect()
}

impl PgStore {
    /// Run one query of the push configs and return its rows.
    fn push_query(
        &self,
        sql: &'static str,
        args: Vec<String>,
    ) -> Result<Vec<tokio_postgres::Row>, StoreError> {
        let pool = self.pool.clone();
        Ok(self.call(async move {
            let client = pool.get().await?;
            let stmt = client.prepare_cached(sql).await?;
            let params: Vec<&(dyn tokio_postgres::types::ToSql + Sync)> = args
                .iter()
                .map(|a| a as &(dyn tokio_postgres::types::ToSql + Sync))
                .collect();
            Ok::<_, PgError>(client.query(&stmt, &params).await?)
        })?)
    }
}

impl PushConfigStore for PgStore {
    fn put_config(&self, config: &PushConfig) -> Result<(), StoreError> {
        let json = serde_json::to_string(config)?;
        let (task_id, id, owner) = (
            config.task_id.clone(),
            config.id.clone(),
            config.owner.clone(),
        );
        let now = chrono::Utc::now().timestamp_millis();
        let pool = self.pool.clone();
        self.call(async move {
            let client = pool.get().await?;
            let stmt = client
                .prepare_cached(
                    "INSERT INTO push_configs (task_id, id, owner, config, created_at)
                     VALUES ($1, $2, $3, $4, $5)
                     ON CONFLICT (task_id, id) DO UPDATE
                     SET owner = EXCLUDED.owner, config = EXCLUDED.config",
                )
                .await?;
            client
                .execute(&stmt, &[&task_id, &id, &owner, &json, &now])
                .await?;
            Ok(())
        })?;
        Ok(())
    }

    fn get_config(
        &self,
        owner: &str,
        task_id: &str,
        id: &str,
    ) -> Result<Option<PushConfig>, StoreError> {
        let rows = self.push_query(
            "SELECT config FROM push_configs WHERE task_id = $1 AND id = $2 AND owner = $3",
            vec![task_id.into(), id.into(), owner.into()],
        )?;
        rows.first().map(|r| decode(r.get(0))).transpose()
    }

    fn list_configs(&self, owner: &str, task_id: &str) -> Result<Vec<PushConfig>, StoreError> {
        let rows = self.push_query(
            "SELECT config FROM push_configs WHERE task_id = $1 AND owner = $2 ORDER BY id",
            vec![task_id.into(), owner.into()],
        )?;
        decode_all(&rows)
    }

    fn delete_config(&self, owner: &str, task_id: &str, id: &str) -> Result<bool, StoreError> {
        let rows = self.push_query(
            "DELETE FROM push_configs WHERE task_id = $1 AND id = $2 AND owner = $3 RETURNING id",
            vec![task_id.into(), id.into(), owner.into()],
        )?;
        Ok(!rows.is_empty())
    }

    fn configs_for_dispatch(&self, task_id: &str) -> Result<Vec<PushConfig>, StoreError> {
        let rows = self.push_query(
            "SELECT config FROM push_configs WHERE task_id = $1 ORDER BY id",
            vec![task_id.into()],
        )?;
        decode_all(&rows)
    }
}

/// Delete the configs whose task is gone (expired, evicted), past the grace period; returns
/// how many.
pub(crate) async fn purge_orphans(
    client: &deadpool_postgres::Client,
    now_ms: i64,
) -> Result<u64, tokio_postgres::Error> {
    client
        .execute(
            "DELETE FROM push_configs p WHERE p.created_at < $1
             AND NOT EXISTS (SELECT 1 FROM tasks t WHERE t.id = p.task_id)",
            &[&(now_ms - ORPHAN_GRACE_MS)],
        )
        .await
}

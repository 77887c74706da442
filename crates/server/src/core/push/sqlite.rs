//! Push configs in the SQLite store (`push_configs`, one JSON row per config; the rows of
//! tasks that are gone are deleted by the store's upkeep, after a grace period).

use super::{PushConfig, PushConfigStore};
use crate::core::store::{SqliteStore, StoreError};
use rusqlite::{params, OptionalExtension};

fn decode(json: String) -> Result<PushConfig, StoreError> {
    Ok(serde_json::from_str(&json)?)
}

impl PushConfigStore for SqliteStore {
    fn put_config(&self, config: &PushConfig) -> Result<(), StoreError> {
        let json = serde_json::to_string(config)?;
        self.lock().execute(
            "INSERT OR REPLACE INTO push_configs (task_id, id, owner, config_json, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![
                config.task_id,
                config.id,
                config.owner,
                json,
                chrono::Utc::now().timestamp_millis()
            ],
        )?;
        Ok(())
    }

    fn get_config(
        &self,
        owner: &str,
        task_id: &str,
        id: &str,
    ) -> Result<Option<PushConfig>, StoreError> {
        let json: Option<String> = self
            .lock()
            .query_row(
                "SELECT config_json FROM push_configs WHERE task_id = ?1 AND id = ?2 AND owner = ?3",
                params![task_id, id, owner],
                |r| r.get(0),
            )
            .optional()?;
        json.map(decode).transpose()
    }

    fn list_configs(&self, owner: &str, task_id: &str) -> Result<Vec<PushConfig>, StoreError> {
        let conn = self.lock();
        let mut stmt = conn.prepare_cached(
            "SELECT config_json FROM push_configs WHERE task_id = ?1 AND owner = ?2 ORDER BY id",
        )?;
        let rows: Vec<String> = stmt
            .query_map(params![task_id, owner], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        rows.into_iter().map(decode).collect()
    }

    fn delete_config(&self, owner: &str, task_id: &str, id: &str) -> Result<bool, StoreError> {
        let n = self.lock().execute(
            "DELETE FROM push_configs WHERE task_id = ?1 AND id = ?2 AND owner = ?3",
            params![task_id, id, owner],
        )?;
        Ok(n > 0)
    }

    fn configs_for_dispatch(&self, task_id: &str) -> Result<Vec<PushConfig>, StoreError> {
        let conn = self.lock();
        let mut stmt =
            conn.prepare_cached("SELECT config_json FROM push_configs WHERE task_id = ?1")?;
        let rows: Vec<String> = stmt
            .query_map(params![task_id], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        rows.into_iter().map(decode).collect()
    }
}

//! API keys and the caller extractor.
//!
//! A key is a random token shown once at creation; the database keeps only
//! its SHA-256. The JSON-RPC endpoint needs `Authorization: Bearer <token>`
//! unless anonymous access is on.

use crate::config::Plan;
use crate::core::store::{SqliteStore, StoreError};
pub use ecclesia_state::keys::{hash_token, ApiKey, KeyStore};
use rand::RngCore;
use rusqlite::{params, OptionalExtension};

fn row_to_key(r: &rusqlite::Row<'_>) -> rusqlite::Result<ApiKey> {
    Ok(ApiKey {
        id: r.get(0)?,
        name: r.get(1)?,
        plan: r.get(2)?,
        created_at: r.get(3)?,
        revoked_at: r.get(4)?,
    })
}

impl KeyStore for SqliteStore {
    fn create_key(&self, name: &str, plan: &str) -> Result<(ApiKey, String), StoreError> {
        let mut bytes = [0u8; 32];
        rand::rngs::OsRng.fill_bytes(&mut bytes);
        let token = format!("ecc_{}", hex::encode(bytes));
        let mut idb = [0u8; 8];
        rand::rngs::OsRng.fill_bytes(&mut idb);
        let key = ApiKey {
            id: format!("key_{}", hex::encode(idb)),
            name: name.to_string(),
            plan: plan.to_string(),
            created_at: chrono::Utc::now().to_rfc3339(),
            revoked_at: None,
        };
        self.lock().execute(
            "INSERT INTO api_keys (id, name, plan, token_hash, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![key.id, key.name, key.plan, hash_token(&token), key.created_at],
        )?;
        Ok((key, token))
    }

    fn list_keys(&self) -> Result<Vec<ApiKey>, StoreError> {
        let conn = self.lock();
        let mut stmt = conn.prepare(
            "SELECT id, name, plan, created_at, revoked_at FROM api_keys ORDER BY created_at",
        )?;
        let keys = stmt.query_map([], row_to_key)?.collect::<Result<_, _>>()?;
        Ok(keys)
    }

    fn revoke_key(&self, id_or_name: &str) -> Result<usize, StoreError> {
        Ok(self.lock().execute(
            "UPDATE api_keys SET revoked_at = ?2 WHERE (id = ?1 OR name = ?1) AND revoked_at IS NULL",
            params![id_or_name, chrono::Utc::now().to_rfc3339()],
        )?)
    }

    fn verify(&self, token: &str) -> Result<Option<ApiKey>, StoreError> {
        Ok(self
            .lock()
            .query_row(
                "SELECT id, name, plan, created_at, revoked_at FROM api_keys
                 WHERE token_hash = ?1 AND revoked_at IS NULL",
                params![hash_token(token)],
                row_to_key,
            )
            .optional()?)
    }

    fn is_revoked(&self, token: &str) -> Result<bool, StoreError> {
        let n: i64 = self.lock().query_row(
            "SELECT COUNT(*) FROM api_keys WHERE token_hash = ?1 AND revoked_at IS NOT NULL",
            params![hash_token(token)],
            |r| r.get(0),
        )?;
        Ok(n > 0)
    }

    fn has_active_keys(&self) -> Result<bool, StoreError> {
        let n: i64 = self.lock().query_row(
            "SELECT COUNT(*) FROM api_keys WHERE revoked_at IS NULL",
            [],
            |r| r.get(0),
        )?;
        Ok(n > 0)
    }
}

/// The authenticated caller of a request (see `http::auth` for how it is found).
#[derive(Debug, Clone)]
pub struct Caller {
    /// Owner id of the caller's tasks and key of its rate-limit pools.
    pub id: String,
    /// Plan name.
    pub plan_name: String,
    /// What the plan allows.
    pub plan: Plan,
}

//! [`KeyStore`] on PostgreSQL: the same tokens (`ecc_…`, only their SHA-256 stored), ids
//! (`key_…`) and revocation as the SQLite store.

use crate::store::PgStore;
use ecclesia_state::{hash_token, ApiKey, KeyStore, StoreError};
use rand::RngCore;

fn row_to_key(r: &tokio_postgres::Row) -> ApiKey {
    ApiKey {
        id: r.get(0),
        name: r.get(1),
        plan: r.get(2),
        created_at: r.get(3),
        revoked_at: r.get(4),
    }
}

impl KeyStore for PgStore {
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
        let (k, hash) = (key.clone(), hash_token(&token));
        let pool = self.pool.clone();
        self.call(async move {
            let client = pool.get().await?;
            client
                .execute(
                    "INSERT INTO api_keys (id, name, plan, token_hash, created_at) VALUES ($1, $2, $3, $4, $5)",
                    &[&k.id, &k.name, &k.plan, &hash, &k.created_at],
                )
                .await?;
            Ok(())
        })?;
        Ok((key, token))
    }

    fn list_keys(&self) -> Result<Vec<ApiKey>, StoreError> {
        let pool = self.pool.clone();
        let rows = self.call(async move {
            let client = pool.get().await?;
            Ok(client
                .query(
                    "SELECT id, name, plan, created_at, revoked_at FROM api_keys ORDER BY created_at",
                    &[],
                )
                .await?)
        })?;
        Ok(rows.iter().map(row_to_key).collect())
    }

    fn revoke_key(&self, id_or_name: &str) -> Result<usize, StoreError> {
        let (who, at) = (id_or_name.to_string(), chrono::Utc::now().to_rfc3339());
        let pool = self.pool.clone();
        let n = self.call(async move {
            let client = pool.get().await?;
            Ok(client
                .execute(
                    "UPDATE api_keys SET revoked_at = $2 WHERE (id = $1 OR name = $1) AND revoked_at IS NULL",
                    &[&who, &at],
                )
                .await?)
        })?;
        Ok(n as usize)
    }

    fn verify(&self, token: &str) -> Result<Option<ApiKey>, StoreError> {
        let hash = hash_token(token);
        let pool = self.pool.clone();
        let row = self.call(async move {
            let client = pool.get().await?;
            let stmt = client
                .prepare_cached(
                    "SELECT id, name, plan, created_at, revoked_at FROM api_keys
                     WHERE token_hash = $1 AND revoked_at IS NULL",
                )
                .await?;
            Ok(client.query_opt(&stmt, &[&hash]).await?)
        })?;
        Ok(row.as_ref().map(row_to_key))
    }

    fn is_revoked(&self, token: &str) -> Result<bool, StoreError> {
        let hash = hash_token(token);
        let pool = self.pool.clone();
        Ok(self.call(async move {
            let client = pool.get().await?;
            let row = client
                .query_one(
                    "SELECT EXISTS (SELECT 1 FROM api_keys WHERE token_hash = $1 AND revoked_at IS NOT NULL)",
                    &[&hash],
                )
                .await?;
            Ok(row.get::<_, bool>(0))
        })?)
    }

    fn has_active_keys(&self) -> Result<bool, StoreError> {
        let pool = self.pool.clone();
        Ok(self.call(async move {
            let client = pool.get().await?;
            let row = client
                .query_one(
                    "SELECT EXISTS (SELECT 1 FROM api_keys WHERE revoked_at IS NULL)",
                    &[],
                )
                .await?;
            Ok(row.get(0))
        })?)
    }
}

//! The published generation of the read-only domain stores (corpus, directory, liturgy).
//!
//! A generation is a directory under the store (`StoreLayout` in `ecclesia-core`), built once
//! by `ecclesia ingest` and copied (or mounted) to every replica. `ecclesia publish NAME`
//! records its name here; each replica polls it and switches to it as soon as it has that
//! directory (until then it keeps serving the one it has), so an ingest rolls out without
//! downtime and every replica serves the same data once it has the files.

use crate::store::{PgError, PgStore};

impl PgStore {
    /// The generation replicas should serve, when one was published.
    pub fn published_generation(&self) -> Result<Option<String>, PgError> {
        let pool = self.pool.clone();
        self.call(async move {
            let client = pool.get().await?;
            let row = client
                .query_opt("SELECT name FROM store_generation", &[])
                .await?;
            Ok(row.map(|r| r.get(0)))
        })
    }

    /// Publish `name` as the generation every replica should serve.
    pub fn publish_generation(&self, name: &str) -> Result<(), PgError> {
        let (pool, name) = (self.pool.clone(), name.to_string());
        self.call(async move {
            let client = pool.get().await?;
            client
                .execute(
                    "INSERT INTO store_generation (singleton, name) VALUES (TRUE, $1)
                     ON CONFLICT (singleton) DO UPDATE SET name = EXCLUDED.name, published_at = now()",
                    &[&name],
                )
                .await?;
            Ok(())
        })
    }
}

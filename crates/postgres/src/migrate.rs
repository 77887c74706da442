//! Versioned migrations (`crates/postgres/migrations/NNNN_name.sql`), applied at start in
//! one transaction under an advisory lock, so that replicas starting at once apply each
//! migration exactly once: the second waits for the first, then finds nothing to do.

use tokio_postgres::Client;

/// Every migration, in order: (version, name, SQL).
pub const MIGRATIONS: &[(i32, &str, &str)] = &[
    (
        1,
        "tasks_and_keys",
        include_str!("../migrations/0001_tasks_and_keys.sql"),
    ),
    (
        2,
        "replicas",
        include_str!("../migrations/0002_replicas.sql"),
    ),
    (
        3,
        "store_generation",
        include_str!("../migrations/0003_store_generation.sql"),
    ),
    (
        4,
        "push_configs",
        include_str!("../migrations/0004_push_configs.sql"),
    ),
    (
        5,
        "task_owner_counts",
        include_str!("../migrations/0005_task_owner_counts.sql"),
    ),
    (
        6,
        "upkeep_turn",
        include_str!("../migrations/0006_upkeep_turn.sql"),
    ),
];

/// The advisory lock the migrations hold (a constant of our own).
const LOCK_KEY: i64 = 0x0ecc_1e51_a000_0001;

/// Apply the migrations not applied yet; returns the versions applied now.
pub async fn migrate(client: &mut Client) -> Result<Vec<i32>, tokio_postgres::Error> {
    let tx = client.transaction().await?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&LOCK_KEY])
        .await?;
    tx.batch_execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations (
             version    INTEGER PRIMARY KEY,
             name       TEXT NOT NULL,
             applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
         )",
    )
    .await?;
    let row = tx
        .query_one(
            "SELECT COALESCE(MAX(version), 0) FROM schema_migrations",
            &[],
        )
        .await?;
    let current: i32 = row.get(0);
    let mut applied = Vec::new();
    for (version, name, sql) in MIGRATIONS.iter().filter(|m| m.0 > current) {
        tx.batch_execute(sql).await?;
        tx.execute(
            "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)",
            &[version, name],
        )
        .await?;
        applied.push(*version);
    }
    tx.commit().await?;
    Ok(applied)
}

impl crate::PgStore {
    /// The versions recorded in `schema_migrations`, in order.
    pub fn applied_migrations(&self) -> Result<Vec<i32>, crate::PgError> {
        let pool = self.pool.clone();
        self.call(async move {
            let client = pool.get().await?;
            let rows = client
                .query(
                    "SELECT version FROM schema_migrations ORDER BY version",
                    &[],
                )
                .await?;
            Ok(rows.iter().map(|r| r.get(0)).collect())
        })
    }
}

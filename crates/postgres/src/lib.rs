//! The shared state of many Ecclesia replicas on PostgreSQL.
//!
//! [`PgStore`] implements the server's [`TaskStore`](ecclesia_state::TaskStore),
//! [`KeyStore`](ecclesia_state::KeyStore) and
//! [`PushConfigStore`](ecclesia_state::PushConfigStore) with `tokio-postgres` and a
//! `deadpool` pool, so that replicas behind one load balancer see the same tasks, keys and
//! webhooks (`tests/push_configs.rs` runs one suite against both stores). Tasks behave exactly as
//! in the embedded [`SqliteStore`](ecclesia_state::SqliteStore) (ids, owners, expiry, the
//! per-caller cap, shortened big user messages, no status history); the same test suite runs
//! against both (`tests/task_store.rs`).
//!
//! - **Migrations** (`migrations/NNNN_*.sql`) are applied at [`PgStore::connect`] under an
//!   advisory lock ([`migrate`]): replicas that start at once apply each exactly once.
//! - **Leases** ([`lease`]): each replica renews a row every few seconds; a task left
//!   `submitted`/`working` by a replica whose lease ran out is marked `failed` by any live
//!   replica, so no task stays `working` forever when a replica dies.
//! - **Upkeep** ([`upkeep`]): one replica at a time purges expired tasks and keeps the size
//!   ceiling, at most every [`PgOptions::upkeep_every`], whichever replica asks first.
//! - **The published store generation** ([`generation`]): `ecclesia publish` names the
//!   generation of the read-only domain stores that every replica should serve.
//!
//! The store traits are synchronous (called on blocking threads); the driver runs on a small
//! runtime of its own ([`bridge`]) and every call is bounded by a deadline.

pub mod bridge;
pub mod codec;
pub mod generation;
mod keys;
pub mod lease;
pub mod migrate;
mod push;
mod store;
mod tasks;
pub mod upkeep;

pub use store::{PgError, PgOptions, PgStore};

//! The state a deployment shares between its replicas, as traits, with the in-process
//! implementations of the two that need no storage:
//!
//! - [`tasks`]: [`TaskStore`], where tasks live (SQLite in `ecclesia-server`, PostgreSQL in
//!   `ecclesia-postgres`), and [`stored`], the stored form every engine writes;
//! - [`keys`]: [`KeyStore`], API keys;
//! - [`push`]: [`PushConfigStore`], push-notification configs;
//! - [`limits`]: [`RateLimiter`], per-caller rate limits ([`InMemoryLimiter`]; Redis in
//!   `ecclesia-redis`);
//! - [`bus`]: [`TaskBus`], what a running task shares beyond its replica ([`InProcessBus`];
//!   Redis in `ecclesia-redis`).
//!
//! No web framework: the engines depend on this crate, not on the server. The limiter and
//! the bus are on the request path and are async; the three stores are blocking, called on
//! the core's blocking pool (see [`TaskStore`]).

pub mod bus;
pub mod keys;
pub mod limits;
pub mod push;
pub mod stored;
pub mod tasks;

pub use bus::{BusError, EventStream, InProcessBus, SharedEvent, TaskBus, EVENT_BUFFER};
pub use keys::{hash_token, ApiKey, KeyStore};
pub use limits::{InMemoryLimiter, PoolRequest, RateDecision, RateLimiter};
pub use push::{PushAuth, PushConfig, PushConfigStore, PushVersion, MAX_CONFIGS_PER_TASK};
pub use stored::{compact_for_storage, storage_json, MAX_STORED_MESSAGE};
pub use tasks::{
    agent_message, failed_by_restart, rfc3339, status_with_text, Maintenance, StoreError,
    StoreLimits, TaskCursor, TaskListQuery, TaskPage, TaskRecord, TaskStore,
};

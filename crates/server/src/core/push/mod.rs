//! Push notifications: per-task webhook configs, owned by the caller who set them, kept
//! behind the [`PushConfigStore`] trait (SQLite: [`crate::SqliteStore`]), and the delivery of
//! a task's status and artifact updates to them ([`deliver`]) with bounded retries on a
//! bounded queue, the token (`X-A2A-Notification-Token`) and the authentication the caller
//! gave, and protection against server-side request forgery ([`targets`]).
//!
//! A config remembers the protocol version it was set in: a 0.3 webhook receives the task
//! (as the 0.3 SDKs send it) at each status change; a 1.0 webhook receives each
//! `StreamResponse` (status and artifact updates), as the 1.0 SDKs send them.
//!
//! With replicas sharing one store (PostgreSQL) a config may be set through a replica that is
//! not running its task: that replica follows the task's events on the task bus and delivers
//! to it ([`follow`]); each replica delivers to the configs set through it.

pub mod configs;
pub mod deliver;
mod follow;
mod sqlite;
pub mod targets;

pub use ecclesia_state::push::{
    PushAuth, PushConfig, PushConfigStore, PushVersion, MAX_CONFIGS_PER_TASK,
};

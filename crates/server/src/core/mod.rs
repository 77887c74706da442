//! The server core, shared by every protocol front-end (A2A 0.3, A2A 1.0 over JSON-RPC and
//! HTTP+JSON, and through them MCP, the OpenAI API and the console):
//!
//! - [`client`]: [`crate::CoreClient`], the one way every front-end reaches the core;
//! - [`card`]: the agent card, built from the registry and the configuration;
//! - [`callers`]: API keys ([`crate::KeyStore`]) and the authenticated [`crate::Caller`];
//! - [`request`]: the id of the request being served (a task-local set by the front door);
//! - [`plans`]: what a caller's plan allows, the rate-limit pools of a skill call;
//! - [`limits`]: the rate limiter ([`crate::RateLimiter`]);
//! - [`lanes`]: the bounded, fair work queues (fast and slow skills);
//! - [`metrics`]: [`crate::Metrics`], the counters and histograms the core records;
//! - [`send`]: sending a message (admission, task creation, waiting or streaming);
//! - [`tasks`]: the task lifecycle (create, start, finish, cancel, fail-unfinished, expire);
//! - [`runs`]: one skill run (blocking thread, deadline, panic, streamed chunks);
//! - [`bus`]: what a running task shares beyond its replica ([`crate::TaskBus`]);
//! - [`push`]: push-notification configs ([`crate::PushConfigStore`]) and their delivery;
//! - [`store`]: task persistence ([`crate::TaskStore`], SQLite, the write queue);
//! - [`errors`]: [`crate::ServerError`], which each protocol encodes once;
//! - [`state`]: [`crate::AppState`], everything a request needs.
//!
//! The core knows no wire format: front-ends decode their requests into the A2A 0.3 types
//! the core speaks inside, call it, and encode what it returns.

pub use ecclesia_state::bus;
pub mod callers;
pub mod card;
pub mod client;
pub mod clock;
pub mod errors;
pub mod lanes;
pub mod metrics;
pub use ecclesia_state::limits;
pub mod plans;
pub mod push;
pub mod request;
pub mod runs;
pub mod send;
pub mod state;
pub mod store;
pub mod tasks;

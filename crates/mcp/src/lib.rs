//! Ecclesia's ten skills as MCP tools, with the official Rust SDK (`rmcp`).
//!
//! - [`serve_stdio`]: MCP over stdin/stdout for desktop clients (`ecclesia mcp`).
//! - [`router`]: Streamable HTTP at `/mcp`, to merge into the server's router;
//!   callers, keys, plans, lanes and the rate-limit pools are A2A's (a tool
//!   call goes through the server's `CoreClient` for the caller the HTTP layer
//!   authenticated).
//!
//! Tools (named as Magisterium's MCP server names them): `search`, `fetch`,
//! `get_mass_readings`, `get_martyrology`, `get_saint`, `get_person`,
//! `get_pope`, `get_diocese`, `get_diocese_statistics`, `chat`. Resources:
//! `ecclesia://document/{id}{?ref}` and `ecclesia://readings/today`. Prompts:
//! `explain_todays_gospel`, `saints_of_the_day` (their `date` completes). Over sessions,
//! `logging/setLevel` (a message per tool call, a warning when one fails) and
//! `resources/subscribe` (today's readings change each midnight). Protocol revisions
//! 2025-06-18, 2025-11-25 (sessions) and 2026-07-28 (stateless).
#![deny(missing_docs)]

mod completion;
mod content;
mod handler;
mod http;
mod prompts;
mod resources;
mod runner;
mod session;
mod stdio;
mod tools;

pub use handler::{EcclesiaMcp, PROTOCOL_VERSIONS};
pub use http::{allowed_hosts, allowed_origins, router, router_with, MCP_PATH};
pub use resources::{DOCUMENT_TEMPLATE, TODAY_READINGS};
pub use runner::Runner;
pub use stdio::{serve_io, serve_stdio, STDIO_SKILL_TIMEOUT};
pub use tools::{input_schema, ToolSpec, MAX_ARG_CHARS, TOOLS};

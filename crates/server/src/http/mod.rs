//! The HTTP side, below and beside the protocols: the listener and its connections
//! ([`conn`]), the front door of every request (its id, span and log line:
//! [`request_span`]), who is calling ([`auth`]), the shared JSON-RPC endpoint that routes by
//! protocol version ([`jsonrpc`]), Server-Sent Events ([`sse`]), the `GET` feeds the skills
//! register ([`feeds`]), the web console's gate ([`console_gate`]), health and readiness
//! ([`health`]) and the metrics ([`metrics`]).

pub(crate) mod auth;
pub mod conn;
pub(crate) mod console_gate;
pub(crate) mod feeds;
pub(crate) mod health;
pub(crate) mod jsonrpc;
pub mod metrics;
pub(crate) mod request_log;
pub(crate) mod request_span;
pub(crate) mod sse;

//! Integration tests of the server, as one binary. Each module says what
//! belongs in it; `support` holds the test skills and the request helpers.

mod auth;
mod client;
mod connections;
mod console;
mod feeds;
mod interop;
mod jsonrpc;
mod limits;
mod push;
mod request_span;
mod rest;
mod robustness;
mod support;
mod tasks;
mod v1;

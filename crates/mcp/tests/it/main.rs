//! The MCP server over an in-process transport (tools, calls, errors,
//! resources, prompts), and over HTTP through the server's state (keys,
//! Origin, body limit, the shared rate-limit pool).

mod fake;
mod http;
mod python;
mod session;
mod tools;

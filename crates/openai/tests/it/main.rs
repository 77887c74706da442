//! Chat Completions through the server's state with a fake `catholic_qa`:
//! bodies, streams, citations, follow-ups, errors, keys and the shared pool.

mod api;
mod fake;
mod python;

//! Chat Completions through the server's state with a fake `catholic_qa`:
//! bodies, streams, citations, follow-ups, errors, keys and the shared pool;
//! the Responses API over the same fake; the Search API with a fake
//! `document_search`.

mod api;
mod fake;
mod python;
mod responses;
mod search;

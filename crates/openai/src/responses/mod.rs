//! The OpenAI Responses API over `catholic_qa`: `POST /v1/responses` (and
//! `/api/v1/responses`), in the shape the Open Responses specification gives
//! it, for the clients that moved to it from Chat Completions (coding agents,
//! the OpenAI Agents SDK, `client.responses.create` and its `output_text`).
//!
//! - [`request`]: the body (`model`, `input` as a string or message items,
//!   `instructions`, `stream`, `max_output_tokens`, `temperature`, …), checked
//!   as Chat Completions checks its own, the question asked the same way
//!   (earlier turns prepended). Tools, images and files, and stored state
//!   (`previous_response_id`: the server keeps no responses) are refused with
//!   a 400 naming the parameter.
//! - [`object`]: the `response` object built from an [`Answer`](crate::Answer):
//!   one assistant message whose `output_text` has `url_citation` annotations
//!   on its `[n]` markers ([`annotations`]), every field the schema requires,
//!   and the top-level `citations[]` (and `grounding`) as in Chat Completions.
//! - [`live`]: the streamed events, from `response.created` to
//!   `response.completed`.
//!
//! The handler (in `handler.rs`) reaches the skill as Chat Completions does;
//! everything here is pure.

pub mod annotations;
pub mod live;
pub mod object;
pub mod request;

pub use request::ResponsesRequest;

//! The Magisterium-compatible HTTP APIs: OpenAI-compatible Chat Completions
//! and Responses over `catholic_qa`, and the Search API over `document_search`.
//!
//! [`router`] serves `POST /api/v1/search` (and `/v1/search`; see [`search`]:
//! `query` ≤ 1,024 characters, `numResults` 1–100, `category`
//! auto|magisterial|scholarly), and `POST /api/v1/chat/completions` and `POST
//! /v1/chat/completions`, `GET /v1/models` (and `/api/v1/models`, and one
//! model by id). The model is `ecclesia-1`; `magisterium-1` is accepted as an
//! alias. The last user message is the question; earlier user and assistant
//! turns are prepended as context so that a follow-up is understood (and
//! retrieved for) in the conversation. Answers carry a top-level `citations[]`
//! as Magisterium's API does (`cited_text`, `cited_text_heading`,
//! `document_title`, `document_index` (zero-based; markers `[n]` count from
//! 1), `document_author`, `document_year`, `document_reference`,
//! `source_url`, plus `document_id`); when streaming, in the last chunk, the
//! one with `finish_reason`. Errors are OpenAI's `{"error": {message, type,
//! param, code}}` with its status codes.
//!
//! `POST /v1/responses` (and `/api/v1/responses`) is the Responses API over
//! the same skill ([`responses`]): `input` as a string or message items,
//! `instructions`, `stream`; one assistant message whose `output_text` carries
//! `url_citation` annotations on its `[n]` markers, the same top-level
//! `citations[]`, and when streaming the semantic events from
//! `response.created` to `response.completed`. Tools, images and
//! `previous_response_id` (no response is stored) are refused with a 400.
//!
//! Every call goes through the server's `CoreClient` for the caller
//! authenticated once here: the same keys, plans, lanes, tasks, metrics, and
//! the common and `catholic_qa` rate-limit pools (a search counts in the
//! common one) as A2A and MCP.
#![deny(missing_docs)]

mod citations;
mod completion;
mod error;
mod handler;
mod live;
mod request;
pub mod responses;
pub mod search;

pub use citations::{answer, Answer};
pub use completion::{
    chunks, completion, content_chunk, finish_chunk, role_chunk, usage_chunk, Meta,
};
pub use error::ApiError;
pub use request::{ChatRequest, Message, Role, MAX_MESSAGES, MAX_QUESTION_CHARS, MAX_TOTAL_CHARS};
pub use search::{Category, SearchRequest};

use axum::routing::{get, post};

/// The model's name.
pub const MODEL: &str = "ecclesia-1";
/// Every name accepted (`magisterium-1` for clients written for Magisterium AI).
pub const MODELS: &[&str] = &[MODEL, "magisterium-1"];

/// The routes, to merge into the server's router
/// (`ecclesia_server::router(state.clone()).merge(ecclesia_openai::router(state))`).
pub fn router(state: ecclesia_server::AppState) -> axum::Router {
    let ctx = handler::Ctx {
        core: ecclesia_server::CoreClient::new(state.clone(), "openai"),
        state,
    };
    axum::Router::new()
        .route("/api/v1/chat/completions", post(handler::chat))
        .route("/v1/chat/completions", post(handler::chat))
        .route("/api/v1/responses", post(handler::responses))
        .route("/v1/responses", post(handler::responses))
        .route("/api/v1/search", post(handler::search))
        .route("/v1/search", post(handler::search))
        .route("/api/v1/models", get(handler::models))
        .route("/v1/models", get(handler::models))
        .route("/api/v1/models/{model}", get(handler::model))
        .route("/v1/models/{model}", get(handler::model))
        .with_state(ctx)
}

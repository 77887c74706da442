//! The HTTP handlers: `POST …/chat/completions`, `POST …/responses`, `POST
//! …/search` and `GET …/models`.

use crate::citations;
use crate::completion::{self, Meta};
use crate::error::ApiError;
use crate::request::ChatRequest;
use crate::responses::{self, ResponsesRequest};
use crate::search::{self, SearchRequest};
use axum::extract::{FromRequestParts, Path, Request, State};
use axum::http::request::Parts;
use axum::http::{header, StatusCode};
use axum::response::sse::Sse;
use axum::response::{IntoResponse, Response};
use ecclesia_a2a::Part;
use ecclesia_server::{AppState, Caller, CoreClient};
use serde_json::{json, Map, Value};

/// What the handlers share.
#[derive(Clone)]
pub(crate) struct Ctx {
    pub state: AppState,
    pub core: CoreClient,
}

/// The key, checked as A2A checks it (once); OpenAI's 401 otherwise.
async fn authenticate(parts: &mut Parts, state: &AppState) -> Result<Caller, ApiError> {
    Caller::from_request_parts(parts, state)
        .await
        .map_err(|refused| {
            if refused.status() == StatusCode::UNAUTHORIZED {
                ApiError::unauthorized(refused.message().to_string())
            } else {
                ApiError::internal(refused.message())
            }
        })
}

/// `POST /api/v1/chat/completions` (and `/v1/chat/completions`).
pub(crate) async fn chat(State(ctx): State<Ctx>, req: Request) -> Response {
    match chat_inner(ctx, req).await {
        Ok(r) => r,
        Err(e) => e.into_response(),
    }
}

/// The body, bounded by the server's `body_limit` (413 past it).
async fn read_body(
    parts: &Parts,
    body: axum::body::Body,
    limit: usize,
) -> Result<axum::body::Bytes, ApiError> {
    let declared = parts
        .headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|n| n > limit) {
        return Err(ApiError::too_large(limit));
    }
    axum::body::to_bytes(body, limit).await.map_err(|e| {
        if e.to_string().to_ascii_lowercase().contains("length limit") {
            ApiError::too_large(limit)
        } else {
            ApiError::invalid(None, format!("the request body could not be read: {e}"))
        }
    })
}

async fn chat_inner(ctx: Ctx, req: Request) -> Result<Response, ApiError> {
    let (mut parts, body) = req.into_parts();
    let caller = authenticate(&mut parts, &ctx.state).await?;
    let bytes = read_body(&parts, body, ctx.state.config.body_limit).await?;
    let chat = ChatRequest::parse(&bytes)?;
    let question = chat.question();
    let mut msg = vec![Part::text(question.clone())];
    let mut options = Map::new();
    if let Some(t) = chat.max_tokens {
        options.insert("max_tokens".into(), json!(t));
    }
    if let Some(t) = chat.temperature {
        options.insert("temperature".into(), json!(t));
    }
    if !options.is_empty() {
        msg.push(Part::data(Value::Object(options)));
    }
    let meta = Meta::new(&chat.model);
    tracing::info!(
        caller = %caller.id,
        model = %chat.model,
        stream = chat.stream,
        turns = chat.messages.len(),
        "chat completion"
    );
    if chat.stream {
        // Refusals (rate limit, plan, busy) come before the first byte: a proper status.
        let rx = ctx.core.ask_streaming(&caller, "catholic_qa", msg).await?;
        let events = crate::live::events(meta, question, chat.include_usage, rx);
        return Ok(Sse::new(events).into_response());
    }
    let started = std::time::Instant::now();
    let out = ctx.core.ask(&caller, "catholic_qa", msg).await;
    tracing::debug!(
        ok = out.is_ok(),
        ms = started.elapsed().as_millis() as u64,
        "catholic_qa answered"
    );
    let answer = citations::answer(&out?);
    Ok(axum::Json(completion::completion(&meta, &question, &answer)).into_response())
}

/// `POST /v1/responses` (and `/api/v1/responses`): the Responses API.
pub(crate) async fn responses(State(ctx): State<Ctx>, req: Request) -> Response {
    match responses_inner(ctx, req).await {
        Ok(r) => r,
        Err(e) => e.into_response(),
    }
}

/// As [`chat_inner`]; the request, the object and the events are built in
/// [`crate::responses`].
async fn responses_inner(ctx: Ctx, req: Request) -> Result<Response, ApiError> {
    let (mut parts, body) = req.into_parts();
    let caller = authenticate(&mut parts, &ctx.state).await?;
    let bytes = read_body(&parts, body, ctx.state.config.body_limit).await?;
    let rreq = ResponsesRequest::parse(&bytes)?;
    let question = rreq.question();
    let env = responses::object::Envelope::new(&rreq);
    tracing::info!(caller = %caller.id, model = %rreq.model, stream = rreq.stream,
        turns = rreq.messages.len(), "response");
    let input_error = |e: ecclesia_server::AskError| {
        if e.is_invalid_params() {
            ApiError::invalid(Some("input"), e.to_string()).with_code("invalid_value")
        } else {
            ApiError::from(e)
        }
    };
    if rreq.stream {
        // Refusals (rate limit, plan, busy) come before the first byte: a proper status.
        let rx = ctx
            .core
            .ask_streaming(&caller, "catholic_qa", rreq.parts())
            .await
            .map_err(input_error)?;
        let enc = responses::live::Encoder::new(env, question);
        return Ok(Sse::new(responses::live::events(enc, rx)).into_response());
    }
    let out = ctx.core.ask(&caller, "catholic_qa", rreq.parts()).await;
    let answer = citations::answer(&out.map_err(input_error)?);
    Ok(axum::Json(responses::object::completed(&env, &question, &answer)).into_response())
}

/// `POST /api/v1/search` (and `/v1/search`): `document_search` in the Search API's shape.
pub(crate) async fn search(State(ctx): State<Ctx>, req: Request) -> Response {
    match search_inner(ctx, req).await {
        Ok(r) => r,
        Err(e) => e.into_response(),
    }
}

async fn search_inner(ctx: Ctx, req: Request) -> Result<Response, ApiError> {
    let (mut parts, body) = req.into_parts();
    let caller = authenticate(&mut parts, &ctx.state).await?;
    let bytes = read_body(&parts, body, ctx.state.config.body_limit).await?;
    let sreq = SearchRequest::parse(&bytes)?;
    tracing::info!(
        caller = %caller.id,
        results = sreq.num_results,
        category = sreq.category.as_str(),
        "search"
    );
    let artifacts = ctx
        .core
        .ask(&caller, "document_search", sreq.parts())
        .await
        .map_err(|e| {
            if e.is_invalid_params() {
                ApiError::invalid(Some("query"), e.to_string())
            } else {
                ApiError::from(e)
            }
        })?;
    Ok(axum::Json(search::response(&sreq, &artifacts)).into_response())
}

fn model_json(id: &str) -> Value {
    json!({"id": id, "object": "model", "created": 1_767_225_600, "owned_by": "ecclesia"})
}

/// `GET /v1/models`.
pub(crate) async fn models(State(ctx): State<Ctx>, req: Request) -> Response {
    let (mut parts, _) = req.into_parts();
    if let Err(e) = authenticate(&mut parts, &ctx.state).await {
        return e.into_response();
    }
    let data: Vec<Value> = crate::MODELS.iter().map(|m| model_json(m)).collect();
    axum::Json(json!({"object": "list", "data": data})).into_response()
}

/// `GET /v1/models/{model}`.
pub(crate) async fn model(
    State(ctx): State<Ctx>,
    Path(id): Path<String>,
    req: Request,
) -> Response {
    let (mut parts, _) = req.into_parts();
    if let Err(e) = authenticate(&mut parts, &ctx.state).await {
        return e.into_response();
    }
    if crate::MODELS.contains(&id.as_str()) {
        axum::Json(model_json(&id)).into_response()
    } else {
        ApiError::model_not_found(&id).into_response()
    }
}

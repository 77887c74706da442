//! A2A 1.0 over HTTP+JSON (the REST binding) under `/api/v1/rest`: `POST /message:send`,
//! `POST /message:stream`, `GET /tasks/{id}`, `GET /tasks`, `POST /tasks/{id}:cancel`,
//! `POST /tasks/{id}:subscribe`, the push-configuration paths and `GET /extendedAgentCard`.
//! A thin front-end: it builds the 1.0 request from the path, query and body, runs it
//! through the same core as JSON-RPC ([`crate::a2a_v1::jsonrpc::run`]) and writes the result as JSON,
//! the streams as Server-Sent Events of bare `StreamResponse` objects, and errors as
//! RFC 9457 problem details (`type`, `title`, `status`, `detail`) that also carry the
//! `google.rpc.Status` object (`error`: `code`, `status`, `message`, `details` with the
//! `ErrorInfo`) that the A2A specification (§11.6) and the official SDKs read.
//!
//! An absent `A2A-Version` header is read as 1.0 here (this binding speaks only 1.0); an
//! explicit other version is `VERSION_NOT_SUPPORTED`.

use crate::a2a_v1::errors::Failure;
use crate::a2a_v1::jsonrpc::{extended_card_error, run, Out};
use crate::a2a_v1::stream_response;
use crate::core::callers::Caller;
use crate::core::state::AppState;
use crate::http::auth::HttpError;
use crate::http::request_log::RequestLine;
use crate::http::request_span::Logged;
use crate::http::sse;
use axum::body::Body;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::sse::Event;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use ecclesia_a2a::v1::{self, A2aError, ErrorKind, Method, Request};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::time::Instant;

/// Where the binding is mounted (the card's `HTTP+JSON` interface URL ends with it).
pub const PREFIX: &str = "/api/v1/rest";

/// The REST routes (nested under [`PREFIX`] by [`crate::router`]).
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/message:send", post(message_send))
        .route("/message:stream", post(message_stream))
        .route("/tasks", get(list_tasks))
        .route("/tasks/{id}", get(get_task).post(task_action))
        .route(
            "/tasks/{id}/pushNotificationConfigs",
            get(list_push_configs).post(create_push_config),
        )
        .route(
            "/tasks/{id}/pushNotificationConfigs/{config}",
            get(get_push_config).delete(delete_push_config),
        )
        .route("/extendedAgentCard", get(extended_card))
}

/// An error as problem details carrying the `google.rpc.Status` object: served as
/// `application/problem+json` to a client that accepts it, `application/json` otherwise
/// (the A2A specification's §11.6 form, which the conformance suite checks).
fn problem(e: Failure, accept: &HeaderMap) -> Response {
    let problem_json = accept
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|a| a.contains("application/problem+json"));
    let content_type = if problem_json {
        "application/problem+json"
    } else {
        "application/json"
    };
    let kind = e.error.kind;
    let status = if e.status == StatusCode::OK {
        StatusCode::from_u16(kind.http_status()).unwrap_or(StatusCode::BAD_REQUEST)
    } else {
        e.status
    };
    let details = Value::Array(e.error.details());
    let slug = kind.reason().to_ascii_lowercase().replace('_', "-");
    let body = json!({
        "type": format!("https://a2a-protocol.org/errors/{slug}"),
        "title": kind.default_message(),
        "status": status.as_u16(),
        "detail": &e.error.message,
        "error": {
            "code": status.as_u16(),
            "status": kind.grpc_status(),
            "message": &e.error.message,
            "details": details,
        },
    });
    let mut r = (
        status,
        [(header::CONTENT_TYPE, content_type)],
        body.to_string(),
    )
        .into_response();
    r.headers_mut().extend(e.headers);
    r
}

fn check_version(headers: &HeaderMap) -> Result<(), Failure> {
    let Some(v) = headers.get(v1::VERSION_HEADER) else {
        return Ok(());
    };
    let text = v.to_str().unwrap_or("");
    match v1::parse_version_header(Some(text)) {
        Ok(v1::ProtocolVersion::V1_0) => Ok(()),
        Ok(v1::ProtocolVersion::V0_3) => Err(A2aError::new(ErrorKind::VersionNotSupported)
            .with_message(
                "the HTTP+JSON binding speaks A2A 1.0 only: send `A2A-Version: 1.0`, or use \
                 JSON-RPC 0.3 at POST /api/v1/a2a",
            )
            .into()),
        Err(e) => Err(e.into()),
    }
}

/// Run a decoded request and write its result for this binding.
async fn answer(
    state: &AppState,
    caller: Result<Caller, HttpError>,
    headers: &HeaderMap,
    method: Method,
    params: Value,
) -> Response {
    let started = Instant::now();
    let caller = match caller {
        Ok(c) => c,
        Err(e) => return e.into_response(),
    };
    let request_id = crate::core::request::id();
    let out = match check_version(headers) {
        Err(e) => Out::Error {
            skill: None,
            error: e,
        },
        Ok(()) => match Request::decode(method, Some(&params)) {
            Ok(req) => run(req, state, &caller, &request_id).await,
            Err(e) => Out::Error {
                skill: None,
                error: e.into(),
            },
        },
    };
    let (skill, outcome, response) = match out {
        Out::Task {
            skill,
            result,
            headers,
        } => {
            let mut r = (
                StatusCode::OK,
                [(header::CONTENT_TYPE, "application/json")],
                serde_json::to_string(&*result).unwrap_or_else(|_| "{}".into()),
            )
                .into_response();
            r.headers_mut().extend(headers);
            (skill, "ok".to_string(), r)
        }
        Out::Value {
            skill,
            value,
            headers,
        } => {
            let mut r = (
                StatusCode::OK,
                [(header::CONTENT_TYPE, "application/json")],
                value.to_string(),
            )
                .into_response();
            r.headers_mut().extend(headers);
            (skill, "ok".to_string(), r)
        }
        Out::Stream {
            skill,
            first,
            events,
            headers,
        } => {
            let first = event(&ecclesia_a2a::StreamEvent::Task(*first));
            let r = sse::events(Some(first), events, event, headers);
            (skill, "stream".to_string(), r)
        }
        Out::Error { skill, error } => {
            if error.error.kind == ErrorKind::RateLimited {
                if let Some(pool) = error.error.metadata.get("pool") {
                    state.metrics.rate_limited(pool);
                }
            }
            let code = error.error.code().to_string();
            (skill, code, problem(error, headers))
        }
    };
    let name = method.name();
    state.metrics.record(
        name,
        skill.as_deref().unwrap_or("-"),
        &outcome,
        started.elapsed(),
    );
    RequestLine {
        binding: "HTTP+JSON",
        version: "1.0",
        method: name,
        caller: &caller.id,
        outcome: &outcome,
        elapsed: started.elapsed(),
    }
    .log();
    let mut response = response;
    response.extensions_mut().insert(Logged);
    response
}

/// One event as a bare `StreamResponse` object.
fn event(ev: &ecclesia_a2a::StreamEvent) -> Event {
    let body = stream_response(ev).unwrap_or_else(|_| json!({"error": "internal error"}));
    Event::default().data(body.to_string())
}

/// The JSON object of a request body (bounded like the JSON-RPC endpoint's).
async fn body_object(state: &AppState, body: Body) -> Result<Value, Failure> {
    // Bounded in size and in time, as on the JSON-RPC endpoint.
    let limit = state.config.body_limit;
    let read = axum::body::to_bytes(body, limit);
    let bytes = match tokio::time::timeout(state.config.body_timeout, read).await {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(_)) => {
            return Err(A2aError::new(ErrorKind::InvalidRequest)
                .with_message(format!(
                    "the request body is unreadable or larger than {limit} bytes"
                ))
                .into())
        }
        Err(_) => {
            return Err(A2aError::new(ErrorKind::InvalidRequest)
                .with_message("the request body was not received in time")
                .into())
        }
    };
    match serde_json::from_slice::<Value>(&bytes) {
        Ok(v @ Value::Object(_)) => Ok(v),
        Ok(_) => Err(A2aError::new(ErrorKind::InvalidRequest)
            .with_message("the body must be a JSON object")
            .into()),
        Err(e) => Err(A2aError::new(ErrorKind::JsonParse)
            .with_message(format!("Invalid JSON payload: {e}"))
            .into()),
    }
}

async fn message(
    state: AppState,
    caller: Result<Caller, HttpError>,
    headers: HeaderMap,
    body: Body,
    method: Method,
) -> Response {
    match body_object(&state, body).await {
        Ok(params) => answer(&state, caller, &headers, method, params).await,
        Err(e) => problem(e, &headers),
    }
}

async fn message_send(
    State(state): State<AppState>,
    caller: Result<Caller, HttpError>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    message(state, caller, headers, body, Method::SendMessage).await
}

async fn message_stream(
    State(state): State<AppState>,
    caller: Result<Caller, HttpError>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    message(state, caller, headers, body, Method::SendStreamingMessage).await
}

/// Query parameters as the JSON object of a request: `true`/`false` become booleans, the
/// rest stay strings (the 1.0 decoder reads numbers written as strings).
fn query_object(query: BTreeMap<String, String>) -> Map<String, Value> {
    query
        .into_iter()
        .map(|(k, v)| {
            let value = match v.as_str() {
                "true" => Value::Bool(true),
                "false" => Value::Bool(false),
                _ => Value::String(v),
            };
            (k, value)
        })
        .collect()
}

async fn list_tasks(
    State(state): State<AppState>,
    caller: Result<Caller, HttpError>,
    headers: HeaderMap,
    Query(query): Query<BTreeMap<String, String>>,
) -> Response {
    let params = Value::Object(query_object(query));
    answer(&state, caller, &headers, Method::ListTasks, params).await
}

async fn get_task(
    State(state): State<AppState>,
    caller: Result<Caller, HttpError>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Query(query): Query<BTreeMap<String, String>>,
) -> Response {
    let mut params = query_object(query);
    params.insert("id".into(), Value::String(id));
    answer(
        &state,
        caller,
        &headers,
        Method::GetTask,
        Value::Object(params),
    )
    .await
}

/// `POST /tasks/{id}:cancel` and `POST /tasks/{id}:subscribe`.
async fn task_action(
    State(state): State<AppState>,
    caller: Result<Caller, HttpError>,
    headers: HeaderMap,
    Path(id_action): Path<String>,
) -> Response {
    let accept = headers.clone();
    let (id, method) = match id_action.rsplit_once(':') {
        Some((id, "cancel")) => (id, Method::CancelTask),
        Some((id, "subscribe")) => (id, Method::SubscribeToTask),
        _ => {
            return problem(
                A2aError::new(ErrorKind::MethodNotFound)
                    .with_message(
                        "POST /tasks/{id}:cancel or POST /tasks/{id}:subscribe; read a task with GET /tasks/{id}",
                    )
                    .into(),
                &accept,
            )
        }
    };
    answer(&state, caller, &headers, method, json!({"id": id})).await
}

async fn create_push_config(
    State(state): State<AppState>,
    caller: Result<Caller, HttpError>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Body,
) -> Response {
    let mut params = match body_object(&state, body).await {
        Ok(p) => p,
        Err(e) => return problem(e, &headers),
    };
    if let Value::Object(m) = &mut params {
        m.insert("taskId".into(), Value::String(id));
    }
    let method = Method::CreateTaskPushNotificationConfig;
    answer(&state, caller, &headers, method, params).await
}

async fn list_push_configs(
    State(state): State<AppState>,
    caller: Result<Caller, HttpError>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Query(query): Query<BTreeMap<String, String>>,
) -> Response {
    let mut params = query_object(query);
    params.insert("taskId".into(), Value::String(id));
    let method = Method::ListTaskPushNotificationConfigs;
    answer(&state, caller, &headers, method, Value::Object(params)).await
}

async fn get_push_config(
    State(state): State<AppState>,
    caller: Result<Caller, HttpError>,
    headers: HeaderMap,
    Path((id, config)): Path<(String, String)>,
) -> Response {
    let params = json!({"taskId": id, "id": config});
    let method = Method::GetTaskPushNotificationConfig;
    answer(&state, caller, &headers, method, params).await
}

async fn delete_push_config(
    State(state): State<AppState>,
    caller: Result<Caller, HttpError>,
    headers: HeaderMap,
    Path((id, config)): Path<(String, String)>,
) -> Response {
    let params = json!({"taskId": id, "id": config});
    let method = Method::DeleteTaskPushNotificationConfig;
    answer(&state, caller, &headers, method, params).await
}

async fn extended_card(caller: Result<Caller, HttpError>, headers: HeaderMap) -> Response {
    if let Err(e) = caller {
        return e.into_response();
    }
    problem(extended_card_error().into(), &headers)
}

//! `POST /api/v1/a2a`: read the body (bounded in size and time), validate the JSON-RPC
//! envelope, and hand the request to the protocol version it is written in: slash-style
//! methods (and requests without `A2A-Version`) to A2A 0.3, PascalCase methods with
//! `A2A-Version: 1.0` to A2A 1.0 (a mismatch is `-32009` saying which header or method to
//! use). Every error is a JSON-RPC error that echoes the request id (`null` when
//! unreadable), even for requests without an id; metrics and the request log are written
//! here, once, for both versions.

use crate::core::callers::Caller;
use crate::core::errors::ServerError;
use crate::core::state::AppState;
use crate::http::auth::HttpError;
use crate::http::request_log::RequestLine;
use crate::http::request_span::Logged;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use ecclesia_a2a::{error_codes as codes, v1, JsonRpcError, JsonRpcId, JsonRpcResponse};
use serde_json::Value;
use std::time::Instant;

/// A JSON-RPC reply.
pub(crate) fn json_response(status: StatusCode, resp: &JsonRpcResponse) -> Response {
    let body = serde_json::to_vec(resp).unwrap_or_else(|_| b"{}".to_vec());
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// A JSON-RPC success reply (HTTP 200) holding `result`, serialized in one pass.
pub(crate) fn success_response<T: serde::Serialize>(id: &JsonRpcId, result: &T) -> Response {
    #[derive(serde::Serialize)]
    struct Success<'a, T> {
        jsonrpc: &'static str,
        id: &'a JsonRpcId,
        result: &'a T,
    }
    let body = serde_json::to_vec(&Success {
        jsonrpc: "2.0",
        id,
        result,
    })
    .unwrap_or_else(|_| b"{}".to_vec());
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "application/json")],
        body,
    )
        .into_response()
}

/// A JSON-RPC error reply, with the HTTP status and headers it travels with.
pub(crate) fn error_response(
    id: JsonRpcId,
    error: JsonRpcError,
    status: StatusCode,
    headers: HeaderMap,
) -> Response {
    let mut resp = json_response(status, &JsonRpcResponse::error(id, error));
    resp.headers_mut().extend(headers);
    resp
}

/// What a front-end made of one request, for the metrics and the log.
pub(crate) struct Handled {
    /// The method's name (`-` when unknown).
    pub method: &'static str,
    /// The skill called, when known.
    pub skill: Option<String>,
    /// `ok`, `stream`, or the error code sent.
    pub outcome: String,
    /// The rate-limit pool that refused, if one did.
    pub refused_pool: Option<String>,
    /// The reply.
    pub response: Response,
}

/// Whether a body error is the size limit (and not a malformed body).
fn is_length_limit(err: &axum::Error) -> bool {
    let mut cur: Option<&(dyn std::error::Error + 'static)> = Some(err);
    while let Some(e) = cur {
        if e.is::<http_body_util::LengthLimitError>() {
            return true;
        }
        cur = e.source();
    }
    false
}

/// A body error: the connection cannot be reused (the rest of the body is
/// unread or unreadable), so the reply says `Connection: close`.
fn body_error(status: StatusCode, message: String) -> Response {
    let mut r = error_response(
        JsonRpcId::Null,
        JsonRpcError::new(codes::INVALID_REQUEST, message),
        status,
        HeaderMap::new(),
    );
    r.headers_mut().insert(
        header::CONNECTION,
        header::HeaderValue::from_static("close"),
    );
    r
}

pub(crate) async fn read_body(state: &AppState, body: Body) -> Result<Bytes, Response> {
    let limit = state.config.body_limit;
    let read = axum::body::to_bytes(body, limit);
    match tokio::time::timeout(state.config.body_timeout, read).await {
        Ok(Ok(bytes)) => Ok(bytes),
        Ok(Err(e)) if is_length_limit(&e) => Err(body_error(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the request body is larger than the limit of {limit} bytes"),
        )),
        Ok(Err(e)) => {
            tracing::debug!(error = %e, "malformed request body");
            Err(body_error(
                StatusCode::BAD_REQUEST,
                "the request body is malformed (bad chunked encoding, or a length that does not match)".into(),
            ))
        }
        Err(_) => Err(body_error(
            StatusCode::REQUEST_TIMEOUT,
            "the request body was not received in time".into(),
        )),
    }
}

/// The id exactly as written, for numbers `serde_json::Number` would round
/// (beyond 64 bits, long fractions).
fn exact_id(bytes: &[u8]) -> Option<JsonRpcId> {
    #[derive(serde::Deserialize)]
    struct IdOnly<'a> {
        #[serde(borrow)]
        id: Option<&'a serde_json::value::RawValue>,
    }
    let raw = serde_json::from_slice::<IdOnly<'_>>(bytes).ok()?.id?;
    JsonRpcId::exact_number(raw.get())
}

/// A JSON-RPC request whose envelope is valid: its id, method name and params.
pub(crate) struct Envelope {
    pub id: JsonRpcId,
    pub method: String,
    pub params: Option<Value>,
}

/// Validate the envelope; on error, the id to echo and the error.
pub(crate) fn parse_raw(bytes: &[u8]) -> Result<Envelope, (JsonRpcId, ServerError)> {
    let value: Value = serde_json::from_slice(bytes)
        .map_err(|e| (JsonRpcId::Null, ServerError::Parse(e.to_string())))?;
    let Value::Object(mut obj) = value else {
        let what = if value.is_array() {
            "batch requests are not supported; send one JSON-RPC request object"
        } else {
            "the request must be a JSON-RPC 2.0 object"
        };
        return Err((JsonRpcId::Null, ServerError::InvalidRequest(what.into())));
    };
    let id = match obj.get("id") {
        None => JsonRpcId::Null,
        Some(Value::Number(n)) if !n.is_i64() && !n.is_u64() => {
            exact_id(bytes).unwrap_or_else(|| JsonRpcId::Num(n.clone()))
        }
        Some(v) => JsonRpcId::from_value(v).ok_or_else(|| {
            (
                JsonRpcId::Null,
                ServerError::InvalidRequest(
                    "the request id must be a string, a number or null".into(),
                ),
            )
        })?,
    };
    if obj.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err((
            id,
            ServerError::InvalidRequest("the request must carry \"jsonrpc\": \"2.0\"".into()),
        ));
    }
    let method = match obj.get("method") {
        Some(Value::String(m)) => m.clone(),
        Some(_) => {
            return Err((
                id,
                ServerError::InvalidRequest("\"method\" must be a string".into()),
            ))
        }
        None => {
            return Err((
                id,
                ServerError::InvalidRequest("the request has no \"method\"".into()),
            ))
        }
    };
    let params = obj.remove("params");
    Ok(Envelope { id, method, params })
}

/// A 1.0 request (by its `A2A-Version` header) whose body is declared as something other
/// than JSON: `ContentTypeNotSupported` (-32005). 0.3 requests keep the lenient reading.
fn unsupported_content_type(headers: &HeaderMap) -> Option<JsonRpcError> {
    let version = headers
        .get(v1::VERSION_HEADER)
        .and_then(|v| v.to_str().ok());
    if v1::parse_version_header(version).ok()? != v1::ProtocolVersion::V1_0 {
        return None;
    }
    let ct = headers.get(header::CONTENT_TYPE)?.to_str().unwrap_or("");
    if ct.to_ascii_lowercase().contains("json") {
        return None;
    }
    let e = v1::A2aError::new(v1::ErrorKind::ContentTypeNotSupported).with_message(format!(
        "the request body is declared as {ct:?}; send it as application/json"
    ));
    Some(e.to_jsonrpc())
}

/// An error before any version was chosen (the codes are the same in both).
fn early(state: &AppState, started: Instant, id: JsonRpcId, error: JsonRpcError) -> Response {
    state
        .metrics
        .record("-", "-", &error.code.to_string(), started.elapsed());
    error_response(id, error, StatusCode::OK, HeaderMap::new())
}

pub(crate) async fn rpc_handler(
    State(state): State<AppState>,
    caller: Result<Caller, HttpError>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let started = Instant::now();
    let request_id = crate::core::request::id();
    let caller = match caller {
        Ok(c) => c,
        Err(e) => {
            state
                .metrics
                .record("-", "-", "unauthorized", started.elapsed());
            return e.into_response();
        }
    };
    let bytes = match read_body(&state, body).await {
        Ok(b) => b,
        Err(r) => {
            state
                .metrics
                .record("-", "-", "bad_body", started.elapsed());
            return r;
        }
    };
    if let Some(e) = unsupported_content_type(&headers) {
        return early(&state, started, JsonRpcId::Null, e);
    }
    let env = match parse_raw(&bytes) {
        Ok(x) => x,
        Err((id, err)) => {
            return early(&state, started, id, crate::a2a_v03::errors::encode(&err));
        }
    };
    let version_header = headers
        .get(v1::VERSION_HEADER)
        .and_then(|v| v.to_str().ok());
    let (version, h) = match v1::route(&env.method, version_header) {
        Err(e) => return early(&state, started, env.id, e.to_jsonrpc()),
        Ok(v1::ProtocolVersion::V1_0) => {
            let h = crate::a2a_v1::jsonrpc::handle(
                &env.method,
                env.params,
                env.id,
                &state,
                &caller,
                &request_id,
            )
            .await;
            ("1.0", h)
        }
        Ok(v1::ProtocolVersion::V0_3) => {
            let h = crate::a2a_v03::methods::handle(
                &env.method,
                env.params,
                env.id,
                &state,
                &caller,
                &request_id,
            )
            .await;
            ("0.3", h)
        }
    };
    if let Some(pool) = &h.refused_pool {
        // Labelled with the pool that refused (`message/send`, `catholic_qa`).
        state.metrics.rate_limited(pool);
    }
    state.metrics.record(
        h.method,
        h.skill.as_deref().unwrap_or("-"),
        &h.outcome,
        started.elapsed(),
    );
    RequestLine {
        binding: "JSON-RPC",
        version,
        method: h.method,
        caller: &caller.id,
        outcome: &h.outcome,
        elapsed: started.elapsed(),
    }
    .log();
    let mut response = h.response;
    response.extensions_mut().insert(Logged);
    response
}

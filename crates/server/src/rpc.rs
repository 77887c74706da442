//! `POST /api/v1/a2a`: read the body (bounded in size and time), validate the
//! JSON-RPC envelope, dispatch to a method, and encode the reply. Every error
//! is a JSON-RPC error with HTTP 200 that echoes the request id (`null` when
//! unreadable), even for requests without an id.

use crate::auth::Caller;
use crate::error::RpcError;
use crate::methods::{self, Method, Reply};
use crate::state::AppState;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use ecclesia_a2a::{error_codes as codes, v1, JsonRpcId, JsonRpcResponse};
use serde_json::Value;
use std::time::Instant;

pub(crate) fn json_response(status: StatusCode, resp: &JsonRpcResponse) -> Response {
    let body = serde_json::to_vec(resp).unwrap_or_else(|_| b"{}".to_vec());
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

pub(crate) fn error_response(id: JsonRpcId, err: RpcError) -> Response {
    let mut resp = json_response(err.status, &JsonRpcResponse::error(id, err.error));
    for (k, v) in err.headers {
        resp.headers_mut().insert(k, v);
    }
    resp
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
        RpcError::new(codes::INVALID_REQUEST, message),
    );
    *r.status_mut() = status;
    r.headers_mut().insert(
        header::CONNECTION,
        header::HeaderValue::from_static("close"),
    );
    r
}

async fn read_body(state: &AppState, body: Body) -> Result<Bytes, Response> {
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

/// Validate the envelope and parse it as a 0.3 method; on error, the id to echo and the error.
#[allow(clippy::result_large_err)]
pub(crate) fn parse_envelope(bytes: &[u8]) -> Result<(JsonRpcId, Method), (JsonRpcId, RpcError)> {
    let env = parse_raw(bytes)?;
    let method = Method::parse(&env.method, env.params).map_err(|e| (env.id.clone(), e))?;
    Ok((env.id, method))
}

/// Validate the envelope; on error, the id to echo and the error.
#[allow(clippy::result_large_err)]
pub(crate) fn parse_raw(bytes: &[u8]) -> Result<Envelope, (JsonRpcId, RpcError)> {
    let value: Value = serde_json::from_slice(bytes).map_err(|e| {
        (
            JsonRpcId::Null,
            RpcError::new(codes::PARSE_ERROR, format!("Invalid JSON payload: {e}")),
        )
    })?;
    let Value::Object(mut obj) = value else {
        let what = if value.is_array() {
            "batch requests are not supported; send one JSON-RPC request object"
        } else {
            "the request must be a JSON-RPC 2.0 object"
        };
        return Err((JsonRpcId::Null, RpcError::new(codes::INVALID_REQUEST, what)));
    };
    let id = match obj.get("id") {
        None => JsonRpcId::Null,
        Some(Value::Number(n)) if !n.is_i64() && !n.is_u64() => {
            exact_id(bytes).unwrap_or_else(|| JsonRpcId::Num(n.clone()))
        }
        Some(v) => JsonRpcId::from_value(v).ok_or_else(|| {
            (
                JsonRpcId::Null,
                RpcError::new(
                    codes::INVALID_REQUEST,
                    "the request id must be a string, a number or null",
                ),
            )
        })?,
    };
    if obj.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err((
            id,
            RpcError::new(
                codes::INVALID_REQUEST,
                "the request must carry \"jsonrpc\": \"2.0\"",
            ),
        ));
    }
    let method = match obj.get("method") {
        Some(Value::String(m)) => m.clone(),
        Some(_) => {
            return Err((
                id,
                RpcError::new(codes::INVALID_REQUEST, "\"method\" must be a string"),
            ))
        }
        None => {
            return Err((
                id,
                RpcError::new(codes::INVALID_REQUEST, "the request has no \"method\""),
            ))
        }
    };
    let params = obj.remove("params");
    Ok(Envelope { id, method, params })
}

/// A 1.0 request (by its `A2A-Version` header) whose body is declared as something other
/// than JSON: `ContentTypeNotSupported` (-32005). 0.3 requests keep the lenient reading.
fn unsupported_content_type(headers: &HeaderMap) -> Option<RpcError> {
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
    Some(RpcError {
        error: e.to_jsonrpc(),
        status: StatusCode::OK,
        headers: Vec::new(),
    })
}

pub(crate) async fn rpc_handler(
    State(state): State<AppState>,
    caller: Result<Caller, crate::error::HttpError>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let started = Instant::now();
    let request_id = uuid::Uuid::new_v4().simple().to_string();
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
        state
            .metrics
            .record("-", "-", &e.error.code.to_string(), started.elapsed());
        return error_response(JsonRpcId::Null, e);
    }
    let env = match parse_raw(&bytes) {
        Ok(x) => x,
        Err((id, err)) => {
            state
                .metrics
                .record("-", "-", &err.error.code.to_string(), started.elapsed());
            return error_response(id, err);
        }
    };
    let version_header = headers
        .get(v1::VERSION_HEADER)
        .and_then(|v| v.to_str().ok());
    match v1::route(&env.method, version_header) {
        Err(e) => {
            let err = RpcError {
                error: e.to_jsonrpc(),
                status: StatusCode::OK,
                headers: Vec::new(),
            };
            state
                .metrics
                .record("-", "-", &err.error.code.to_string(), started.elapsed());
            return error_response(env.id, err);
        }
        Ok(v1::ProtocolVersion::V1_0) => {
            let h = crate::v1::handle(
                &env.method,
                env.params,
                env.id,
                &state,
                &caller,
                &request_id,
            )
            .await;
            state.metrics.record(
                h.method,
                h.skill.as_deref().unwrap_or("-"),
                &h.outcome,
                started.elapsed(),
            );
            tracing::info!(request_id = %request_id, method = h.method, version = "1.0", caller = %caller.id, outcome = %h.outcome, elapsed_ms = started.elapsed().as_millis() as u64, "request");
            return h.response;
        }
        Ok(v1::ProtocolVersion::V0_3) => {}
    }
    let (id, method) = match Method::parse(&env.method, env.params) {
        Ok(m) => (env.id, m),
        Err(err) => {
            state
                .metrics
                .record("-", "-", &err.error.code.to_string(), started.elapsed());
            return error_response(env.id, err);
        }
    };
    let name = method.name();
    let reply = methods::apply(method, &state, &caller, &request_id).await;
    let (skill, outcome, resp) = match reply {
        Reply::Json {
            skill,
            result,
            headers,
        } => {
            let mut r = json_response(StatusCode::OK, &JsonRpcResponse::success(id, result));
            r.headers_mut().extend(headers);
            (skill, "ok".to_string(), r)
        }
        Reply::Stream { skill, response } => (
            skill,
            "stream".to_string(),
            response(id, methods::Wire::V03),
        ),
        Reply::Error {
            skill,
            error,
            stream,
        } => {
            let code = error.error.code.to_string();
            if error.error.code == codes::RATE_LIMITED {
                // Labelled with the pool that refused (`message/send`, `catholic_qa`).
                let pool = error
                    .error
                    .data
                    .as_ref()
                    .and_then(|d| d.get("pool"))
                    .and_then(Value::as_str)
                    .unwrap_or("-");
                state.metrics.rate_limited(pool);
            }
            let r = if stream && error.status == StatusCode::OK {
                methods::sse_error(id, error)
            } else {
                error_response(id, error)
            };
            (skill, code, r)
        }
    };
    state.metrics.record(
        name,
        skill.as_deref().unwrap_or("-"),
        &outcome,
        started.elapsed(),
    );
    tracing::info!(request_id = %request_id, method = name, caller = %caller.id, outcome = %outcome, elapsed_ms = started.elapsed().as_millis() as u64, "request");
    resp
}

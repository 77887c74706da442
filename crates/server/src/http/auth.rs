//! Who is calling: the `Caller` extractor (a bearer API key, or an anonymous caller by
//! address when anonymous access is on), and the plain HTTP errors that come before any
//! protocol (401, and 500 when the key store fails), with the panic handler's 500.

use crate::core::callers::Caller;
use crate::core::state::AppState;
use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use ecclesia_a2a::error_codes as codes;
use serde_json::json;
use std::net::SocketAddr;

/// A plain HTTP error (before JSON-RPC could start), with a JSON body.
#[derive(Debug)]
pub struct HttpError {
    status: StatusCode,
    message: String,
}

impl HttpError {
    /// 401 with `WWW-Authenticate: Bearer`.
    pub fn unauthorized(message: &str) -> Self {
        HttpError {
            status: StatusCode::UNAUTHORIZED,
            message: message.into(),
        }
    }

    /// The HTTP status (401 or 500).
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// What the caller is told.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// 500 (logged).
    pub fn internal(cause: String) -> Self {
        tracing::error!(error = %cause, "internal error during authentication");
        HttpError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: "internal error".into(),
        }
    }
}

impl IntoResponse for HttpError {
    fn into_response(self) -> Response {
        let body = json!({
            "jsonrpc": "2.0", "id": null,
            "error": {"code": if self.status == StatusCode::UNAUTHORIZED { -32000 } else { codes::INTERNAL_ERROR },
                      "message": self.message}
        });
        let mut resp = (self.status, axum::Json(body)).into_response();
        if self.status == StatusCode::UNAUTHORIZED {
            resp.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Bearer realm=\"ecclesia\""),
            );
        }
        resp
    }
}

/// What a panic in a handler becomes: a 500 with a JSON-RPC internal error.
pub fn panic_response(_: Box<dyn std::any::Any + Send + 'static>) -> Response {
    tracing::error!("a request handler panicked");
    (
        StatusCode::INTERNAL_SERVER_ERROR,
        axum::Json(json!({"jsonrpc": "2.0", "id": null,
            "error": {"code": codes::INTERNAL_ERROR, "message": "Internal error"}})),
    )
        .into_response()
}

/// The anonymous caller of a request, by its address.
fn anonymous_caller(parts: &Parts, state: &AppState) -> Caller {
    let addr = parts
        .extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip().to_string())
        .unwrap_or_else(|| "local".into());
    Caller {
        id: format!("anon:{addr}"),
        plan_name: "anonymous".into(),
        plan: state.config.anonymous_plan(),
    }
}

impl FromRequestParts<AppState> for Caller {
    type Rejection = HttpError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, HttpError> {
        let header = parts
            .headers
            .get(axum::http::header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok());
        let token = header.and_then(|h| {
            let (scheme, rest) = h.split_once(' ')?;
            scheme
                .eq_ignore_ascii_case("bearer")
                .then(|| rest.trim().to_string())
        });
        match token {
            Some(token) if !token.is_empty() => {
                let keys = state.keys.clone();
                let anonymous = state.config.anonymous;
                let (found, revoked) = tokio::task::spawn_blocking(move || {
                    let found = keys.verify(&token)?;
                    // With anonymous access on, a token that matches no key is served as
                    // anonymous (as Ollama, vLLM and llama.cpp do when their auth is off, so
                    // that clients which must send some key work); a revoked key is not.
                    let revoked = found.is_none() && anonymous && keys.is_revoked(&token)?;
                    Ok::<_, crate::StoreError>((found, revoked))
                })
                .await
                .map_err(|e| HttpError::internal(e.to_string()))?
                .map_err(|e| HttpError::internal(e.to_string()))?;
                match found {
                    Some(key) => Ok(Caller {
                        plan: state.config.plan(&key.plan),
                        id: key.id,
                        plan_name: key.plan,
                    }),
                    None if anonymous && !revoked => Ok(anonymous_caller(parts, state)),
                    None => Err(HttpError::unauthorized("the API key is invalid or revoked")),
                }
            }
            _ if header.is_some() => Err(HttpError::unauthorized(
                "the Authorization header must be `Bearer <API key>`",
            )),
            _ if state.config.anonymous => Ok(anonymous_caller(parts, state)),
            _ => Err(HttpError::unauthorized(
                "an API key is required: send `Authorization: Bearer <API key>` (keys are issued with `ecclesia keys create`)",
            )),
        }
    }
}

//! Streamable HTTP at `/mcp`: bearer keys as for A2A (the server's `Caller`
//! extractor, before any MCP processing), `Host` and `Origin` checked,
//! request bodies bounded by the server's `body_limit`.

use crate::handler::EcclesiaMcp;
use crate::runner::Runner;
use axum::extract::{FromRequestParts, Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Router;
use ecclesia_server::{AppState, Caller};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use std::sync::Arc;

/// The path the router serves.
pub const MCP_PATH: &str = "/mcp";

/// The MCP endpoint as a router to merge into the server's
/// (`ecclesia_server::router(state.clone()).merge(ecclesia_mcp::router(state))`).
pub fn router(state: AppState) -> Router {
    router_with(state, |handler| handler)
}

/// [`router`] with each session's handler wrapped by `wrap`: the same transport, keys,
/// `Host` and `Origin` checks. For test servers only (the conformance suite's fixture
/// tools, prompts and resources mounted beside ours: `examples/mcp_fake_server.rs`).
#[doc(hidden)]
pub fn router_with<H, F>(state: AppState, wrap: F) -> Router
where
    H: rmcp::ServerHandler,
    F: Fn(EcclesiaMcp) -> H + Send + Sync + 'static,
{
    let handler =
        EcclesiaMcp::new(Runner::server(state.clone())).with_version(state.config.version.clone());
    let public = &state.config.public_url;
    let config = StreamableHttpServerConfig::default()
        .with_allowed_hosts(allowed_hosts(public))
        .with_allowed_origins(allowed_origins(public))
        .enforce_origin_validation()
        .with_max_request_body_bytes(state.config.body_limit);
    let service = StreamableHttpService::new(
        move || Ok(wrap(handler.for_session())),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    Router::new()
        .route_service(MCP_PATH, service)
        .layer(axum::middleware::from_fn_with_state(state, authenticate))
}

/// 401 (with `WWW-Authenticate: Bearer`) unless the key is valid, exactly as
/// A2A; then 413 for a body whose declared length is over `body_limit`, before
/// any of it is read (the SDK bounds the bodies that declare none as it reads).
async fn authenticate(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let (mut parts, body) = req.into_parts();
    let caller = match Caller::from_request_parts(&mut parts, &state).await {
        Ok(caller) => caller,
        Err(rejection) => return rejection.into_response(),
    };
    let limit = state.config.body_limit;
    let declared = parts
        .headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit as u64) {
        let body = serde_json::json!({"jsonrpc": "2.0", "id": null, "error": {
            "code": -32600,
            "message": format!("the request body is over the limit of {limit} bytes"),
        }});
        return (StatusCode::PAYLOAD_TOO_LARGE, axum::Json(body)).into_response();
    }
    tracing::debug!(caller = %caller.id, plan = %caller.plan_name, "mcp request");
    parts.extensions.insert(caller);
    next.run(Request::from_parts(parts, body)).await
}

/// `scheme://authority` of a URL, and its authority.
fn split_url(url: &str) -> Option<(&str, &str)> {
    let (scheme, rest) = url.split_once("://")?;
    let authority = rest.split(['/', '?', '#']).next()?;
    (!authority.is_empty()).then_some((scheme, authority))
}

/// Loopback names and the public URL's host (with and without its port).
pub fn allowed_hosts(public_url: &str) -> Vec<String> {
    let mut hosts: Vec<String> = ["localhost", "127.0.0.1", "::1", "[::1]"]
        .map(String::from)
        .into();
    if let Some((_, authority)) = split_url(public_url) {
        hosts.push(authority.to_string());
        if let Some((host, _port)) = authority
            .rsplit_once(':')
            .filter(|(h, _)| !h.ends_with(':'))
        {
            hosts.push(host.to_string());
        }
    }
    hosts.sort();
    hosts.dedup();
    hosts
}

/// The public URL's origin and local pages (any port).
pub fn allowed_origins(public_url: &str) -> Vec<String> {
    let mut origins: Vec<String> = ["http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*"]
        .map(String::from)
        .into();
    if let Some((scheme, authority)) = split_url(public_url) {
        let has_port = authority
            .rsplit_once(':')
            .is_some_and(|(_, p)| p.chars().all(|c| c.is_ascii_digit()));
        origins.push(if has_port {
            format!("{scheme}://{authority}")
        } else {
            let port = if scheme == "https" { 443 } else { 80 };
            format!("{scheme}://{authority}:{port}")
        });
    }
    origins
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_and_origins() {
        let h = allowed_hosts("https://ecclesia.example.org/base");
        assert!(h.contains(&"ecclesia.example.org".to_string()));
        let h = allowed_hosts("http://127.0.0.1:8080");
        assert!(h.contains(&"127.0.0.1:8080".to_string()));
        let o = allowed_origins("https://ecclesia.example.org");
        assert!(o.contains(&"https://ecclesia.example.org:443".to_string()));
        let o = allowed_origins("http://10.0.0.2:9000/x");
        assert!(o.contains(&"http://10.0.0.2:9000".to_string()));
    }
}

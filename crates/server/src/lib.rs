//! The server of Ecclesia: A2A 0.3 and 1.0 (JSON-RPC and HTTP+JSON) over one core, and the
//! listener other front-ends (MCP, the OpenAI API, the console) are merged into.
//!
//! Where things live: `core/` is the shared core (callers, plans, limits, lanes, the task
//! service, skill runs, the task bus, the store, the one error type); `a2a_v03/` and
//! `a2a_v1/` are the protocol front-ends (decode, call the core, encode); `http/` is the
//! listener, the connections, the shared JSON-RPC endpoint, SSE, feeds, the console gate,
//! health and metrics.
//!
//! [`router`] builds the axum application from an [`AppState`]: the agent card,
//! `POST /api/v1/a2a`, health, readiness and metrics, and the `GET` feeds the skills
//! register (`/calendar.ics`). [`serve`] runs it on a
//! listener until a shutdown signal, then finishes in-flight requests and
//! stops the background purge.
//!
//! The server knows no domain: skills come in a [`ecclesia_core::SkillRegistry`];
//! tasks live behind the [`TaskStore`] trait (SQLite: [`SqliteStore`], written through the
//! group-commit [`TaskWriter`]); callers are authenticated by [`KeyStore`] and limited by a
//! [`RateLimiter`]; running tasks share their events and cancellation through a [`TaskBus`].
//!
//! ```no_run
//! # async fn demo() -> anyhow::Result<()> {
//! use ecclesia_server::{AppState, ServerConfig, router};
//! let state = AppState::open(ServerConfig::default(), ecclesia_core::SkillRegistry::default(),
//!     std::path::Path::new("store"))?;
//! let app = router(state);
//! # Ok(()) }
//! ```

mod a2a_v03;
mod a2a_v1;
mod card;
mod card_sign;
mod config;
mod console_runner;
mod core;
mod http;

// Paths `card.rs` uses (it stays where it is).
use crate::a2a_v1 as v1;
use crate::core::state;

pub use crate::core::bus::{BusError, EventStream, InProcessBus, SharedEvent, TaskBus};
pub use crate::core::callers::{hash_token, ApiKey, Caller, KeyStore};
pub use crate::core::client::{items_of, AskError, CoreClient, Item, Items};
pub use crate::core::clock::{Clock, ManualClock, SystemClock};
pub use crate::core::errors::ServerError;
pub use crate::core::lanes::{Busy, Lane, LaneKind, LaneLimits, LaneStats, Lanes, Permit, Ticket};
pub use crate::core::limits::{InMemoryLimiter, PoolRequest, RateDecision, RateLimiter};
pub use crate::core::metrics::Metrics;
pub use crate::core::push::{
    PushAuth, PushConfig, PushConfigStore, PushVersion, MAX_CONFIGS_PER_TASK,
};
pub use crate::core::send::{SendOutcome, Sent, DEFAULT_SKILL};
pub use crate::core::state::{AppState, RunningTasks, Swappable};
pub use crate::core::store::{
    compact_for_storage, failed_by_restart, storage_json, Maintenance, SqliteStore, StoreError,
    StoreLimits, TaskCursor, TaskListQuery, TaskPage, TaskRecord, TaskStore, TaskWriter,
    MAX_STORED_MESSAGE,
};
pub use crate::core::tasks::Subscription;
pub use crate::http::auth::HttpError;
pub use crate::http::conn::{
    fit_to_fd_limit, raise_nofile_limit, ConnCounters, ConnLimits, Connections, FdLimit,
};
pub use card::agent_card;
pub use card_sign::{canonical_payload, CardSigner, SignError, JWKS_PATH};
pub use config::{Plan, ServerConfig};

/// Entry points for the fuzz targets in `fuzz/` (not a stable API).
#[doc(hidden)]
pub mod fuzzing {
    /// Decode one request body as `POST /api/v1/a2a` does (envelope, id,
    /// method, params, message parts) and encode the reply's envelope;
    /// returns the JSON-RPC error code, or 0 when the request is valid.
    /// Panics only where the endpoint would (which is the bug to find).
    pub fn decode_request(bytes: &[u8]) -> i64 {
        use crate::a2a_v03::{errors, methods::Method};
        let (id, code) = match crate::http::jsonrpc::parse_raw(bytes) {
            Ok(env) => match Method::parse(&env.method, env.params) {
                Ok(Method::Send(p) | Method::Stream(p)) => {
                    match ecclesia_core::SkillRequest::from_parts(&p.message.parts) {
                        Ok(_) => (env.id, 0),
                        Err(_) => (env.id, ecclesia_a2a::error_codes::INVALID_PARAMS),
                    }
                }
                Ok(Method::Invalid { error, .. }) | Err(error) => (env.id, errors::code(&error)),
                Ok(_) => (env.id, 0),
            },
            Err((id, e)) => (id, errors::code(&e)),
        };
        // The reply must be valid JSON that echoes the id.
        let reply =
            ecclesia_a2a::JsonRpcResponse::error(id, ecclesia_a2a::JsonRpcError::new(code, "x"));
        let text = serde_json::to_string(&reply).expect("a reply always encodes");
        let back: serde_json::Value =
            serde_json::from_str(&text).expect("a reply is always valid JSON");
        assert!(back.get("id").is_some(), "the reply has an id");
        code
    }
}

use axum::routing::{get, post};
use axum::Router;
use std::future::Future;
use tokio::net::TcpListener;

/// The application: every route, with its middleware.
pub fn router(state: AppState) -> Router {
    router_with(state, Router::new())
}

/// The application with `extra` routes of other front-ends (MCP at `/mcp`, the OpenAI API)
/// merged in under the same middleware (trace, panic catching).
pub fn router_with(state: AppState, extra: Router) -> Router {
    use tower_http::catch_panic::CatchPanicLayer;
    let feed_paths: Vec<&'static str> = state
        .registry
        .load()
        .feeds()
        .iter()
        .map(|f| f.path())
        .collect();
    let mut routes = Router::new();
    for path in feed_paths {
        routes = routes.route(path, get(http::feeds::feed_handler));
    }
    routes
        .nest(a2a_v1::rest::PREFIX, a2a_v1::rest::routes())
        .route("/.well-known/agent-card.json", get(card::card_handler))
        .route("/.well-known/agent.json", get(card::card_handler))
        .route(card_sign::JWKS_PATH, get(card::jwks_handler))
        .route("/api/v1/a2a", post(http::jsonrpc::rpc_handler))
        // Clients that join "/" to the interface URL (the 1.0 TCK's httpx base_url) post here.
        .route("/api/v1/a2a/", post(http::jsonrpc::rpc_handler))
        .route("/healthz", get(http::health::healthz))
        .route("/readyz", get(http::health::readyz))
        .route("/metrics", get(http::metrics::metrics_handler))
        .with_state(state.clone())
        .merge(console(&state))
        .merge(extra)
        .layer(
            tower::ServiceBuilder::new()
                .layer(axum::middleware::from_fn(http::request_span::request_span))
                .layer(CatchPanicLayer::custom(http::auth::panic_response)),
        )
}

/// The web console at `/` (when `ServerConfig::console`): its pages follow the registry
/// swaps and pass the same keys, plans and limits as the API ([`console_gate`], once per
/// page), and each of their skill calls is a core task of the page's caller
/// ([`console_runner`], surface `console`).
fn console(state: &AppState) -> Router {
    if !state.config.console {
        return Router::new();
    }
    let registry = state.registry.clone();
    let has_feed = registry
        .load()
        .feeds()
        .iter()
        .any(|f| f.path() == "/calendar.ics");
    let options = ecclesia_console::ConsoleOptions {
        public_url: Some(state.config.public_url.clone()),
        ics_path: has_feed.then(|| "/calendar.ics".to_string()),
        gate: Some(std::sync::Arc::new(http::console_gate::ConsoleGate {
            state: state.clone(),
        })),
        runner: Some(std::sync::Arc::new(console_runner::ConsoleRunner::new(
            state.client("console"),
        ))),
        ..Default::default()
    };
    ecclesia_console::router_with_source(std::sync::Arc::new(move || registry.load()), options)
}

/// Serve `state` on `listener` until `shutdown` resolves; in-flight requests
/// finish (at most `shutdown_grace`), background tasks stop, the store is flushed.
///
/// Connections are bounded and timed out (see `ServerConfig::header_read_timeout`,
/// `idle_timeout`, `max_connections`, `max_connections_per_ip`); the soft
/// descriptor limit is raised to the hard one first, and the connection limit
/// lowered to fit it.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    serve_with(listener, state, Router::new(), shutdown).await
}

/// [`serve`] with `extra` routes merged in (see [`router_with`]).
pub async fn serve_with(
    listener: TcpListener,
    state: AppState,
    extra: Router,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let fd = raise_nofile_limit();
    let limits = ConnLimits {
        header_read_timeout: state.config.header_read_timeout,
        idle_timeout: state.config.idle_timeout,
        max_connections: fit_to_fd_limit(state.config.max_connections, fd),
        max_per_ip: state.config.max_connections_per_ip,
    };
    if limits.max_connections < state.config.max_connections {
        tracing::warn!(
            configured = state.config.max_connections,
            allowed = limits.max_connections,
            fd_soft_limit = fd.map(|f| f.soft),
            "max_connections lowered to fit the file descriptor limit"
        );
    }
    let conns = std::sync::Arc::new(Connections::new(limits));
    let purge = state.spawn_purge();
    let app = router_with(state.clone(), extra).layer(axum::Extension(http::conn::Listening {
        connections: conns.clone(),
        fd_limit: fd,
    }));
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    tokio::spawn(async move {
        shutdown.await;
        let _ = stop_tx.send(true);
    });
    http::conn::serve_connections(listener, app, conns, stop_rx, state.config.shutdown_grace).await;
    state.shutdown();
    let _ = purge.await;
    state.close();
    Ok(())
}

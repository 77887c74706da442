//! `GET /healthz` (the process answers) and `GET /readyz` (skills loaded, the limits in
//! force, the lanes).

use crate::core::state::AppState;
use crate::http::conn::Listening;
use axum::extract::State;
use axum::response::IntoResponse;
use axum::Extension;
use serde_json::json;

pub(crate) async fn healthz() -> impl IntoResponse {
    axum::Json(json!({"status": "ok"}))
}

pub(crate) async fn readyz(
    State(state): State<AppState>,
    listening: Option<Extension<Listening>>,
) -> impl IntoResponse {
    let registry = state.registry.load();
    let skills: serde_json::Map<String, serde_json::Value> =
        registry.iter().map(|s| (s.card().id, s.status())).collect();
    let ready = !registry.is_empty();
    let code = if ready {
        axum::http::StatusCode::OK
    } else {
        axum::http::StatusCode::SERVICE_UNAVAILABLE
    };
    (
        code,
        axum::Json(json!({
            "status": if ready { "ready" } else { "no skills loaded (run `ecclesia ingest`)" },
            "skills": skills,
            "limits": limits_json(&state, listening.as_deref()),
            "registry_swaps": state.swaps.load(std::sync::atomic::Ordering::Relaxed),
            "queues": {
                "fast": state.lanes.fast.stats(),
                "slow": state.lanes.slow.stats(),
            },
        })),
    )
}

/// The connection limits in force, for `/readyz`.
fn limits_json(state: &AppState, listening: Option<&Listening>) -> serde_json::Value {
    use std::sync::atomic::Ordering::Relaxed;
    let c = &state.config;
    let mut v = json!({
        "header_read_timeout_secs": c.header_read_timeout.as_secs_f64(),
        "idle_timeout_secs": c.idle_timeout.as_secs_f64(),
        "body_timeout_secs": c.body_timeout.as_secs_f64(),
        "body_limit_bytes": c.body_limit,
        "max_connections_configured": c.max_connections,
        "max_connections_per_ip": c.max_connections_per_ip,
    });
    if let Some(fd) = listening.and_then(|l| l.fd_limit) {
        v["fd_soft_limit"] = json!(fd.soft);
        v["fd_hard_limit"] = json!(fd.hard);
        v["fd_limit_raised"] = json!(fd.raised);
    }
    if let Some(conns) = listening.map(|l| &l.connections) {
        let k = &conns.counters;
        v["max_connections"] = json!(conns.limits().max_connections);
        v["connections_open"] = json!(conns.open());
        v["connections_refused"] = json!(k.refused.load(Relaxed));
        v["connections_evicted"] = json!(k.evicted.load(Relaxed));
        v["header_timeouts"] = json!(k.header_timeouts.load(Relaxed));
        v["idle_timeouts"] = json!(k.idle_timeouts.load(Relaxed));
    }
    v
}

//! `GET /metrics`: the core's [`Metrics`](crate::Metrics) with the gauges read at scrape
//! time (lanes, connections, the task store, the skills' own figures).

use crate::core::state::AppState;
use crate::http::conn::Listening;
use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use axum::Extension;

pub(crate) async fn metrics_handler(
    State(state): State<AppState>,
    listening: Option<Extension<Listening>>,
) -> impl IntoResponse {
    let tasks = state.tasks.clone();
    let clock = state.clock.clone();
    let stored = tokio::task::spawn_blocking(move || tasks.count(clock.now()).unwrap_or(0))
        .await
        .unwrap_or(0);
    let mut extra = Vec::new();
    for (name, lane) in [("fast", &state.lanes.fast), ("slow", &state.lanes.slow)] {
        let st = lane.stats();
        extra.push((format!("ecclesia_queue_{name}_running"), st.running as f64));
        extra.push((format!("ecclesia_queue_{name}_waiting"), st.queued as f64));
    }
    if let Some(conns) = listening.as_deref().map(|l| &l.connections) {
        use std::sync::atomic::Ordering::Relaxed;
        let k = &conns.counters;
        extra.push(("ecclesia_connections_open".into(), conns.open() as f64));
        for (n, c) in [
            ("accepted", &k.accepted),
            ("refused", &k.refused),
            ("evicted", &k.evicted),
            ("header_timeouts", &k.header_timeouts),
            ("idle_timeouts", &k.idle_timeouts),
            ("accept_errors", &k.accept_errors),
        ] {
            extra.push((format!("ecclesia_connections_{n}"), c.load(Relaxed) as f64));
        }
    }
    if let Some(bytes) = {
        let tasks = state.tasks.clone();
        tokio::task::spawn_blocking(move || tasks.size_bytes())
            .await
            .ok()
            .flatten()
    } {
        extra.push(("ecclesia_task_store_bytes".into(), bytes as f64));
    }
    for skill in state.registry.load().iter() {
        // Numbers become gauges; one level of nested objects is flattened
        // (`{"semantic": {"embedded": 5}}` → `…_semantic_embedded 5`).
        if let Some(obj) = skill.status().as_object() {
            let id = skill.card().id;
            for (k, v) in obj {
                if let Some(n) = v.as_f64() {
                    extra.push((format!("ecclesia_skill_{id}_{}", sanitize(k)), n));
                } else if let Some(inner) = v.as_object() {
                    for (k2, v2) in inner {
                        if let Some(n) = v2.as_f64() {
                            extra.push((
                                format!("ecclesia_skill_{id}_{}_{}", sanitize(k), sanitize(k2)),
                                n,
                            ));
                        }
                    }
                }
            }
        }
    }
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        state.metrics.render(stored, &extra),
    )
}

fn sanitize(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

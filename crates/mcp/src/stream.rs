//! [`Runner::stream`]: a skill's answer as it is produced (text deltas, then
//! data parts), for streaming surfaces (OpenAI `stream: true`).
//!
//! Over the server the call is an in-process A2A `message/stream`; refusals
//! (keys, plans, rate limits, a full queue) come back as an `Err` before any
//! item, so the caller can still answer with the right HTTP status.

use crate::error::RunError;
use crate::runner::{CallerAuth, Runner};
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{header, Request, StatusCode};
use ecclesia_a2a::{Artifact, Part};
use ecclesia_core::{SkillContext, SkillRequest};
use futures::StreamExt;
use serde_json::{json, Map, Value};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use tokio::sync::mpsc;
use tower::ServiceExt;

/// Largest single SSE event read back (a whole document fits).
const MAX_EVENT_BYTES: usize = 16 * 1024 * 1024;
const CHANNEL: usize = 256;

/// One piece of a streamed answer.
#[derive(Debug, Clone, PartialEq)]
pub enum StreamItem {
    /// More text (a delta, or a whole text part from a skill that does not stream).
    Text(String),
    /// A data part (`{"citations": [...]}`, `{"related_questions": [...]}`, …).
    Data(Map<String, Value>),
}

/// Items until the answer is complete; an `Err` ends it early.
pub type ItemReceiver = mpsc::Receiver<Result<StreamItem, RunError>>;

fn items_of(artifact: &Artifact) -> Vec<StreamItem> {
    let mut items: Vec<StreamItem> = artifact
        .parts
        .iter()
        .filter_map(|p| match p {
            Part::Text { text, .. } => Some(StreamItem::Text(text.clone())),
            Part::Data { data, .. } => Some(StreamItem::Data(data.clone())),
            Part::File { .. } => None,
        })
        .collect();
    // `catholic_qa`'s grounding travels in the artifact's metadata.
    if let Some(g) = artifact.metadata.as_ref().and_then(|m| m.get("grounding")) {
        let mut data = Map::new();
        data.insert("grounding".into(), g.clone());
        items.push(StreamItem::Data(data));
    }
    items
}

impl Runner {
    /// Run `skill` on `parts`, streaming. `Err` when refused before starting.
    pub async fn stream(
        &self,
        skill: &str,
        parts: Vec<Part>,
        auth: &CallerAuth,
    ) -> Result<ItemReceiver, RunError> {
        match self {
            Runner::Local { registry, timeout } => {
                let Some(skill) = registry.get(skill).cloned() else {
                    return Err(RunError::Failed(format!(
                        "the skill {skill} is not available"
                    )));
                };
                let req = SkillRequest::from_parts(&parts)
                    .map_err(|e| RunError::InvalidParams(e.to_string()))?;
                let (tx, rx) = mpsc::channel(CHANNEL);
                let sink_tx = tx.clone();
                let streamed = Arc::new(AtomicBool::new(false));
                let sink_streamed = streamed.clone();
                let ctx = SkillContext::new(*timeout, Arc::new(AtomicBool::new(false))).with_sink(
                    move |chunk| {
                        sink_streamed.store(true, std::sync::atomic::Ordering::Relaxed);
                        for item in items_of(&chunk.artifact) {
                            let _ = sink_tx.blocking_send(Ok(item));
                        }
                    },
                );
                tokio::task::spawn_blocking(move || {
                    match skill.run(&req, &ctx) {
                        Ok(artifacts) => {
                            if !streamed.load(std::sync::atomic::Ordering::Relaxed) {
                                for a in &artifacts {
                                    for item in items_of(a) {
                                        let _ = tx.blocking_send(Ok(item));
                                    }
                                }
                            }
                        }
                        Err(e) => {
                            let e = match e {
                                ecclesia_core::SkillError::InvalidParams(m) => {
                                    RunError::InvalidParams(m)
                                }
                                other => RunError::Failed(other.to_string()),
                            };
                            let _ = tx.blocking_send(Err(e));
                        }
                    };
                });
                Ok(rx)
            }
            Runner::Server { app, .. } => stream_a2a(app.clone(), skill, parts, auth).await,
        }
    }
}

async fn stream_a2a(
    app: axum::Router,
    skill: &str,
    parts: Vec<Part>,
    auth: &CallerAuth,
) -> Result<ItemReceiver, RunError> {
    let body = json!({
        "jsonrpc": "2.0",
        "id": 1,
        "method": "message/stream",
        "params": {"message": {
            "kind": "message",
            "role": "user",
            "messageId": crate::runner::message_id(),
            "parts": parts,
            "metadata": {"skillId": skill},
        }},
    });
    let mut req = Request::post("/api/v1/a2a")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ACCEPT, "text/event-stream")
        .body(Body::from(body.to_string()))
        .map_err(|e| RunError::Failed(format!("internal error: {e}")))?;
    if let Some(a) = &auth.authorization {
        req.headers_mut().insert(header::AUTHORIZATION, a.clone());
    }
    if let Some(peer) = auth.peer {
        req.extensions_mut().insert(ConnectInfo(peer));
    }
    let resp = app
        .oneshot(req)
        .await
        .map_err(|e| RunError::Failed(format!("internal error: {e}")))?;
    let status = resp.status();
    let is_sse = resp
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/event-stream"));
    if !is_sse {
        // A plain JSON-RPC error (401, 400, …).
        let bytes = axum::body::to_bytes(resp.into_body(), MAX_EVENT_BYTES)
            .await
            .map_err(|e| RunError::Failed(format!("the answer could not be read: {e}")))?;
        let v: Value = serde_json::from_slice(&bytes)
            .map_err(|e| RunError::Failed(format!("the answer is not JSON: {e}")))?;
        crate::runner::a2a_outcome(status, v)?;
        return Err(RunError::Failed("the stream did not start".into()));
    }
    let mut events = sse_events(resp.into_body());
    // The first event is the submitted task, or the error that refused the call.
    match events.next().await {
        None => return Err(RunError::Failed("the stream ended before it began".into())),
        Some(Err(e)) => return Err(e),
        Some(Ok(first)) => {
            if first.get("error").is_some() {
                crate::runner::a2a_outcome(status, first)?;
            }
        }
    }
    let (tx, rx) = mpsc::channel(CHANNEL);
    tokio::spawn(async move {
        while let Some(ev) = events.next().await {
            let ev = match ev {
                Ok(ev) => ev,
                Err(e) => {
                    let _ = tx.send(Err(e)).await;
                    return;
                }
            };
            if ev.get("error").is_some() {
                let e = match crate::runner::a2a_outcome(StatusCode::OK, ev) {
                    Err(e) => e,
                    Ok(_) => RunError::Failed("the stream failed".into()),
                };
                let _ = tx.send(Err(e)).await;
                return;
            }
            let Some(result) = ev.get("result") else {
                continue;
            };
            match result.get("kind").and_then(Value::as_str) {
                Some("artifact-update") => {
                    let artifact: Option<Artifact> = result
                        .get("artifact")
                        .cloned()
                        .and_then(|a| serde_json::from_value(a).ok());
                    for item in artifact.iter().flat_map(items_of) {
                        if tx.send(Ok(item)).await.is_err() {
                            return;
                        }
                    }
                }
                Some("status-update") => {
                    let state = result
                        .pointer("/status/state")
                        .and_then(Value::as_str)
                        .unwrap_or("");
                    match state {
                        "completed" => return,
                        "failed" | "rejected" | "canceled" => {
                            let why: Vec<&str> = result
                                .pointer("/status/message/parts")
                                .and_then(Value::as_array)
                                .map(|ps| {
                                    ps.iter()
                                        .filter_map(|p| p.get("text").and_then(Value::as_str))
                                        .collect()
                                })
                                .unwrap_or_default();
                            let why = if why.is_empty() {
                                format!("the task ended {state}")
                            } else {
                                why.join(" ")
                            };
                            let e = if state == "rejected" {
                                RunError::InvalidParams(why)
                            } else {
                                RunError::Failed(why)
                            };
                            let _ = tx.send(Err(e)).await;
                            return;
                        }
                        _ => {}
                    }
                }
                _ => {}
            }
        }
    });
    Ok(rx)
}

/// The JSON `data:` payloads of an SSE body, one per event.
fn sse_events(body: Body) -> impl futures::Stream<Item = Result<Value, RunError>> + Send + Unpin {
    let state = (body.into_data_stream(), Vec::<u8>::new(), false);
    Box::pin(futures::stream::unfold(
        state,
        |(mut data, mut buf, done)| async move {
            if done {
                return None;
            }
            loop {
                if let Some(end) = buf.windows(2).position(|w| w == b"\n\n") {
                    let raw: Vec<u8> = buf.drain(..end + 2).collect();
                    // Whole events only: a character split across frames is joined first.
                    let block = String::from_utf8_lossy(&raw);
                    let payload: Vec<&str> = block
                        .lines()
                        .filter_map(|l| l.strip_prefix("data:"))
                        .map(|d| d.strip_prefix(' ').unwrap_or(d))
                        .collect();
                    if payload.is_empty() {
                        continue;
                    }
                    let item = serde_json::from_str::<Value>(&payload.join("\n"))
                        .map_err(|e| RunError::Failed(format!("a stream event is not JSON: {e}")));
                    return Some((item, (data, buf, false)));
                }
                if buf.len() > MAX_EVENT_BYTES {
                    let e = RunError::Failed("a stream event is too large".into());
                    return Some((Err(e), (data, buf, true)));
                }
                match data.next().await {
                    Some(Ok(bytes)) => buf.extend_from_slice(&bytes),
                    Some(Err(e)) => {
                        let e = RunError::Failed(format!("the stream broke: {e}"));
                        return Some((Err(e), (data, buf, true)));
                    }
                    None => return None,
                }
            }
        },
    ))
}

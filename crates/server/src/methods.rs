//! The JSON-RPC methods: one enum variant each, parsed from the params and
//! applied to the state. An unknown method is `-32601`, never a panic.

use crate::auth::Caller;
use crate::error::RpcError;
use crate::ratelimit::PoolRequest;
use crate::runner::{self, CancelResult, Outcome};
use crate::state::AppState;
use crate::store::TaskRecord;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use ecclesia_a2a::{
    error_codes as codes, JsonRpcId, JsonRpcResponse, MessageSendParams, Role, StreamEvent, Task,
    TaskIdParams, TaskQueryParams, TaskState, TaskStatusUpdateEvent,
};
use ecclesia_core::{Skill, SkillRequest};
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Instant;
use tokio::sync::broadcast;

/// The default skill when a message names none.
pub const DEFAULT_SKILL: &str = "catholic_qa";

const METHODS: &str = "message/send, message/stream, tasks/get, tasks/cancel, tasks/resubscribe";

/// A parsed request.
pub(crate) enum Method {
    Send(Box<MessageSendParams>),
    Stream(Box<MessageSendParams>),
    Get(TaskQueryParams),
    Cancel(TaskIdParams),
    Resubscribe(TaskIdParams),
    /// A known method this server does not offer, or bad params: answer with this error.
    Invalid {
        name: &'static str,
        error: RpcError,
        stream: bool,
    },
}

fn params<T: DeserializeOwned>(params: Option<Value>, what: &str) -> Result<T, RpcError> {
    match params {
        None | Some(Value::Null) => {
            Err(RpcError::invalid_params(format!("missing params: {what}")))
        }
        Some(v @ Value::Object(_)) => serde_json::from_value(v).map_err(|e| {
            RpcError::invalid_params(format!("invalid params: {e} (expected {what})"))
        }),
        Some(_) => Err(RpcError::invalid_params(format!(
            "params must be an object: {what}"
        ))),
    }
}

/// `message.kind`, when given, must be `"message"` (serde ignores a wrong tag value on structs).
fn check_message_kind(p: Option<Value>) -> Result<Option<Value>, RpcError> {
    if let Some(kind) = p
        .as_ref()
        .and_then(|p| p.get("message"))
        .and_then(|m| m.get("kind"))
    {
        if kind != "message" {
            return Err(RpcError::invalid_params(format!(
                "message.kind must be \"message\", not {kind}"
            )));
        }
    }
    Ok(p)
}

impl Method {
    pub(crate) fn parse(name: &str, p: Option<Value>) -> Result<Method, RpcError> {
        const SEND: &str = "{message: {kind, messageId, role, parts}, configuration?, metadata?}";
        const QUERY: &str = "{id, historyLength?}";
        const ID: &str = "{id}";
        let invalid = |name: &'static str, error: RpcError, stream: bool| Method::Invalid {
            name,
            error,
            stream,
        };
        let p = match check_message_kind(p) {
            Ok(p) => p,
            Err(e) => {
                let stream = name == "message/stream";
                let n = if stream {
                    "message/stream"
                } else {
                    "message/send"
                };
                return Ok(invalid(n, e, stream));
            }
        };
        Ok(match name {
            "message/send" => match params(p, SEND) {
                Ok(v) => Method::Send(Box::new(v)),
                Err(e) => invalid("message/send", e, false),
            },
            "message/stream" => match params(p, SEND) {
                Ok(v) => Method::Stream(Box::new(v)),
                Err(e) => invalid("message/stream", e, true),
            },
            "tasks/get" => match params(p, QUERY) {
                Ok(v) => Method::Get(v),
                Err(e) => invalid("tasks/get", e, false),
            },
            "tasks/cancel" => match params(p, ID) {
                Ok(v) => Method::Cancel(v),
                Err(e) => invalid("tasks/cancel", e, false),
            },
            "tasks/resubscribe" => match params(p, ID) {
                Ok(v) => Method::Resubscribe(v),
                Err(e) => invalid("tasks/resubscribe", e, true),
            },
            "tasks/pushNotificationConfig/set"
            | "tasks/pushNotificationConfig/get"
            | "tasks/pushNotificationConfig/list"
            | "tasks/pushNotificationConfig/delete" => invalid(
                "tasks/pushNotificationConfig",
                RpcError::new(
                    codes::PUSH_NOT_SUPPORTED,
                    "Push Notification is not supported",
                ),
                false,
            ),
            "agent/getAuthenticatedExtendedCard" => invalid(
                "agent/getAuthenticatedExtendedCard",
                RpcError::new(
                    codes::UNSUPPORTED_OPERATION,
                    "this agent has no authenticated extended card",
                ),
                false,
            ),
            other => {
                let shown: String = other.chars().take(100).collect();
                return Err(RpcError::new(
                    codes::METHOD_NOT_FOUND,
                    format!("Method not found: {shown:?}; supported methods: {METHODS}"),
                ));
            }
        })
    }

    pub(crate) fn name(&self) -> &'static str {
        match self {
            Method::Send(_) => "message/send",
            Method::Stream(_) => "message/stream",
            Method::Get(_) => "tasks/get",
            Method::Cancel(_) => "tasks/cancel",
            Method::Resubscribe(_) => "tasks/resubscribe",
            Method::Invalid { name, .. } => name,
        }
    }
}

/// The protocol version a reply is written in (the core speaks 0.3 inside).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Wire {
    /// A2A 0.3: events as they are.
    V03,
    /// A2A 1.0 over JSON-RPC: each event a JSON-RPC result holding a `StreamResponse`.
    V1,
    /// A2A 1.0 over HTTP+JSON: each event a bare `StreamResponse`.
    Rest,
}

pub(crate) type StreamFn = Box<dyn FnOnce(JsonRpcId, Wire) -> Response + Send>;

/// What a method produced.
pub(crate) enum Reply {
    Json {
        skill: Option<String>,
        result: Value,
        headers: HeaderMap,
    },
    Stream {
        skill: Option<String>,
        response: StreamFn,
    },
    Error {
        skill: Option<String>,
        error: RpcError,
        stream: bool,
    },
}

fn err(error: RpcError, skill: Option<String>, stream: bool) -> Reply {
    Reply::Error {
        skill,
        error,
        stream,
    }
}

pub(crate) fn task_json(task: &Task, history_length: Option<u32>) -> Value {
    let mut t = task.clone();
    if let (Some(n), Some(h)) = (history_length, t.history.as_mut()) {
        let n = n as usize;
        if h.len() > n {
            h.drain(..h.len() - n);
        }
    }
    if history_length.is_some() && t.history.is_none() {
        t.history = Some(Vec::new());
    }
    serde_json::to_value(t).unwrap_or(Value::Null)
}

pub(crate) async fn apply(
    method: Method,
    state: &AppState,
    caller: &Caller,
    request_id: &str,
) -> Reply {
    match method {
        Method::Send(p) => send(*p, state, caller, request_id, false).await,
        Method::Stream(p) => send(*p, state, caller, request_id, true).await,
        Method::Get(p) => get(p, state, caller, request_id).await,
        Method::Cancel(p) => cancel(p, state, caller, request_id).await,
        Method::Resubscribe(p) => resubscribe(p, state, caller, request_id).await,
        Method::Invalid { error, stream, .. } => err(error, None, stream),
    }
}

pub(crate) async fn load(
    state: &AppState,
    id: &str,
    owner: &str,
    request_id: &str,
) -> Result<Option<TaskRecord>, RpcError> {
    let tasks = state.tasks.clone();
    let now = state.clock.now();
    let (id, owner) = (id.to_string(), owner.to_string());
    match tokio::task::spawn_blocking(move || tasks.get(&id, &owner, now)).await {
        Ok(Ok(r)) => Ok(r),
        Ok(Err(e)) => Err(RpcError::internal(request_id, e)),
        Err(e) => Err(RpcError::internal(request_id, e)),
    }
}

fn skill_id(p: &MessageSendParams) -> Result<String, RpcError> {
    let from = |m: &Option<serde_json::Map<String, Value>>| {
        m.as_ref().and_then(|m| m.get("skillId")).cloned()
    };
    match from(&p.message.metadata).or_else(|| from(&p.metadata)) {
        None | Some(Value::Null) => Ok(DEFAULT_SKILL.to_string()),
        Some(Value::String(s)) => Ok(s),
        Some(_) => Err(RpcError::invalid_params(
            "metadata.skillId must be a string",
        )),
    }
}

fn rate_headers(d: &crate::ratelimit::RateDecision) -> HeaderMap {
    let mut h = HeaderMap::new();
    let num = |n: u64| HeaderValue::from(n);
    h.insert("ratelimit-limit", num(d.limit as u64));
    h.insert("ratelimit-remaining", num(d.remaining as u64));
    h.insert("ratelimit-reset", num(d.reset_secs));
    if !d.allowed {
        h.insert("retry-after", num(d.reset_secs));
    }
    h
}

/// `-32030` with HTTP 503 and `Retry-After`: the lane (or the caller's share of it) is full.
fn busy_error(busy: &crate::queue::Busy, lane: &crate::queue::Lane) -> RpcError {
    let stats = lane.stats();
    // A rough wait: the queue ahead divided among the workers, a second a run
    // for the fast lane and five for the slow one; at least one second.
    let per_run = match busy.lane {
        crate::queue::LaneKind::Fast => 1,
        crate::queue::LaneKind::Slow => 5,
    };
    let retry = ((busy.queued as u64 * per_run) / stats.workers.max(1) as u64).clamp(1, 60);
    let what = if busy.caller_share {
        format!(
            "you already have {} requests waiting for the {} skills",
            stats.per_caller_limit,
            busy.lane.as_str()
        )
    } else {
        format!(
            "the server's queue for the {} skills is full ({} waiting)",
            busy.lane.as_str(),
            busy.queued
        )
    };
    let mut e = RpcError::new(
        codes::SERVER_BUSY,
        format!("server busy: {what}; retry in {retry} s"),
    )
    .with_data(serde_json::json!({
        "retry_after_seconds": retry,
        "lane": busy.lane.as_str(),
        "queued": busy.queued,
        "queue_limit": stats.queue_limit,
        "per_caller_limit": stats.per_caller_limit,
        "caller_share": busy.caller_share,
    }));
    e.status = StatusCode::SERVICE_UNAVAILABLE;
    e.headers = vec![(axum::http::header::RETRY_AFTER, HeaderValue::from(retry))];
    e
}

async fn send(
    p: MessageSendParams,
    state: &AppState,
    caller: &Caller,
    request_id: &str,
    stream: bool,
) -> Reply {
    if !caller.plan.a2a {
        return err(
            RpcError::new(
                codes::PLAN_REQUIRED,
                format!("PLAN_REQUIRED: the {} plan does not include A2A access; ask the operator for a key on a paid plan", caller.plan_name),
            )
            .with_data(serde_json::json!({"plan": caller.plan_name})),
            None,
            stream,
        );
    }
    let skill_name = match skill_id(&p) {
        Ok(s) => s,
        Err(e) => return err(e, None, stream),
    };
    let registry = state.registry.load();
    let Some(skill) = registry.get(&skill_name).cloned() else {
        let shown: String = skill_name.chars().take(100).collect();
        return err(
            RpcError::invalid_params(format!(
                "unknown skill {shown:?}; available skills: {}",
                registry.ids().join(", ")
            ))
            .with_data(serde_json::json!({"available_skills": registry.ids()})),
            None,
            stream,
        );
    };
    let skill_tag = Some(skill_name.clone());
    let msg = &p.message;
    if msg.role != Role::User {
        return err(
            RpcError::invalid_params("message.role must be \"user\""),
            skill_tag,
            stream,
        );
    }
    if msg.message_id.trim().is_empty() {
        return err(
            RpcError::invalid_params("message.messageId must not be empty"),
            skill_tag,
            stream,
        );
    }
    if msg.parts.is_empty() {
        return err(
            RpcError::invalid_params("message.parts must hold at least one part"),
            skill_tag,
            stream,
        );
    }
    if let Some(tid) = &msg.task_id {
        match load(state, tid, &caller.id, request_id).await {
            Err(e) => return err(e, skill_tag, stream),
            Ok(None) => return err(RpcError::task_not_found(tid), skill_tag, stream),
            Ok(Some(rec)) if rec.state().is_terminal() => {
                return err(
                    RpcError::invalid_params(format!(
                        "Task {tid} is in terminal state: {}; send a new message without taskId (the same contextId may be kept) to start a new task",
                        rec.state().as_str()
                    )),
                    skill_tag,
                    stream,
                )
            }
            Ok(Some(_)) => {
                return err(
                    RpcError::invalid_params(format!(
                        "Task {tid} is still working; wait for it (tasks/get) or cancel it before sending more"
                    )),
                    skill_tag,
                    stream,
                )
            }
        }
    }
    let req = match SkillRequest::from_parts(&msg.parts) {
        Ok(r) => r,
        Err(e) => return err(RpcError::from_skill(e, request_id), skill_tag, stream),
    };

    // A place in the skill's lane first (a refusal here costs no rate-limit slot).
    let lane = state.lane_of(&skill_name);
    let ticket = match lane.admit(&caller.id) {
        Ok(t) => t,
        Err(busy) => return err(busy_error(&busy, lane), skill_tag, stream),
    };

    // Rate limits: the common pool, and the skill's stricter pool if any.
    let mut pools = Vec::new();
    if let Some(limit) = caller.plan.send_per_minute {
        pools.push(PoolRequest {
            pool: "message/send".into(),
            key: format!("send:{}", caller.id),
            limit,
        });
    }
    if let (Some(pool), Some(limit)) = (skill.extra_pool(), caller.plan.qa_per_minute) {
        pools.push(PoolRequest {
            pool: pool.into(),
            key: format!("{pool}:{}", caller.id),
            limit,
        });
    }
    let mut headers = HeaderMap::new();
    if let Some(d) = state.limiter.acquire(&pools, Instant::now()) {
        headers = rate_headers(&d);
        if !d.allowed {
            let mut e = RpcError::new(
                codes::RATE_LIMITED,
                format!("rate limit exceeded: {} requests a minute for {}; retry in {} s", d.limit, d.pool, d.reset_secs),
            )
            .with_data(serde_json::json!({"retry_after_seconds": d.reset_secs, "limit": d.limit, "pool": d.pool}));
            e.status = StatusCode::TOO_MANY_REQUESTS;
            e.headers = headers
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            return err(e, skill_tag, stream);
        }
    }

    let now = state.clock.now();
    let task_id = uuid::Uuid::new_v4().to_string();
    let context_id = msg
        .context_id
        .clone()
        .filter(|c| !c.trim().is_empty())
        .unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
    let mut user_msg = msg.clone();
    user_msg.task_id = Some(task_id.clone());
    user_msg.context_id = Some(context_id.clone());
    let mut meta = serde_json::Map::new();
    meta.insert("skillId".into(), Value::String(skill_name.clone()));
    let mut rec = TaskRecord {
        task: Task {
            id: task_id,
            context_id,
            status: runner::status(TaskState::Submitted, now),
            history: Some(vec![user_msg]),
            artifacts: None,
            metadata: Some(meta),
        },
        owner: caller.id.clone(),
        skill: skill_name.clone(),
        created_at: now,
        expires_at: now + state.config.task_ttl,
        status_history: Vec::new(),
    };
    rec.status_history.push(rec.task.status.clone());
    let first = rec.task.clone();
    let history_length = p.configuration.as_ref().and_then(|c| c.history_length);
    let blocking = p
        .configuration
        .as_ref()
        .and_then(|c| c.blocking)
        .unwrap_or(true);

    let (rx, handle) =
        runner::start(state, rec, skill.clone() as Arc<dyn Skill>, req, ticket).await;
    if stream {
        let response: StreamFn = Box::new(move |id, wire| {
            sse_events(id, wire, Some(StreamEvent::Task(first)), rx, headers)
        });
        return Reply::Stream {
            skill: skill_tag,
            response,
        };
    }
    if !blocking {
        drop(handle);
        let mut t = first;
        t.status = runner::status(TaskState::Working, state.clock.now());
        return Reply::Json {
            skill: skill_tag,
            result: task_json(&t, history_length),
            headers,
        };
    }
    match handle.await {
        Ok(Outcome::Done(rec)) => Reply::Json {
            skill: skill_tag,
            result: task_json(&rec.task, history_length),
            headers,
        },
        Ok(Outcome::InvalidParams(m)) => err(RpcError::invalid_params(m), skill_tag, false),
        Err(e) => err(RpcError::internal(request_id, e), skill_tag, false),
    }
}

async fn get(p: TaskQueryParams, state: &AppState, caller: &Caller, request_id: &str) -> Reply {
    match load(state, &p.id, &caller.id, request_id).await {
        Ok(Some(rec)) => Reply::Json {
            skill: Some(rec.skill.clone()),
            result: task_json(&rec.task, p.history_length),
            headers: HeaderMap::new(),
        },
        Ok(None) => err(RpcError::task_not_found(&p.id), None, false),
        Err(e) => err(e, None, false),
    }
}

fn not_cancelable(id: &str, state: TaskState) -> RpcError {
    RpcError::new(
        codes::TASK_NOT_CANCELABLE,
        format!(
            "Task cannot be canceled: task {id} is already {}",
            state.as_str()
        ),
    )
}

async fn cancel(p: TaskIdParams, state: &AppState, caller: &Caller, request_id: &str) -> Reply {
    match runner::cancel(state, &p.id, &caller.id).await {
        CancelResult::Canceled(rec) => {
            return Reply::Json {
                skill: Some(rec.skill.clone()),
                result: task_json(&rec.task, None),
                headers: HeaderMap::new(),
            }
        }
        CancelResult::Finishing => {
            return err(not_cancelable(&p.id, TaskState::Completed), None, false)
        }
        CancelResult::NotRunning => {}
    }
    match load(state, &p.id, &caller.id, request_id).await {
        Ok(None) => err(RpcError::task_not_found(&p.id), None, false),
        Ok(Some(rec)) if rec.state().is_terminal() => {
            err(not_cancelable(&p.id, rec.state()), Some(rec.skill), false)
        }
        Ok(Some(mut rec)) => {
            // Not running in this process (left over): cancel it in the store.
            let now = state.clock.now();
            let (tid, cid) = (rec.task.id.clone(), rec.task.context_id.clone());
            rec.set_status(runner::status_with_text(
                TaskState::Canceled,
                "canceled by the caller",
                now,
                &tid,
                &cid,
            ));
            let tasks = state.tasks.clone();
            let r2 = rec.clone();
            if let Err(e) = tokio::task::spawn_blocking(move || tasks.put(&r2)).await {
                return err(RpcError::internal(request_id, e), None, false);
            }
            Reply::Json {
                skill: Some(rec.skill.clone()),
                result: task_json(&rec.task, None),
                headers: HeaderMap::new(),
            }
        }
        Err(e) => err(e, None, false),
    }
}

async fn resubscribe(
    p: TaskIdParams,
    state: &AppState,
    caller: &Caller,
    request_id: &str,
) -> Reply {
    let rx = {
        let running = state.running.lock().unwrap_or_else(|e| e.into_inner());
        running
            .get(&p.id)
            .filter(|r| r.owner == caller.id)
            .map(|r| r.events.subscribe())
    };
    let rec = match load(state, &p.id, &caller.id, request_id).await {
        Ok(Some(rec)) => rec,
        Ok(None) => return err(RpcError::task_not_found(&p.id), None, true),
        Err(e) => return err(e, None, true),
    };
    let skill = Some(rec.skill.clone());
    match rx {
        Some(rx) if !rec.state().is_terminal() => {
            let response: StreamFn = Box::new(move |id, wire| {
                sse_events(
                    id,
                    wire,
                    Some(StreamEvent::Task(rec.task)),
                    rx,
                    HeaderMap::new(),
                )
            });
            Reply::Stream { skill, response }
        }
        _ => {
            // Finished: the task, then its final status.
            let (tx, rx) = broadcast::channel(1);
            let _ = tx.send(Arc::new(StreamEvent::Status(TaskStatusUpdateEvent {
                task_id: rec.task.id.clone(),
                context_id: rec.task.context_id.clone(),
                status: rec.task.status.clone(),
                is_final: true,
                metadata: None,
            })));
            let response: StreamFn = Box::new(move |id, wire| {
                sse_events(
                    id,
                    wire,
                    Some(StreamEvent::Task(rec.task)),
                    rx,
                    HeaderMap::new(),
                )
            });
            Reply::Stream { skill, response }
        }
    }
}

fn event_of(id: &JsonRpcId, wire: Wire, ev: &StreamEvent) -> Event {
    let resp = match wire {
        Wire::V03 => {
            JsonRpcResponse::success(id.clone(), serde_json::to_value(ev).unwrap_or(Value::Null))
        }
        Wire::Rest => {
            let body = match ecclesia_a2a::v1::StreamResponse::try_from(ev.clone()) {
                Ok(r) => serde_json::to_value(r).unwrap_or(Value::Null),
                Err(e) => {
                    tracing::error!("a stream event has no A2A 1.0 form: {e}");
                    serde_json::json!({"error": "internal error"})
                }
            };
            return Event::default().data(body.to_string());
        }
        Wire::V1 => match ecclesia_a2a::v1::StreamResponse::try_from(ev.clone()) {
            Ok(r) => {
                JsonRpcResponse::success(id.clone(), serde_json::to_value(r).unwrap_or(Value::Null))
            }
            Err(e) => {
                tracing::error!("a stream event has no A2A 1.0 form: {e}");
                let err = ecclesia_a2a::v1::A2aError::new(ecclesia_a2a::v1::ErrorKind::Internal);
                JsonRpcResponse::error(id.clone(), err.to_jsonrpc())
            }
        },
    };
    Event::default().data(serde_json::to_string(&resp).unwrap_or_default())
}

fn is_final(ev: &StreamEvent) -> bool {
    matches!(ev, StreamEvent::Status(s) if s.is_final)
}

/// An SSE response: `first`, then every event of `rx` up to the final status.
fn sse_events(
    id: JsonRpcId,
    wire: Wire,
    first: Option<StreamEvent>,
    rx: broadcast::Receiver<runner::SharedEvent>,
    headers: HeaderMap,
) -> Response {
    let init = first.map(|e| event_of(&id, wire, &e));
    let stream = futures::stream::unfold((init, Some(rx), id), move |(init, rx, id)| async move {
        if let Some(ev) = init {
            return Some((Ok::<Event, Infallible>(ev), (None, rx, id)));
        }
        let mut rx = rx?;
        loop {
            match rx.recv().await {
                Ok(ev) => {
                    let out = event_of(&id, wire, ev.as_ref());
                    let next = if is_final(&ev) { None } else { Some(rx) };
                    return Some((Ok(out), (None, next, id)));
                }
                Err(broadcast::error::RecvError::Lagged(n)) => {
                    tracing::warn!(skipped = n, "a stream reader fell behind");
                    continue;
                }
                Err(broadcast::error::RecvError::Closed) => return None,
            }
        }
    });
    let mut resp = Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response();
    resp.headers_mut().extend(headers);
    resp
}

/// A streaming method's error: one SSE event holding the JSON-RPC error.
pub(crate) fn sse_error(id: JsonRpcId, error: RpcError) -> Response {
    let resp = JsonRpcResponse::error(id, error.error);
    let ev = Event::default().data(serde_json::to_string(&resp).unwrap_or_default());
    let stream = futures::stream::iter([Ok::<Event, Infallible>(ev)]);
    let mut r = Sse::new(stream).into_response();
    for (k, v) in error.headers {
        r.headers_mut().insert(k, v);
    }
    r
}

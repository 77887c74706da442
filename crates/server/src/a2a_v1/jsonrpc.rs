//! A2A 1.0 over JSON-RPC on the same endpoint as 0.3 (`POST /api/v1/a2a`, PascalCase
//! methods with `A2A-Version: 1.0`): decode the 1.0 request, call the core (which speaks 0.3
//! inside; the conversions are lossless), and write the reply, the stream events and the
//! errors in 1.0's shapes. [`run`] is shared with the HTTP+JSON binding (`rest.rs`).

use crate::a2a_v1::errors::Failure;
use crate::a2a_v1::stream_response;
use crate::core::bus::EventStream;
use crate::core::callers::Caller;
use crate::core::errors::{rate_headers, ServerError};
use crate::core::push::{configs, PushAuth, PushConfig, PushVersion};
use crate::core::send::Sent;
use crate::core::state::AppState;
use crate::core::store::{TaskCursor, TaskListQuery};
use crate::core::tasks::{self, Subscription};
use crate::http::jsonrpc::{error_response, json_response, success_response, Handled};
use crate::http::sse;
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::Event;
use ecclesia_a2a::v1::{
    A2aError, AuthenticationInfo, ErrorKind, ListTaskPushNotificationConfigsResponse,
    ListTasksRequest, ListTasksResponse, Request, SendMessageResponse, TaskPushNotificationConfig,
};
use ecclesia_a2a::{
    JsonRpcId, JsonRpcResponse, MessageSendParams, StreamEvent, Task, TaskIdParams, TaskQueryParams,
};
use serde_json::Value;

/// The result of a 1.0 operation before it is written for a binding (JSON-RPC or REST).
pub(crate) enum Out {
    /// A task (`SendMessageResponse` or `Task`), serialized straight into the reply.
    Task {
        skill: Option<String>,
        result: Box<TaskResult>,
        headers: HeaderMap,
    },
    /// A result object (`ListTasksResponse`, push configs, …).
    Value {
        skill: Option<String>,
        value: Value,
        headers: HeaderMap,
    },
    /// A stream: the task, then its events (converted to `StreamResponse` when written).
    Stream {
        skill: Option<String>,
        first: Box<Task>,
        events: EventStream,
        headers: HeaderMap,
    },
    /// A 1.0 error.
    Error {
        skill: Option<String>,
        error: Failure,
    },
}

fn fail(e: impl Into<Failure>) -> Out {
    Out::Error {
        skill: None,
        error: e.into(),
    }
}

/// A core task in its 1.0 form.
fn task_v1(task: Task) -> Result<ecclesia_a2a::v1::Task, A2aError> {
    Ok(ecclesia_a2a::v1::Task::try_from(task)?)
}

/// A task result as 1.0 writes it.
#[derive(serde::Serialize)]
#[serde(untagged)]
pub(crate) enum TaskResult {
    /// `SendMessageResponse` (the reply to `SendMessage`).
    Wrapped(SendMessageResponse),
    /// A bare `Task` (`GetTask`, `CancelTask`).
    Plain(ecclesia_a2a::v1::Task),
}

/// A task as a 1.0 result; `wrap` puts it in `SendMessageResponse`.
fn task_value(task: Task, skill: Option<String>, headers: HeaderMap, wrap: bool) -> Out {
    match task_v1(task) {
        Ok(t) => Out::Task {
            skill,
            result: Box::new(if wrap {
                TaskResult::Wrapped(SendMessageResponse::Task(t))
            } else {
                TaskResult::Plain(t)
            }),
            headers,
        },
        Err(e) => Out::Error {
            skill,
            error: e.into(),
        },
    }
}

/// Run one decoded 1.0 request through the core.
pub(crate) async fn run(req: Request, state: &AppState, caller: &Caller, request_id: &str) -> Out {
    match req {
        Request::SendMessage(p) => send_message(p, false, state, caller, request_id).await,
        Request::SendStreamingMessage(p) => send_message(p, true, state, caller, request_id).await,
        Request::GetTask(p) => match TaskQueryParams::try_from(p) {
            Ok(q) => match state.client("a2a").get(caller, &q.id, request_id).await {
                Ok(rec) => task_value(
                    tasks::view(rec.task, q.history_length),
                    Some(rec.skill),
                    HeaderMap::new(),
                    false,
                ),
                Err(e) => fail(e),
            },
            Err(e) => fail(A2aError::from(e)),
        },
        Request::CancelTask(p) => {
            let q = TaskIdParams::from(p);
            match state.client("a2a").cancel(caller, &q.id, request_id).await {
                Ok(rec) => task_value(rec.task, Some(rec.skill), HeaderMap::new(), false),
                Err(e) => fail(e),
            }
        }
        Request::SubscribeToTask(p) => {
            let q = TaskIdParams::from(p);
            match state.client("a2a").subscribe(caller, &q.id, request_id).await {
                Ok((Subscription::Live { task, events }, skill)) => Out::Stream {
                    skill: Some(skill),
                    first: task,
                    events,
                    headers: HeaderMap::new(),
                },
                // Not running (left over by a previous process): its state, as final.
                Ok((Subscription::Finished(task), skill)) if !task.status.state.is_terminal() => {
                    Out::Stream {
                        skill: Some(skill),
                        events: tasks::final_events(&task),
                        first: task,
                        headers: HeaderMap::new(),
                    }
                }
                // 1.0 refuses a subscription to a finished task (-32004).
                Ok((Subscription::Finished(task), _)) => fail(
                    A2aError::new(ErrorKind::UnsupportedOperation).with_message(format!(
                        "Task {} is in terminal state {}: its events are over; read it with GetTask",
                        task.id,
                        task.status.state.as_str()
                    )),
                ),
                Err(e) => fail(e),
            }
        }
        Request::ListTasks(p) => match list(p, state, caller, request_id).await {
            Ok(value) => Out::Value {
                skill: None,
                value,
                headers: HeaderMap::new(),
            },
            Err(e) => fail(e),
        },
        Request::GetExtendedAgentCard(_) => fail(extended_card_error()),
        Request::CreateTaskPushNotificationConfig(c) => {
            let task_id = c.task_id.clone().unwrap_or_default();
            let new = configs::NewConfig {
                id: c.id,
                url: c.url,
                token: c.token,
                authentication: c.authentication.map(|a| PushAuth {
                    scheme: a.scheme,
                    credentials: a.credentials,
                }),
                version: PushVersion::V1,
            };
            push_value(
                state
                    .client("a2a")
                    .set_push_config(caller, &task_id, new, request_id)
                    .await
                    .map(|c| config_v1(&c)),
            )
        }
        Request::GetTaskPushNotificationConfig(r) => push_value(
            state
                .client("a2a")
                .push_config(caller, &r.task_id, &r.id, request_id)
                .await
                .map(|c| config_v1(&c)),
        ),
        Request::ListTaskPushNotificationConfigs(r) => {
            let result = state
                .client("a2a")
                .push_configs(caller, &r.task_id, request_id)
                .await;
            push_value(result.map(|cs| ListTaskPushNotificationConfigsResponse {
                configs: cs.iter().map(config_v1).collect(),
                next_page_token: String::new(),
            }))
        }
        Request::DeleteTaskPushNotificationConfig(r) => push_value(
            state
                .client("a2a")
                .delete_push_config(caller, &r.task_id, &r.id, request_id)
                .await
                .map(|()| serde_json::json!({})),
        ),
    }
}

/// A config in 1.0's form.
fn config_v1(c: &PushConfig) -> TaskPushNotificationConfig {
    TaskPushNotificationConfig {
        tenant: String::new(),
        id: Some(c.id.clone()),
        task_id: Some(c.task_id.clone()),
        url: c.url.clone(),
        token: c.token.clone(),
        authentication: c.authentication.as_ref().map(|a| AuthenticationInfo {
            scheme: a.scheme.clone(),
            credentials: a.credentials.clone(),
        }),
    }
}

fn push_value<T: serde::Serialize>(result: Result<T, ServerError>) -> Out {
    match result.map(|v| serde_json::to_value(v)) {
        Ok(Ok(value)) => Out::Value {
            skill: None,
            value,
            headers: HeaderMap::new(),
        },
        Ok(Err(e)) => fail(ServerError::internal("-", e)),
        Err(e) => fail(e),
    }
}

/// This agent has no extended card.
pub(crate) fn extended_card_error() -> A2aError {
    A2aError::new(ErrorKind::UnsupportedOperation).with_message(
        "this agent has no extended agent card (capabilities.extendedAgentCard is false)",
    )
}

async fn send_message(
    p: ecclesia_a2a::v1::SendMessageRequest,
    stream: bool,
    state: &AppState,
    caller: &Caller,
    request_id: &str,
) -> Out {
    let p03 = match MessageSendParams::try_from(p) {
        Ok(p) => p,
        Err(e) => return fail(A2aError::from(e)),
    };
    let out = state
        .client("a2a")
        .send(caller, p03, stream, PushVersion::V1, request_id)
        .await;
    let headers = out.rate.as_ref().map(rate_headers).unwrap_or_default();
    match out.result {
        Ok(Sent::Task(task)) => task_value(*task, out.skill, headers, true),
        Ok(Sent::Stream { first, events }) => Out::Stream {
            skill: out.skill,
            first,
            events,
            headers,
        },
        Err(e) => Out::Error {
            skill: out.skill,
            error: e.into(),
        },
    }
}

/// The error for a method whose capability the card does not declare (push notifications
/// when they are off, the extended card), whatever its params.
pub(crate) fn unsupported(
    state: &AppState,
    method: Option<ecclesia_a2a::v1::Method>,
) -> Option<Failure> {
    use ecclesia_a2a::v1::Method as M;
    match method? {
        M::CreateTaskPushNotificationConfig
        | M::GetTaskPushNotificationConfig
        | M::ListTaskPushNotificationConfigs
        | M::DeleteTaskPushNotificationConfig
            if state.push.is_none() =>
        {
            Some(ServerError::PushNotSupported.into())
        }
        M::GetExtendedAgentCard => Some(extended_card_error().into()),
        _ => None,
    }
}

/// One event as a JSON-RPC 1.0 SSE event: a result holding its `StreamResponse`.
fn event(id: &JsonRpcId, ev: &StreamEvent) -> Event {
    let resp = match stream_response(ev) {
        Ok(v) => JsonRpcResponse::success(id.clone(), v),
        Err(e) => JsonRpcResponse::error(id.clone(), e.to_jsonrpc()),
    };
    Event::default().data(serde_json::to_string(&resp).unwrap_or_default())
}

/// Decode, run and answer one A2A 1.0 JSON-RPC request.
pub(crate) async fn handle(
    name: &str,
    params: Option<Value>,
    id: JsonRpcId,
    state: &AppState,
    caller: &Caller,
    request_id: &str,
) -> Handled {
    let method = ecclesia_a2a::v1::Method::from_name(name);
    let method_name = method.map_or("-", |m| m.name());
    let out = match unsupported(state, method) {
        // A capability this agent does not declare is refused before its params are read.
        Some(e) => fail(e),
        None => match Request::decode_named(name, params.as_ref()) {
            Ok(req) => run(req, state, caller, request_id).await,
            Err(e) => fail(e),
        },
    };
    let (skill, outcome, refused_pool, response) = match out {
        Out::Task {
            skill,
            result,
            headers,
        } => {
            let mut r = success_response(&id, &*result);
            r.headers_mut().extend(headers);
            (skill, "ok".to_string(), None, r)
        }
        Out::Value {
            skill,
            value,
            headers,
        } => {
            let mut r = json_response(StatusCode::OK, &JsonRpcResponse::success(id, value));
            r.headers_mut().extend(headers);
            (skill, "ok".to_string(), None, r)
        }
        Out::Stream {
            skill,
            first,
            events,
            headers,
        } => {
            let first = event(&id, &StreamEvent::Task(*first));
            let r = sse::events(Some(first), events, move |ev| event(&id, ev), headers);
            (skill, "stream".to_string(), None, r)
        }
        // An error before a stream starts is a plain JSON-RPC error, for streaming methods too
        // (the 1.0 SDKs read a non-SSE answer to a streaming call as its error).
        Out::Error { skill, error } => {
            let pool = (error.error.kind == ErrorKind::RateLimited)
                .then(|| error.error.metadata.get("pool").cloned())
                .flatten();
            let code = error.error.code().to_string();
            let r = error_response(id, error.error.to_jsonrpc(), error.status, error.headers);
            (skill, code, pool, r)
        }
    };
    Handled {
        method: method_name,
        skill,
        outcome,
        refused_pool,
        response,
    }
}

/// `ListTasks`: the caller's own tasks, newest first, by pages.
async fn list(
    p: ListTasksRequest,
    state: &AppState,
    caller: &Caller,
    request_id: &str,
) -> Result<Value, Failure> {
    let page_size = p.page_size.unwrap_or(ListTasksRequest::DEFAULT_PAGE_SIZE);
    if !(1..=ListTasksRequest::MAX_PAGE_SIZE).contains(&page_size) {
        return Err(Failure::from(A2aError::invalid_params(
            "pageSize",
            format!("must be 1 to {}", ListTasksRequest::MAX_PAGE_SIZE),
        )));
    }
    let history_length = match p.history_length {
        Some(n) if n < 0 => {
            return Err(Failure::from(A2aError::invalid_params(
                "historyLength",
                "must not be negative",
            )))
        }
        Some(n) => Some(n as u32),
        None => None,
    };
    let after = match p.page_token.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(t) => Some(TaskCursor::from_token(t).ok_or_else(|| {
            Failure::from(A2aError::invalid_params(
                "pageToken",
                "is not a nextPageToken this server gave; start again without it",
            ))
        })?),
    };
    let since = match p.status_timestamp_after.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(t) => Some(chrono::DateTime::parse_from_rfc3339(t).map_err(|_| {
            Failure::from(A2aError::invalid_params(
                "statusTimestampAfter",
                "must be an RFC 3339 timestamp (2026-12-01T10:00:00Z)",
            ))
        })?),
    };
    let query = TaskListQuery {
        context_id: p.context_id.filter(|c| !c.is_empty()),
        state: p
            .status
            .filter(|s| *s != ecclesia_a2a::v1::TaskState::Unspecified)
            .map(ecclesia_a2a::TaskState::from),
        page_size: page_size as usize,
        after,
    };
    let page = state.client("a2a").list(caller, query, request_id).await?;
    let include_artifacts = p.include_artifacts.unwrap_or(false);
    let mut out = Vec::with_capacity(page.tasks.len());
    for rec in page.tasks {
        let changed = rec
            .task
            .status
            .timestamp
            .as_deref()
            .and_then(|t| chrono::DateTime::parse_from_rfc3339(t).ok());
        if let (Some(since), Some(changed)) = (since, changed) {
            if changed < since {
                continue;
            }
        }
        let mut task = rec.task;
        if !include_artifacts {
            task.artifacts = None;
        }
        out.push(task_v1(tasks::view(task, history_length))?);
    }
    let resp = ListTasksResponse {
        tasks: out,
        next_page_token: page.next.map(|c| c.token()).unwrap_or_default(),
        page_size,
        total_size: i32::try_from(page.total).unwrap_or(i32::MAX),
    };
    serde_json::to_value(resp).map_err(|e| ServerError::internal(request_id, e).into())
}

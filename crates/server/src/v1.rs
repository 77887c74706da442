//! A2A 1.0 over JSON-RPC on the same endpoint as 0.3: a thin front-end that decodes the 1.0
//! request, runs it through the same methods (the core speaks 0.3 inside), and writes the
//! reply, the stream events and the errors in 1.0's shapes. `ListTasks` has no 0.3
//! counterpart and is answered here from the task store.
//!
//! Routing (in `rpc.rs`): a PascalCase method with `A2A-Version: 1.0` comes here; a 0.3
//! method name, or no header, goes to the 0.3 path; a mismatch is `-32009` saying which
//! header or method to use.

use crate::auth::Caller;
use crate::error::RpcError;
use crate::methods::{self, Method, Reply, Wire};
use crate::rpc::{error_response, json_response};
use crate::state::AppState;
use crate::store::{TaskCursor, TaskListQuery};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use ecclesia_a2a::v1::{
    A2aError, ErrorKind, ListTasksRequest, ListTasksResponse, Request, SendMessageResponse,
};
use ecclesia_a2a::{JsonRpcId, JsonRpcResponse, MessageSendParams, TaskIdParams, TaskQueryParams};
use serde_json::Value;

/// What a 1.0 request produced, for the metrics and the log.
pub(crate) struct Handled {
    pub method: &'static str,
    pub skill: Option<String>,
    pub outcome: String,
    pub response: Response,
}

/// The result of a 1.0 operation before it is written for a binding (JSON-RPC or REST).
pub(crate) enum Out {
    /// A result object (`SendMessageResponse`, `Task`, `ListTasksResponse`).
    Value {
        skill: Option<String>,
        value: Value,
        headers: HeaderMap,
    },
    /// A stream of `StreamResponse` events.
    Stream {
        skill: Option<String>,
        response: methods::StreamFn,
    },
    /// A 1.0 error (its code already 1.0's), with the HTTP status and headers of the core.
    Error {
        skill: Option<String>,
        error: RpcError,
    },
}

/// The 1.0 form of a core error, with its HTTP status and headers kept.
pub(crate) fn rpc_error_v1(e: RpcError) -> RpcError {
    let converted = A2aError::from(&e.error).to_jsonrpc();
    RpcError {
        error: converted,
        status: e.status,
        headers: e.headers,
    }
}

pub(crate) fn from_a2a(e: A2aError) -> RpcError {
    let mut r = RpcError::new(e.code(), String::new());
    r.error = e.to_jsonrpc();
    r
}

fn fail(e: RpcError) -> Out {
    Out::Error {
        skill: None,
        error: e,
    }
}

/// A core task (0.3 JSON) in its 1.0 form.
fn task_v1(result: Value) -> Result<ecclesia_a2a::v1::Task, A2aError> {
    let task: ecclesia_a2a::Task = serde_json::from_value(result).map_err(|e| {
        A2aError::new(ErrorKind::Internal).with_message(format!("internal error: {e}"))
    })?;
    Ok(ecclesia_a2a::v1::Task::try_from(task)?)
}

/// A core reply in 1.0's shapes; `wrap` puts a task in `SendMessageResponse`.
fn from_reply(reply: Reply, wrap: bool) -> Out {
    match reply {
        Reply::Json {
            skill,
            result,
            headers,
        } => {
            let value = task_v1(result).and_then(|t| {
                let v = if wrap {
                    serde_json::to_value(SendMessageResponse::Task(t))
                } else {
                    serde_json::to_value(t)
                };
                v.map_err(|e| A2aError::new(ErrorKind::Internal).with_message(e.to_string()))
            });
            match value {
                Ok(value) => Out::Value {
                    skill,
                    value,
                    headers,
                },
                Err(e) => Out::Error {
                    skill,
                    error: from_a2a(e),
                },
            }
        }
        Reply::Stream { skill, response } => Out::Stream { skill, response },
        Reply::Error { skill, error, .. } => Out::Error {
            skill,
            error: rpc_error_v1(error),
        },
    }
}

/// `UnsupportedOperation` when `task_id` names one of the caller's tasks that has finished
/// (1.0 answers a message to, or a subscription on, a terminal task with -32004).
async fn refuse_terminal(
    state: &AppState,
    caller: &Caller,
    request_id: &str,
    task_id: &str,
    what: &str,
) -> Option<RpcError> {
    match methods::load(state, task_id, &caller.id, request_id).await {
        Ok(Some(rec)) if rec.state().is_terminal() => Some(from_a2a(
            A2aError::new(ErrorKind::UnsupportedOperation).with_message(format!(
                "Task {task_id} is in terminal state {}: {what}",
                rec.state().as_str()
            )),
        )),
        Ok(_) => None,
        Err(e) => Some(rpc_error_v1(e)),
    }
}

/// Run one decoded 1.0 request through the core.
pub(crate) async fn run(req: Request, state: &AppState, caller: &Caller, request_id: &str) -> Out {
    match req {
        Request::SendMessage(p) => send(p, false, state, caller, request_id).await,
        Request::SendStreamingMessage(p) => send(p, true, state, caller, request_id).await,
        Request::GetTask(p) => match TaskQueryParams::try_from(p) {
            Ok(q) => from_reply(
                methods::apply(Method::Get(q), state, caller, request_id).await,
                false,
            ),
            Err(e) => fail(from_a2a(e.into())),
        },
        Request::CancelTask(p) => from_reply(
            methods::apply(
                Method::Cancel(TaskIdParams::from(p)),
                state,
                caller,
                request_id,
            )
            .await,
            false,
        ),
        Request::SubscribeToTask(p) => {
            let q = TaskIdParams::from(p);
            let what = "its events are over; read it with GetTask";
            if let Some(e) = refuse_terminal(state, caller, request_id, &q.id, what).await {
                return fail(e);
            }
            from_reply(
                methods::apply(Method::Resubscribe(q), state, caller, request_id).await,
                false,
            )
        }
        Request::ListTasks(p) => match list(p, state, caller, request_id).await {
            Ok(value) => Out::Value {
                skill: None,
                value,
                headers: HeaderMap::new(),
            },
            Err(e) => fail(e),
        },
        Request::GetExtendedAgentCard(_) => fail(from_a2a(
            A2aError::new(ErrorKind::UnsupportedOperation).with_message(
                "this agent has no extended agent card (capabilities.extendedAgentCard is false)",
            ),
        )),
        Request::CreateTaskPushNotificationConfig(_)
        | Request::GetTaskPushNotificationConfig(_)
        | Request::ListTaskPushNotificationConfigs(_)
        | Request::DeleteTaskPushNotificationConfig(_) => fail(from_a2a(A2aError::new(
            ErrorKind::PushNotificationNotSupported,
        ))),
    }
}

async fn send(
    p: ecclesia_a2a::v1::SendMessageRequest,
    stream: bool,
    state: &AppState,
    caller: &Caller,
    request_id: &str,
) -> Out {
    let p03 = match MessageSendParams::try_from(p) {
        Ok(p) => p,
        Err(e) => return fail(from_a2a(e.into())),
    };
    if let Some(tid) = p03.message.task_id.clone() {
        let what = "send a new message without taskId (the same contextId may be kept)";
        if let Some(e) = refuse_terminal(state, caller, request_id, &tid, what).await {
            return fail(e);
        }
    }
    let method = if stream {
        Method::Stream(Box::new(p03))
    } else {
        Method::Send(Box::new(p03))
    };
    from_reply(
        methods::apply(method, state, caller, request_id).await,
        true,
    )
}

/// The error for a method whose capability the card does not declare (push notifications,
/// the extended card), whatever its params.
pub(crate) fn unsupported(method: Option<ecclesia_a2a::v1::Method>) -> Option<A2aError> {
    use ecclesia_a2a::v1::Method as M;
    match method? {
        M::CreateTaskPushNotificationConfig
        | M::GetTaskPushNotificationConfig
        | M::ListTaskPushNotificationConfigs
        | M::DeleteTaskPushNotificationConfig => {
            Some(A2aError::new(ErrorKind::PushNotificationNotSupported))
        }
        M::GetExtendedAgentCard => {
            Some(A2aError::new(ErrorKind::UnsupportedOperation).with_message(
                "this agent has no extended agent card (capabilities.extendedAgentCard is false)",
            ))
        }
        _ => None,
    }
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
    let out = match unsupported(method) {
        // A capability this agent does not declare is refused before its params are read.
        Some(e) => fail(from_a2a(e)),
        None => match Request::decode_named(name, params.as_ref()) {
            Ok(req) => run(req, state, caller, request_id).await,
            Err(e) => fail(from_a2a(e)),
        },
    };
    match out {
        Out::Value {
            skill,
            value,
            headers,
        } => {
            let mut response = json_response(StatusCode::OK, &JsonRpcResponse::success(id, value));
            response.headers_mut().extend(headers);
            Handled {
                method: method_name,
                skill,
                outcome: "ok".into(),
                response,
            }
        }
        Out::Stream { skill, response } => Handled {
            method: method_name,
            skill,
            outcome: "stream".into(),
            response: response(id, Wire::V1),
        },
        // An error before a stream starts is a plain JSON-RPC error, for streaming methods too
        // (the 1.0 SDKs read a non-SSE answer to a streaming call as its error).
        Out::Error { skill, error } => Handled {
            method: method_name,
            skill,
            outcome: error.error.code.to_string(),
            response: error_response(id, error),
        },
    }
}

/// `ListTasks`: the caller's own tasks, newest first, by pages.
async fn list(
    p: ListTasksRequest,
    state: &AppState,
    caller: &Caller,
    request_id: &str,
) -> Result<Value, RpcError> {
    let page_size = p.page_size.unwrap_or(ListTasksRequest::DEFAULT_PAGE_SIZE);
    if !(1..=ListTasksRequest::MAX_PAGE_SIZE).contains(&page_size) {
        return Err(from_a2a(A2aError::invalid_params(
            "pageSize",
            format!("must be 1 to {}", ListTasksRequest::MAX_PAGE_SIZE),
        )));
    }
    let history_length = match p.history_length {
        Some(n) if n < 0 => {
            return Err(from_a2a(A2aError::invalid_params(
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
            from_a2a(A2aError::invalid_params(
                "pageToken",
                "is not a nextPageToken this server gave; start again without it",
            ))
        })?),
    };
    let since = match p.status_timestamp_after.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(t) => Some(chrono::DateTime::parse_from_rfc3339(t).map_err(|_| {
            from_a2a(A2aError::invalid_params(
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
    let tasks = state.tasks.clone();
    let owner = caller.id.clone();
    let now = state.clock.now();
    let page = tokio::task::spawn_blocking(move || tasks.list(&owner, &query, now))
        .await
        .map_err(|e| RpcError::internal(request_id, e))
        .and_then(|r| r.map_err(|e| RpcError::internal(request_id, e)))
        .map_err(rpc_error_v1)?;
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
        let v = methods::task_json(&task, history_length);
        out.push(task_v1(v).map_err(from_a2a)?);
    }
    let resp = ListTasksResponse {
        tasks: out,
        next_page_token: page.next.map(|c| c.token()).unwrap_or_default(),
        page_size,
        total_size: i32::try_from(page.total).unwrap_or(i32::MAX),
    };
    serde_json::to_value(resp).map_err(|e| RpcError::internal(request_id, e))
}

/// The 1.0 agent card: the 0.3 card's content with the interfaces this server speaks.
pub(crate) fn card(card: &ecclesia_a2a::AgentCard) -> ecclesia_a2a::v1::AgentCard {
    use ecclesia_a2a::v1::{bindings, AgentInterface};
    let base = card.url.trim_end_matches("/api/v1/a2a");
    ecclesia_a2a::v1::AgentCard::from_v03(
        card,
        vec![
            AgentInterface::new(card.url.clone(), bindings::JSONRPC, "1.0"),
            AgentInterface::new(card.url.clone(), bindings::JSONRPC, "0.3"),
            AgentInterface::new(
                format!("{base}{}", crate::rest::PREFIX),
                bindings::HTTP_JSON,
                "1.0",
            ),
        ],
    )
}

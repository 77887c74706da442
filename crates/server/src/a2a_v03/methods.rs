//! The A2A 0.3 methods: one enum variant each, parsed from the params, applied through the
//! core, and written in 0.3's shapes. An unknown method is `-32601`, never a panic.

use crate::a2a_v03::errors;
use crate::core::callers::Caller;
use crate::core::errors::{rate_headers, ServerError};
use crate::core::push::{configs, PushVersion};
use crate::core::send::Sent;
use crate::core::state::AppState;
use crate::core::tasks::{self, Subscription};
use crate::http::jsonrpc::{error_response, json_response, success_response, Handled};
use crate::http::sse;
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::Event;
use ecclesia_a2a::{
    JsonRpcId, JsonRpcResponse, MessageSendParams, StreamEvent, Task, TaskIdParams,
    TaskPushNotificationConfig, TaskPushNotificationConfigQuery, TaskQueryParams,
};
use serde::de::DeserializeOwned;
use serde_json::Value;

const METHODS: &str = "message/send, message/stream, tasks/get, tasks/cancel, tasks/resubscribe, tasks/pushNotificationConfig/set|get|list|delete";

/// A parsed request.
pub(crate) enum Method {
    Send(Box<MessageSendParams>),
    Stream(Box<MessageSendParams>),
    Get(TaskQueryParams),
    Cancel(TaskIdParams),
    Resubscribe(TaskIdParams),
    PushSet(Box<TaskPushNotificationConfig>),
    PushGet(TaskPushNotificationConfigQuery),
    PushList(TaskIdParams),
    PushDelete(TaskPushNotificationConfigQuery),
    /// A known method this server does not offer, or bad params: answer with this error.
    Invalid {
        name: &'static str,
        error: ServerError,
        stream: bool,
    },
}

fn params<T: DeserializeOwned>(params: Option<Value>, what: &str) -> Result<T, ServerError> {
    match params {
        None | Some(Value::Null) => Err(ServerError::invalid_params(format!(
            "missing params: {what}"
        ))),
        Some(v @ Value::Object(_)) => serde_json::from_value(v).map_err(|e| {
            ServerError::invalid_params(format!("invalid params: {e} (expected {what})"))
        }),
        Some(_) => Err(ServerError::invalid_params(format!(
            "params must be an object: {what}"
        ))),
    }
}

/// `message.kind`, when given, must be `"message"` (serde ignores a wrong tag value on structs).
fn check_message_kind(p: Option<Value>) -> Result<Option<Value>, ServerError> {
    if let Some(kind) = p
        .as_ref()
        .and_then(|p| p.get("message"))
        .and_then(|m| m.get("kind"))
    {
        if kind != "message" {
            return Err(ServerError::invalid_params(format!(
                "message.kind must be \"message\", not {kind}"
            )));
        }
    }
    Ok(p)
}

impl Method {
    pub(crate) fn parse(name: &str, p: Option<Value>) -> Result<Method, ServerError> {
        const SEND: &str = "{message: {kind, messageId, role, parts}, configuration?, metadata?}";
        const QUERY: &str = "{id, historyLength?}";
        const ID: &str = "{id}";
        const PUSH_SET: &str =
            "{taskId, pushNotificationConfig: {url, id?, token?, authentication?}}";
        const PUSH_GET: &str = "{id, pushNotificationConfigId?}";
        const PUSH_DELETE: &str = "{id, pushNotificationConfigId}";
        let invalid = |name: &'static str, error: ServerError, stream: bool| Method::Invalid {
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
            "tasks/pushNotificationConfig/set" => match params(p, PUSH_SET) {
                Ok(v) => Method::PushSet(Box::new(v)),
                Err(e) => invalid("tasks/pushNotificationConfig/set", e, false),
            },
            "tasks/pushNotificationConfig/get" => match params(p, PUSH_GET) {
                Ok(v) => Method::PushGet(v),
                Err(e) => invalid("tasks/pushNotificationConfig/get", e, false),
            },
            "tasks/pushNotificationConfig/list" => match params(p, ID) {
                Ok(v) => Method::PushList(v),
                Err(e) => invalid("tasks/pushNotificationConfig/list", e, false),
            },
            "tasks/pushNotificationConfig/delete" => match params(p, PUSH_DELETE) {
                Ok(v) => Method::PushDelete(v),
                Err(e) => invalid("tasks/pushNotificationConfig/delete", e, false),
            },
            "agent/getAuthenticatedExtendedCard" => invalid(
                "agent/getAuthenticatedExtendedCard",
                ServerError::UnsupportedOperation(
                    "this agent has no authenticated extended card".into(),
                ),
                false,
            ),
            other => {
                let shown: String = other.chars().take(100).collect();
                return Err(ServerError::MethodNotFound(format!(
                    "Method not found: {shown:?}; supported methods: {METHODS}"
                )));
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
            Method::PushSet(_) => "tasks/pushNotificationConfig/set",
            Method::PushGet(_) => "tasks/pushNotificationConfig/get",
            Method::PushList(_) => "tasks/pushNotificationConfig/list",
            Method::PushDelete(_) => "tasks/pushNotificationConfig/delete",
            Method::Invalid { name, .. } => name,
        }
    }
}

/// What a method produced.
enum Reply {
    /// A task, serialized straight into the reply (no JSON value in between).
    Task {
        skill: Option<String>,
        task: Box<Task>,
        headers: HeaderMap,
    },
    Json {
        skill: Option<String>,
        result: Value,
        headers: HeaderMap,
    },
    Stream {
        skill: Option<String>,
        first: Box<Task>,
        events: crate::core::bus::EventStream,
        headers: HeaderMap,
    },
    Error {
        skill: Option<String>,
        error: ServerError,
        stream: bool,
    },
}

fn json(task: Task, skill: Option<String>, headers: HeaderMap) -> Reply {
    Reply::Task {
        skill,
        task: Box::new(task),
        headers,
    }
}

fn err(error: ServerError, skill: Option<String>, stream: bool) -> Reply {
    Reply::Error {
        skill,
        error,
        stream,
    }
}

async fn apply(method: Method, state: &AppState, caller: &Caller, request_id: &str) -> Reply {
    match method {
        Method::Send(p) => send_message(*p, false, state, caller, request_id).await,
        Method::Stream(p) => send_message(*p, true, state, caller, request_id).await,
        Method::Get(p) => match state.client("a2a").get(caller, &p.id, request_id).await {
            Ok(rec) => json(
                tasks::view(rec.task, p.history_length),
                Some(rec.skill),
                HeaderMap::new(),
            ),
            Err(e) => err(e, None, false),
        },
        Method::Cancel(p) => match state.client("a2a").cancel(caller, &p.id, request_id).await {
            Ok(rec) => json(rec.task, Some(rec.skill), HeaderMap::new()),
            Err(e) => err(e, None, false),
        },
        Method::Resubscribe(p) => {
            match state
                .client("a2a")
                .subscribe(caller, &p.id, request_id)
                .await
            {
                // A finished task: the task, then its final status.
                Ok((Subscription::Finished(task), skill)) => Reply::Stream {
                    skill: Some(skill),
                    events: tasks::final_events(&task),
                    first: task,
                    headers: HeaderMap::new(),
                },
                Ok((Subscription::Live { task, events }, skill)) => Reply::Stream {
                    skill: Some(skill),
                    first: task,
                    events,
                    headers: HeaderMap::new(),
                },
                Err(e) => err(e, None, true),
            }
        }
        Method::PushSet(p) => {
            let result = match configs::from_v03(&p.push_notification_config, PushVersion::V03) {
                Ok(new) => {
                    state
                        .client("a2a")
                        .set_push_config(caller, &p.task_id, new, request_id)
                        .await
                }
                Err(e) => Err(e),
            };
            push_reply(result.map(|c| serde_json::to_value(configs::to_v03(&c))))
        }
        Method::PushGet(p) => {
            let id = p
                .push_notification_config_id
                .unwrap_or_else(|| p.id.clone());
            let result = state
                .client("a2a")
                .push_config(caller, &p.id, &id, request_id)
                .await;
            push_reply(result.map(|c| serde_json::to_value(configs::to_v03(&c))))
        }
        Method::PushList(p) => {
            let result = state
                .client("a2a")
                .push_configs(caller, &p.id, request_id)
                .await;
            push_reply(
                result.map(|cs| {
                    serde_json::to_value(cs.iter().map(configs::to_v03).collect::<Vec<_>>())
                }),
            )
        }
        Method::PushDelete(p) => match p.push_notification_config_id {
            Some(id) => {
                let result = state
                    .client("a2a")
                    .delete_push_config(caller, &p.id, &id, request_id)
                    .await;
                push_reply(result.map(|()| Ok(Value::Null)))
            }
            None => err(
                ServerError::invalid_params("pushNotificationConfigId is required"),
                None,
                false,
            ),
        },
        Method::Invalid { error, stream, .. } => err(error, None, stream),
    }
}

fn push_reply(result: Result<Result<Value, serde_json::Error>, ServerError>) -> Reply {
    match result {
        Ok(Ok(result)) => Reply::Json {
            skill: None,
            result,
            headers: HeaderMap::new(),
        },
        Ok(Err(e)) => err(ServerError::internal("-", e), None, false),
        Err(e) => err(e, None, false),
    }
}

async fn send_message(
    p: MessageSendParams,
    stream: bool,
    state: &AppState,
    caller: &Caller,
    request_id: &str,
) -> Reply {
    let out = state
        .client("a2a")
        .send(caller, p, stream, PushVersion::V03, request_id)
        .await;
    let headers = out.rate.as_ref().map(rate_headers).unwrap_or_default();
    match out.result {
        Ok(Sent::Task(task)) => json(*task, out.skill, headers),
        Ok(Sent::Stream { first, events }) => Reply::Stream {
            skill: out.skill,
            first,
            events,
            headers,
        },
        Err(e) => err(e, out.skill, stream),
    }
}

/// One 0.3 event as an SSE event: a JSON-RPC result holding it.
fn event(id: &JsonRpcId, ev: &StreamEvent) -> Event {
    let resp =
        JsonRpcResponse::success(id.clone(), serde_json::to_value(ev).unwrap_or(Value::Null));
    Event::default().data(serde_json::to_string(&resp).unwrap_or_default())
}

/// Decode, run and answer one A2A 0.3 JSON-RPC request.
pub(crate) async fn handle(
    name: &str,
    params: Option<Value>,
    id: JsonRpcId,
    state: &AppState,
    caller: &Caller,
    request_id: &str,
) -> Handled {
    // Push methods when push notifications are off: refused before their params are read.
    let parsed = if state.push.is_none() && name.starts_with("tasks/pushNotificationConfig/") {
        Ok(Method::Invalid {
            name: "tasks/pushNotificationConfig",
            error: ServerError::PushNotSupported,
            stream: false,
        })
    } else {
        Method::parse(name, params)
    };
    let method = match parsed {
        Ok(m) => m,
        Err(e) => {
            let error = errors::encode(&e);
            return Handled {
                method: "-",
                skill: None,
                outcome: error.code.to_string(),
                refused_pool: None,
                response: error_response(id, error, e.http_status(), e.headers()),
            };
        }
    };
    let method_name = method.name();
    let (skill, outcome, refused_pool, response) =
        match apply(method, state, caller, request_id).await {
            Reply::Task {
                skill,
                task,
                headers,
            } => {
                let mut r = success_response(&id, &*task);
                r.headers_mut().extend(headers);
                (skill, "ok".to_string(), None, r)
            }
            Reply::Json {
                skill,
                result,
                headers,
            } => {
                let mut r = json_response(StatusCode::OK, &JsonRpcResponse::success(id, result));
                r.headers_mut().extend(headers);
                (skill, "ok".to_string(), None, r)
            }
            Reply::Stream {
                skill,
                first,
                events,
                headers,
            } => {
                let first = StreamEvent::Task(*first);
                let r = sse::events(
                    Some(event(&id, &first)),
                    events,
                    move |ev| event(&id, ev),
                    headers,
                );
                (skill, "stream".to_string(), None, r)
            }
            Reply::Error {
                skill,
                error,
                stream,
            } => {
                let encoded = errors::encode(&error);
                let code = encoded.code.to_string();
                let pool = error.refused_pool().map(str::to_string);
                let status = error.http_status();
                let r = if stream && status == StatusCode::OK {
                    let resp = JsonRpcResponse::error(id, encoded);
                    sse::single(
                        Event::default().data(serde_json::to_string(&resp).unwrap_or_default()),
                        error.headers(),
                    )
                } else {
                    error_response(id, encoded, status, error.headers())
                };
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

//! The 1.0 JSON-RPC methods and the decoding (and checking) of their params.

use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{Map, Value};

use super::errors::{A2aError, ErrorKind};
use super::lenient::describe;
use super::message::{Message, Part, Role};
use super::params::{
    CancelTaskRequest, GetExtendedAgentCardRequest, GetTaskRequest, ListTasksRequest,
    SendMessageConfiguration, SendMessageRequest, SubscribeToTaskRequest,
};
use super::push::{
    ListTaskPushNotificationConfigsRequest, TaskPushNotificationConfig,
    TaskPushNotificationConfigRef,
};
use super::task::TaskState;

/// A method of the 1.0 JSON-RPC binding (§9.4; the names of the gRPC service).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Method {
    /// `SendMessage`.
    SendMessage,
    /// `SendStreamingMessage` (SSE).
    SendStreamingMessage,
    /// `GetTask`.
    GetTask,
    /// `ListTasks`.
    ListTasks,
    /// `CancelTask`.
    CancelTask,
    /// `SubscribeToTask` (SSE).
    SubscribeToTask,
    /// `CreateTaskPushNotificationConfig`.
    CreateTaskPushNotificationConfig,
    /// `GetTaskPushNotificationConfig`.
    GetTaskPushNotificationConfig,
    /// `ListTaskPushNotificationConfigs` (plural, as in `a2a.proto`).
    ListTaskPushNotificationConfigs,
    /// `DeleteTaskPushNotificationConfig`.
    DeleteTaskPushNotificationConfig,
    /// `GetExtendedAgentCard`.
    GetExtendedAgentCard,
}

impl Method {
    /// Every method.
    pub const ALL: [Method; 11] = [
        Method::SendMessage,
        Method::SendStreamingMessage,
        Method::GetTask,
        Method::ListTasks,
        Method::CancelTask,
        Method::SubscribeToTask,
        Method::CreateTaskPushNotificationConfig,
        Method::GetTaskPushNotificationConfig,
        Method::ListTaskPushNotificationConfigs,
        Method::DeleteTaskPushNotificationConfig,
        Method::GetExtendedAgentCard,
    ];

    /// The JSON-RPC method name.
    pub fn name(self) -> &'static str {
        match self {
            Method::SendMessage => "SendMessage",
            Method::SendStreamingMessage => "SendStreamingMessage",
            Method::GetTask => "GetTask",
            Method::ListTasks => "ListTasks",
            Method::CancelTask => "CancelTask",
            Method::SubscribeToTask => "SubscribeToTask",
            Method::CreateTaskPushNotificationConfig => "CreateTaskPushNotificationConfig",
            Method::GetTaskPushNotificationConfig => "GetTaskPushNotificationConfig",
            Method::ListTaskPushNotificationConfigs => "ListTaskPushNotificationConfigs",
            Method::DeleteTaskPushNotificationConfig => "DeleteTaskPushNotificationConfig",
            Method::GetExtendedAgentCard => "GetExtendedAgentCard",
        }
    }

    /// The method for a name (exact, case-sensitive).
    pub fn from_name(name: &str) -> Option<Method> {
        Method::ALL.into_iter().find(|m| m.name() == name)
    }

    /// The 0.3 method that does the same (`ListTasks` has none: `tasks/list`
    /// is not a 0.3 method, and is named here only for messages).
    pub fn v03_name(self) -> &'static str {
        match self {
            Method::SendMessage => "message/send",
            Method::SendStreamingMessage => "message/stream",
            Method::GetTask => "tasks/get",
            Method::ListTasks => "tasks/list",
            Method::CancelTask => "tasks/cancel",
            Method::SubscribeToTask => "tasks/resubscribe",
            Method::CreateTaskPushNotificationConfig => "tasks/pushNotificationConfig/set",
            Method::GetTaskPushNotificationConfig => "tasks/pushNotificationConfig/get",
            Method::ListTaskPushNotificationConfigs => "tasks/pushNotificationConfig/list",
            Method::DeleteTaskPushNotificationConfig => "tasks/pushNotificationConfig/delete",
            Method::GetExtendedAgentCard => "agent/getAuthenticatedExtendedCard",
        }
    }

    /// The 1.0 method for a 0.3 name.
    pub fn from_v03_name(name: &str) -> Option<Method> {
        Method::ALL
            .into_iter()
            .find(|m| *m != Method::ListTasks && m.v03_name() == name)
    }

    /// Whether the answer is an SSE stream.
    pub fn is_streaming(self) -> bool {
        matches!(self, Method::SendStreamingMessage | Method::SubscribeToTask)
    }
}

/// A decoded and checked 1.0 request.
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    /// `SendMessage`.
    SendMessage(SendMessageRequest),
    /// `SendStreamingMessage`.
    SendStreamingMessage(SendMessageRequest),
    /// `GetTask`.
    GetTask(GetTaskRequest),
    /// `ListTasks` (a `status` of `TASK_STATE_UNSPECIFIED` is read as no filter).
    ListTasks(ListTasksRequest),
    /// `CancelTask`.
    CancelTask(CancelTaskRequest),
    /// `SubscribeToTask`.
    SubscribeToTask(SubscribeToTaskRequest),
    /// `CreateTaskPushNotificationConfig`.
    CreateTaskPushNotificationConfig(TaskPushNotificationConfig),
    /// `GetTaskPushNotificationConfig`.
    GetTaskPushNotificationConfig(TaskPushNotificationConfigRef),
    /// `ListTaskPushNotificationConfigs`.
    ListTaskPushNotificationConfigs(ListTaskPushNotificationConfigsRequest),
    /// `DeleteTaskPushNotificationConfig`.
    DeleteTaskPushNotificationConfig(TaskPushNotificationConfigRef),
    /// `GetExtendedAgentCard`.
    GetExtendedAgentCard(GetExtendedAgentCardRequest),
}

impl Request {
    /// Decode a request by method name: an unknown name is `MethodNotFound`
    /// (with the 1.0 name in the message when a 0.3 name was sent).
    pub fn decode_named(method: &str, params: Option<&Value>) -> Result<Request, A2aError> {
        match Method::from_name(method) {
            Some(m) => Request::decode(m, params),
            None => {
                let hint = match Method::from_v03_name(method) {
                    Some(m) => format!(" (the 1.0 name of {method} is {})", m.name()),
                    None => String::new(),
                };
                Err(A2aError::new(ErrorKind::MethodNotFound)
                    .with_message(format!("Method not found: {method}{hint}"))
                    .with_metadata("method", method))
            }
        }
    }

    /// Decode and check the params of `method`. Every failure is
    /// `InvalidParams` (-32602) whose message names the field and says what
    /// is expected; absent params are allowed where every field is optional.
    pub fn decode(method: Method, params: Option<&Value>) -> Result<Request, A2aError> {
        let obj = params_object(method, params)?;
        Ok(match method {
            Method::SendMessage => Request::SendMessage(send_message(obj)?),
            Method::SendStreamingMessage => Request::SendStreamingMessage(send_message(obj)?),
            Method::GetTask => {
                let r: GetTaskRequest = decode_object(obj, "")?;
                require_id("id", &r.id)?;
                non_negative("historyLength", r.history_length)?;
                Request::GetTask(r)
            }
            Method::ListTasks => {
                let mut r: ListTasksRequest = decode_object(obj, "")?;
                if let Some(n) = r.page_size {
                    if !(1..=ListTasksRequest::MAX_PAGE_SIZE).contains(&n) {
                        return Err(A2aError::invalid_params(
                            "pageSize",
                            format!("must be between 1 and 100 inclusive, got {n}"),
                        ));
                    }
                }
                non_negative("historyLength", r.history_length)?;
                if r.status == Some(TaskState::Unspecified) {
                    r.status = None;
                }
                Request::ListTasks(r)
            }
            Method::CancelTask => {
                let r: CancelTaskRequest = decode_object(obj, "")?;
                require_id("id", &r.id)?;
                Request::CancelTask(r)
            }
            Method::SubscribeToTask => {
                let r: SubscribeToTaskRequest = decode_object(obj, "")?;
                require_id("id", &r.id)?;
                Request::SubscribeToTask(r)
            }
            Method::CreateTaskPushNotificationConfig => {
                let r: TaskPushNotificationConfig = decode_object(obj, "")?;
                match r.task_id.as_deref() {
                    Some(t) if !t.trim().is_empty() => {}
                    _ => {
                        return Err(A2aError::invalid_params(
                            "taskId",
                            "is required: the task whose updates go to the webhook",
                        ))
                    }
                }
                check_push_config("", &r)?;
                Request::CreateTaskPushNotificationConfig(r)
            }
            Method::GetTaskPushNotificationConfig | Method::DeleteTaskPushNotificationConfig => {
                let r: TaskPushNotificationConfigRef = decode_object(obj, "")?;
                require_id("taskId", &r.task_id)?;
                require_id("id", &r.id)?;
                if method == Method::GetTaskPushNotificationConfig {
                    Request::GetTaskPushNotificationConfig(r)
                } else {
                    Request::DeleteTaskPushNotificationConfig(r)
                }
            }
            Method::ListTaskPushNotificationConfigs => {
                let r: ListTaskPushNotificationConfigsRequest = decode_object(obj, "")?;
                require_id("taskId", &r.task_id)?;
                non_negative("pageSize", r.page_size)?;
                Request::ListTaskPushNotificationConfigs(r)
            }
            Method::GetExtendedAgentCard => Request::GetExtendedAgentCard(decode_object(obj, "")?),
        })
    }

    /// The method.
    pub fn method(&self) -> Method {
        match self {
            Request::SendMessage(_) => Method::SendMessage,
            Request::SendStreamingMessage(_) => Method::SendStreamingMessage,
            Request::GetTask(_) => Method::GetTask,
            Request::ListTasks(_) => Method::ListTasks,
            Request::CancelTask(_) => Method::CancelTask,
            Request::SubscribeToTask(_) => Method::SubscribeToTask,
            Request::CreateTaskPushNotificationConfig(_) => {
                Method::CreateTaskPushNotificationConfig
            }
            Request::GetTaskPushNotificationConfig(_) => Method::GetTaskPushNotificationConfig,
            Request::ListTaskPushNotificationConfigs(_) => Method::ListTaskPushNotificationConfigs,
            Request::DeleteTaskPushNotificationConfig(_) => {
                Method::DeleteTaskPushNotificationConfig
            }
            Request::GetExtendedAgentCard(_) => Method::GetExtendedAgentCard,
        }
    }

    /// The `tenant` the request names (empty when none).
    pub fn tenant(&self) -> &str {
        match self {
            Request::SendMessage(r) | Request::SendStreamingMessage(r) => &r.tenant,
            Request::GetTask(r) => &r.tenant,
            Request::ListTasks(r) => &r.tenant,
            Request::CancelTask(r) => &r.tenant,
            Request::SubscribeToTask(r) => &r.tenant,
            Request::CreateTaskPushNotificationConfig(r) => &r.tenant,
            Request::GetTaskPushNotificationConfig(r)
            | Request::DeleteTaskPushNotificationConfig(r) => &r.tenant,
            Request::ListTaskPushNotificationConfigs(r) => &r.tenant,
            Request::GetExtendedAgentCard(r) => &r.tenant,
        }
    }
}

/// The empty params of methods whose fields are all optional.
static EMPTY: std::sync::LazyLock<Value> = std::sync::LazyLock::new(|| Value::Object(Map::new()));

/// The params, which must be an object; absent or `null` params are `{}` for
/// the methods whose fields are all optional.
fn params_object(method: Method, params: Option<&Value>) -> Result<&Value, A2aError> {
    match params {
        Some(v @ Value::Object(_)) => Ok(v),
        None | Some(Value::Null) => match method {
            Method::ListTasks | Method::GetExtendedAgentCard => Ok(&EMPTY),
            _ => Err(A2aError::invalid_params(
                "params",
                format!("{} needs params (an object)", method.name()),
            )),
        },
        Some(other) => Err(A2aError::invalid_params(
            "params",
            format!("must be an object, got {}", describe(other)),
        )),
    }
}

/// `prefix.field`, or `field` at the top.
fn join(prefix: &str, field: &str) -> String {
    if prefix.is_empty() {
        field.to_string()
    } else {
        format!("{prefix}.{field}")
    }
}

/// Decode `obj` (a JSON object) as `T` without copying it; on failure, find
/// the field at fault (the one whose removal lifts the error) and name it.
fn decode_object<T: DeserializeOwned>(obj: &Value, prefix: &str) -> Result<T, A2aError> {
    match T::deserialize(obj) {
        Ok(t) => Ok(t),
        Err(e) => Err(locate::<T>(obj, prefix, e.to_string())),
    }
}

/// The error for `obj`, which failed to decode as `T` with `err`.
fn locate<T: DeserializeOwned>(obj: &Value, prefix: &str, err: String) -> A2aError {
    if let Some(field) = missing_field(&err) {
        return A2aError::invalid_params(join(prefix, field), "is required");
    }
    if let Value::Object(map) = obj {
        for key in map.keys() {
            let mut without = map.clone();
            without.remove(key);
            let lifted = match T::deserialize(&Value::Object(without)) {
                Ok(_) => true,
                Err(e) => missing_field(&e.to_string()) == Some(key.as_str()),
            };
            if lifted {
                return A2aError::invalid_params(join(prefix, key), err);
            }
        }
    }
    let at = if prefix.is_empty() { "params" } else { prefix };
    A2aError::invalid_params(at, err)
}

/// The field of a serde "missing field `x`" message.
fn missing_field(err: &str) -> Option<&str> {
    let rest = err.strip_prefix("missing field `")?;
    rest.split('`').next()
}

fn send_message(params: &Value) -> Result<SendMessageRequest, A2aError> {
    let req = match SendMessageRequest::deserialize(params) {
        Ok(r) => r,
        Err(e) => return Err(locate_send_message(params, e.to_string())),
    };
    check_message(&req.message)?;
    if let Some(c) = &req.configuration {
        non_negative("configuration.historyLength", c.history_length)?;
        if let Some(p) = &c.task_push_notification_config {
            check_push_config("configuration.taskPushNotificationConfig", p)?;
        }
    }
    Ok(req)
}

/// Find what is wrong in `SendMessage` params that failed with `err`: the
/// message, a part by index, the configuration, or another field.
fn locate_send_message(params: &Value, err: String) -> A2aError {
    let message = match params.get("message") {
        None | Some(Value::Null) => {
            return A2aError::invalid_params(
                "message",
                "is required: {messageId, role: \"ROLE_USER\", parts: [{text: …}]}",
            )
        }
        Some(m @ Value::Object(_)) => m,
        Some(other) => {
            return A2aError::invalid_params(
                "message",
                format!("must be an object, got {}", describe(other)),
            )
        }
    };
    if let Err(e) = check_message_parts(message) {
        return e;
    }
    if let Err(e) = decode_object::<Message>(message, "message") {
        return e;
    }
    if let Some(c @ Value::Object(_)) = params.get("configuration") {
        if let Err(e) = decode_object::<SendMessageConfiguration>(c, "configuration") {
            return e;
        }
    }
    // The message and configuration are fine: look at the other fields,
    // with a placeholder message.
    let mut rest = params.clone();
    if let Value::Object(m) = &mut rest {
        m.insert(
            "message".into(),
            serde_json::json!({"messageId": "-", "role": "ROLE_USER", "parts": []}),
        );
    }
    locate::<SendMessageRequest>(&rest, "", err)
}

fn check_message_parts(message: &Value) -> Result<(), A2aError> {
    match message.get("parts") {
        None | Some(Value::Null) => Err(A2aError::invalid_params(
            "message.parts",
            "is required: a list of parts such as {\"text\": \"…\"}",
        )),
        Some(Value::Array(parts)) => {
            for (i, p) in parts.iter().enumerate() {
                if let Err(e) = Part::deserialize(p) {
                    return Err(A2aError::invalid_params(
                        format!("message.parts[{i}]"),
                        e.to_string(),
                    ));
                }
            }
            Ok(())
        }
        Some(other) => Err(A2aError::invalid_params(
            "message.parts",
            format!("must be a list, got {}", describe(other)),
        )),
    }
}

fn check_message(m: &Message) -> Result<(), A2aError> {
    require_id("message.messageId", &m.message_id)?;
    if m.role == Role::Unspecified {
        return Err(A2aError::invalid_params(
            "message.role",
            "must be ROLE_USER (ROLE_UNSPECIFIED is not a sender)",
        ));
    }
    if m.parts.is_empty() {
        return Err(A2aError::invalid_params(
            "message.parts",
            "at least one part is required",
        ));
    }
    Ok(())
}

fn check_push_config(prefix: &str, p: &TaskPushNotificationConfig) -> Result<(), A2aError> {
    if p.url.trim().is_empty() {
        return Err(A2aError::invalid_params(
            join(prefix, "url"),
            "is required: the webhook's absolute URL",
        ));
    }
    if let Some(a) = &p.authentication {
        if a.scheme.trim().is_empty() {
            return Err(A2aError::invalid_params(
                join(prefix, "authentication.scheme"),
                "is required (e.g. \"Bearer\")",
            ));
        }
    }
    Ok(())
}

fn require_id(field: &str, v: &str) -> Result<(), A2aError> {
    if v.trim().is_empty() {
        Err(A2aError::invalid_params(field, "must not be empty"))
    } else {
        Ok(())
    }
}

fn non_negative(field: &str, v: Option<i32>) -> Result<(), A2aError> {
    match v {
        Some(n) if n < 0 => Err(A2aError::invalid_params(
            field,
            format!("must be a non-negative integer, got {n}"),
        )),
        _ => Ok(()),
    }
}

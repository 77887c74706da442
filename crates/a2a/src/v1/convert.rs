//! Conversions between the 1.0 types and the 0.3 types of this crate, so that
//! the server keeps one model (the 0.3 one) and renders either version.
//!
//! Every conversion is lossless for what both versions can say: `1.0 → 0.3 →
//! 1.0` and `0.3 → 1.0 → 0.3` give back the value (tests in `tests/v1_convert.rs`).
//! Where 0.3 has no field for a 1.0 value, the value travels in part metadata:
//!
//! - a 1.0 `data` part whose value is not an object becomes the 0.3 data
//!   `{"value": v}` with `metadata.data_part_compat: true` (the official
//!   Python SDK's convention, `a2a/compat/v0_3/conversions.py`);
//! - `filename` / `mediaType` on a 1.0 text or data part (0.3 has them on
//!   file parts only) go under `metadata["a2aV1Part"]`.
//!
//! What cannot be converted is a [`ConvertError`]: `ROLE_UNSPECIFIED`, a 0.3
//! file with both or neither of `bytes` and `uri`, a negative `historyLength`,
//! a 1.0 `message` stream event (0.3 streams carry no bare messages here).
//! Not carried: `tenant` (0.3 has none), the push config's `taskId` inside
//! `SendMessage` (empty there by definition), metadata `{}` versus absent on
//! a part that needed the reserved keys (both come back as absent).

use serde_json::{json, Map, Value};

use super::errors::{A2aError, ErrorKind};
use super::message::{Artifact, Message, Part, PartContent, Role};
use super::params::{
    CancelTaskRequest, GetTaskRequest, SendMessageConfiguration, SendMessageRequest,
    SubscribeToTaskRequest,
};
use super::push::{AuthenticationInfo, TaskPushNotificationConfig};
use super::task::{
    StreamResponse, Task, TaskArtifactUpdateEvent, TaskState, TaskStatus, TaskStatusUpdateEvent,
};
use crate as v03;

/// The 0.3 metadata key of the official SDK for a non-object data value.
pub const DATA_PART_COMPAT_KEY: &str = "data_part_compat";
/// The 0.3 metadata key that holds 1.0 `filename` / `mediaType` of a text or data part.
pub const V1_PART_FIELDS_KEY: &str = "a2aV1Part";

/// A value that one version cannot express.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConvertError {
    /// `ROLE_UNSPECIFIED` has no 0.3 role.
    #[error("{0}: ROLE_UNSPECIFIED is not a sender; use ROLE_USER or ROLE_AGENT")]
    UnspecifiedRole(&'static str),
    /// A 0.3 file part must hold exactly one of `bytes` and `uri`.
    #[error("a file part must hold exactly one of bytes and uri")]
    FileContent,
    /// 0.3 history lengths are unsigned.
    #[error("{0}: must be a non-negative integer, got {1}")]
    NegativeHistoryLength(&'static str, i32),
    /// 0.3 push authentication that is not `{schemes: [..], credentials?}`.
    #[error("push notification authentication must be {{\"schemes\": [\"Bearer\"], \"credentials\": \"…\"}}")]
    PushAuthentication,
    /// A bare message in a stream has no 0.3 stream event here.
    #[error("a message stream event has no 0.3 equivalent")]
    MessageEvent,
}

impl From<ConvertError> for A2aError {
    /// An input that 0.3 cannot hold is the client's to fix: invalid params.
    fn from(e: ConvertError) -> Self {
        match e {
            ConvertError::MessageEvent => A2aError::new(ErrorKind::Internal),
            other => A2aError::new(ErrorKind::InvalidParams)
                .with_message(format!("Invalid parameters: {other}")),
        }
    }
}

// ---- roles and states ----

impl From<v03::Role> for Role {
    fn from(r: v03::Role) -> Self {
        match r {
            v03::Role::User => Role::User,
            v03::Role::Agent => Role::Agent,
        }
    }
}

impl TryFrom<Role> for v03::Role {
    type Error = ConvertError;
    fn try_from(r: Role) -> Result<Self, ConvertError> {
        match r {
            Role::User => Ok(v03::Role::User),
            Role::Agent => Ok(v03::Role::Agent),
            Role::Unspecified => Err(ConvertError::UnspecifiedRole("role")),
        }
    }
}

impl From<v03::TaskState> for TaskState {
    /// 0.3 `unknown` is `TASK_STATE_UNSPECIFIED`.
    fn from(s: v03::TaskState) -> Self {
        match s {
            v03::TaskState::Submitted => TaskState::Submitted,
            v03::TaskState::Working => TaskState::Working,
            v03::TaskState::InputRequired => TaskState::InputRequired,
            v03::TaskState::Completed => TaskState::Completed,
            v03::TaskState::Canceled => TaskState::Canceled,
            v03::TaskState::Failed => TaskState::Failed,
            v03::TaskState::Rejected => TaskState::Rejected,
            v03::TaskState::AuthRequired => TaskState::AuthRequired,
            v03::TaskState::Unknown => TaskState::Unspecified,
        }
    }
}

impl From<TaskState> for v03::TaskState {
    fn from(s: TaskState) -> Self {
        match s {
            TaskState::Submitted => v03::TaskState::Submitted,
            TaskState::Working => v03::TaskState::Working,
            TaskState::InputRequired => v03::TaskState::InputRequired,
            TaskState::Completed => v03::TaskState::Completed,
            TaskState::Canceled => v03::TaskState::Canceled,
            TaskState::Failed => v03::TaskState::Failed,
            TaskState::Rejected => v03::TaskState::Rejected,
            TaskState::AuthRequired => v03::TaskState::AuthRequired,
            TaskState::Unspecified => v03::TaskState::Unknown,
        }
    }
}

// ---- parts ----

/// `metadata` plus the reserved entries, `None` when all are absent.
fn with_reserved(
    metadata: Option<Map<String, Value>>,
    compat: bool,
    filename: Option<String>,
    media_type: Option<String>,
) -> Option<Map<String, Value>> {
    if !compat && filename.is_none() && media_type.is_none() {
        return metadata;
    }
    let mut m = metadata.unwrap_or_default();
    if compat {
        m.insert(DATA_PART_COMPAT_KEY.into(), Value::Bool(true));
    }
    if filename.is_some() || media_type.is_some() {
        let mut f = Map::new();
        if let Some(n) = filename {
            f.insert("filename".into(), Value::String(n));
        }
        if let Some(t) = media_type {
            f.insert("mediaType".into(), Value::String(t));
        }
        m.insert(V1_PART_FIELDS_KEY.into(), Value::Object(f));
    }
    Some(m)
}

/// Take the reserved entries out of 0.3 metadata: (metadata, compat, filename, mediaType).
type Reserved = (
    Option<Map<String, Value>>,
    bool,
    Option<String>,
    Option<String>,
);

fn take_reserved(metadata: Option<Map<String, Value>>) -> Reserved {
    let Some(mut m) = metadata else {
        return (None, false, None, None);
    };
    let had_reserved = m.contains_key(DATA_PART_COMPAT_KEY) || m.contains_key(V1_PART_FIELDS_KEY);
    let compat = matches!(m.remove(DATA_PART_COMPAT_KEY), Some(Value::Bool(true)));
    let (mut filename, mut media_type) = (None, None);
    if let Some(Value::Object(f)) = m.remove(V1_PART_FIELDS_KEY) {
        if let Some(Value::String(n)) = f.get("filename") {
            filename = Some(n.clone());
        }
        if let Some(Value::String(t)) = f.get("mediaType") {
            media_type = Some(t.clone());
        }
    }
    let metadata = if had_reserved && m.is_empty() {
        None
    } else {
        Some(m)
    };
    (metadata, compat, filename, media_type)
}

impl From<Part> for v03::Part {
    fn from(p: Part) -> Self {
        match p.content {
            PartContent::Text(text) => v03::Part::Text {
                text,
                metadata: with_reserved(p.metadata, false, p.filename, p.media_type),
            },
            PartContent::Data(Value::Object(data)) => v03::Part::Data {
                data,
                metadata: with_reserved(p.metadata, false, p.filename, p.media_type),
            },
            PartContent::Data(other) => {
                let mut data = Map::new();
                data.insert("value".into(), other);
                v03::Part::Data {
                    data,
                    metadata: with_reserved(p.metadata, true, p.filename, p.media_type),
                }
            }
            PartContent::Raw(bytes) => v03::Part::File {
                file: v03::FileContent {
                    bytes: Some(bytes),
                    uri: None,
                    name: p.filename,
                    mime_type: p.media_type,
                },
                metadata: p.metadata,
            },
            PartContent::Url(uri) => v03::Part::File {
                file: v03::FileContent {
                    bytes: None,
                    uri: Some(uri),
                    name: p.filename,
                    mime_type: p.media_type,
                },
                metadata: p.metadata,
            },
        }
    }
}

impl TryFrom<v03::Part> for Part {
    type Error = ConvertError;
    fn try_from(p: v03::Part) -> Result<Self, ConvertError> {
        Ok(match p {
            v03::Part::Text { text, metadata } => {
                let (metadata, _, filename, media_type) = take_reserved(metadata);
                Part {
                    content: PartContent::Text(text),
                    metadata,
                    filename,
                    media_type,
                }
            }
            v03::Part::Data { mut data, metadata } => {
                let (metadata, compat, filename, media_type) = take_reserved(metadata);
                let value = match (compat, data.remove("value")) {
                    (true, Some(v)) if data.is_empty() => v,
                    (_, v) => {
                        if let Some(v) = v {
                            data.insert("value".into(), v);
                        }
                        Value::Object(data)
                    }
                };
                Part {
                    content: PartContent::Data(value),
                    metadata,
                    filename,
                    media_type,
                }
            }
            v03::Part::File { file, metadata } => {
                let content = match (file.bytes, file.uri) {
                    (Some(b), None) => PartContent::Raw(b),
                    (None, Some(u)) => PartContent::Url(u),
                    _ => return Err(ConvertError::FileContent),
                };
                Part {
                    content,
                    metadata,
                    filename: file.name,
                    media_type: file.mime_type,
                }
            }
        })
    }
}

fn parts_from_v03(parts: Vec<v03::Part>) -> Result<Vec<Part>, ConvertError> {
    parts.into_iter().map(Part::try_from).collect()
}

fn parts_to_v03(parts: Vec<Part>) -> Vec<v03::Part> {
    parts.into_iter().map(v03::Part::from).collect()
}

// ---- messages, artifacts, tasks ----

impl TryFrom<Message> for v03::Message {
    type Error = ConvertError;
    fn try_from(m: Message) -> Result<Self, ConvertError> {
        let role = v03::Role::try_from(m.role)
            .map_err(|_| ConvertError::UnspecifiedRole("message.role"))?;
        Ok(v03::Message {
            message_id: m.message_id,
            role,
            parts: parts_to_v03(m.parts),
            task_id: m.task_id,
            context_id: m.context_id,
            metadata: m.metadata,
            extensions: m.extensions,
            reference_task_ids: m.reference_task_ids,
        })
    }
}

impl TryFrom<v03::Message> for Message {
    type Error = ConvertError;
    fn try_from(m: v03::Message) -> Result<Self, ConvertError> {
        Ok(Message {
            message_id: m.message_id,
            context_id: m.context_id,
            task_id: m.task_id,
            role: m.role.into(),
            parts: parts_from_v03(m.parts)?,
            metadata: m.metadata,
            extensions: m.extensions,
            reference_task_ids: m.reference_task_ids,
        })
    }
}

impl From<Artifact> for v03::Artifact {
    fn from(a: Artifact) -> Self {
        v03::Artifact {
            artifact_id: a.artifact_id,
            name: a.name,
            description: a.description,
            parts: parts_to_v03(a.parts),
            metadata: a.metadata,
            extensions: a.extensions,
        }
    }
}

impl TryFrom<v03::Artifact> for Artifact {
    type Error = ConvertError;
    fn try_from(a: v03::Artifact) -> Result<Self, ConvertError> {
        Ok(Artifact {
            artifact_id: a.artifact_id,
            name: a.name,
            description: a.description,
            parts: parts_from_v03(a.parts)?,
            metadata: a.metadata,
            extensions: a.extensions,
        })
    }
}

impl TryFrom<TaskStatus> for v03::TaskStatus {
    type Error = ConvertError;
    fn try_from(s: TaskStatus) -> Result<Self, ConvertError> {
        Ok(v03::TaskStatus {
            state: s.state.into(),
            message: s.message.map(v03::Message::try_from).transpose()?,
            timestamp: s.timestamp,
        })
    }
}

impl TryFrom<v03::TaskStatus> for TaskStatus {
    type Error = ConvertError;
    fn try_from(s: v03::TaskStatus) -> Result<Self, ConvertError> {
        Ok(TaskStatus {
            state: s.state.into(),
            message: s.message.map(Message::try_from).transpose()?,
            timestamp: s.timestamp,
        })
    }
}

impl TryFrom<Task> for v03::Task {
    type Error = ConvertError;
    fn try_from(t: Task) -> Result<Self, ConvertError> {
        Ok(v03::Task {
            id: t.id,
            context_id: t.context_id,
            status: t.status.try_into()?,
            history: t
                .history
                .map(|h| h.into_iter().map(v03::Message::try_from).collect())
                .transpose()?,
            artifacts: t
                .artifacts
                .map(|a| a.into_iter().map(v03::Artifact::from).collect()),
            metadata: t.metadata,
        })
    }
}

impl TryFrom<v03::Task> for Task {
    type Error = ConvertError;
    fn try_from(t: v03::Task) -> Result<Self, ConvertError> {
        Ok(Task {
            id: t.id,
            context_id: t.context_id,
            status: t.status.try_into()?,
            artifacts: t
                .artifacts
                .map(|a| a.into_iter().map(Artifact::try_from).collect())
                .transpose()?,
            history: t
                .history
                .map(|h| h.into_iter().map(Message::try_from).collect())
                .transpose()?,
            metadata: t.metadata,
        })
    }
}

// ---- events ----

impl TaskStatusUpdateEvent {
    /// The 0.3 event with an explicit `final` flag.
    pub fn into_v03(self, is_final: bool) -> Result<v03::TaskStatusUpdateEvent, ConvertError> {
        Ok(v03::TaskStatusUpdateEvent {
            task_id: self.task_id,
            context_id: self.context_id,
            status: self.status.try_into()?,
            is_final,
            metadata: self.metadata,
        })
    }
}

impl TryFrom<TaskStatusUpdateEvent> for v03::TaskStatusUpdateEvent {
    type Error = ConvertError;
    /// `final` is set for a terminal or interrupted state: where a 1.0 stream closes.
    fn try_from(e: TaskStatusUpdateEvent) -> Result<Self, ConvertError> {
        let is_final = e.status.state.is_terminal() || e.status.state.is_interrupted();
        e.into_v03(is_final)
    }
}

impl TryFrom<v03::TaskStatusUpdateEvent> for TaskStatusUpdateEvent {
    type Error = ConvertError;
    /// `final` is dropped: in 1.0 the stream closes after the last event.
    fn try_from(e: v03::TaskStatusUpdateEvent) -> Result<Self, ConvertError> {
        Ok(TaskStatusUpdateEvent {
            task_id: e.task_id,
            context_id: e.context_id,
            status: e.status.try_into()?,
            metadata: e.metadata,
        })
    }
}

impl From<TaskArtifactUpdateEvent> for v03::TaskArtifactUpdateEvent {
    fn from(e: TaskArtifactUpdateEvent) -> Self {
        v03::TaskArtifactUpdateEvent {
            task_id: e.task_id,
            context_id: e.context_id,
            artifact: e.artifact.into(),
            append: e.append,
            last_chunk: e.last_chunk,
            metadata: e.metadata,
        }
    }
}

impl TryFrom<v03::TaskArtifactUpdateEvent> for TaskArtifactUpdateEvent {
    type Error = ConvertError;
    fn try_from(e: v03::TaskArtifactUpdateEvent) -> Result<Self, ConvertError> {
        Ok(TaskArtifactUpdateEvent {
            task_id: e.task_id,
            context_id: e.context_id,
            artifact: e.artifact.try_into()?,
            append: e.append,
            last_chunk: e.last_chunk,
            metadata: e.metadata,
        })
    }
}

impl TryFrom<v03::StreamEvent> for StreamResponse {
    type Error = ConvertError;
    fn try_from(e: v03::StreamEvent) -> Result<Self, ConvertError> {
        Ok(match e {
            v03::StreamEvent::Task(t) => StreamResponse::Task(t.try_into()?),
            v03::StreamEvent::Status(s) => StreamResponse::StatusUpdate(s.try_into()?),
            v03::StreamEvent::Artifact(a) => StreamResponse::ArtifactUpdate(a.try_into()?),
        })
    }
}

impl TryFrom<StreamResponse> for v03::StreamEvent {
    type Error = ConvertError;
    fn try_from(e: StreamResponse) -> Result<Self, ConvertError> {
        Ok(match e {
            StreamResponse::Task(t) => v03::StreamEvent::Task(t.try_into()?),
            StreamResponse::StatusUpdate(s) => v03::StreamEvent::Status(s.try_into()?),
            StreamResponse::ArtifactUpdate(a) => v03::StreamEvent::Artifact(a.into()),
            StreamResponse::Message(_) => return Err(ConvertError::MessageEvent),
        })
    }
}

// ---- request params ----

fn history_to_v03(field: &'static str, n: Option<i32>) -> Result<Option<u32>, ConvertError> {
    n.map(|n| u32::try_from(n).map_err(|_| ConvertError::NegativeHistoryLength(field, n)))
        .transpose()
}

/// 0.3 lengths beyond `i32::MAX` are clamped (no history is that long).
fn history_from_v03(n: Option<u32>) -> Option<i32> {
    n.map(|n| i32::try_from(n).unwrap_or(i32::MAX))
}

impl TryFrom<TaskPushNotificationConfig> for v03::PushNotificationConfig {
    type Error = ConvertError;
    /// `tenant` and `taskId` are not carried (0.3's config has neither).
    fn try_from(c: TaskPushNotificationConfig) -> Result<Self, ConvertError> {
        let authentication = c.authentication.map(|a| {
            let mut m = Map::new();
            m.insert("schemes".into(), json!([a.scheme]));
            if let Some(cr) = a.credentials {
                m.insert("credentials".into(), Value::String(cr));
            }
            Value::Object(m)
        });
        Ok(v03::PushNotificationConfig {
            id: c.id,
            url: c.url,
            token: c.token,
            authentication,
        })
    }
}

impl TryFrom<v03::PushNotificationConfig> for TaskPushNotificationConfig {
    type Error = ConvertError;
    /// The first of 0.3's `schemes` becomes the 1.0 `scheme`.
    fn try_from(c: v03::PushNotificationConfig) -> Result<Self, ConvertError> {
        let authentication = match c.authentication {
            None | Some(Value::Null) => None,
            Some(Value::Object(m)) => {
                let scheme = match m.get("schemes") {
                    Some(Value::Array(s)) => match s.first() {
                        Some(Value::String(s)) => s.clone(),
                        _ => return Err(ConvertError::PushAuthentication),
                    },
                    _ => return Err(ConvertError::PushAuthentication),
                };
                let credentials = match m.get("credentials") {
                    None | Some(Value::Null) => None,
                    Some(Value::String(s)) => Some(s.clone()),
                    Some(_) => return Err(ConvertError::PushAuthentication),
                };
                Some(AuthenticationInfo {
                    scheme,
                    credentials,
                })
            }
            Some(_) => return Err(ConvertError::PushAuthentication),
        };
        Ok(TaskPushNotificationConfig {
            tenant: String::new(),
            id: c.id,
            task_id: None,
            url: c.url,
            token: c.token,
            authentication,
        })
    }
}

impl TryFrom<SendMessageConfiguration> for v03::MessageSendConfiguration {
    type Error = ConvertError;
    /// `returnImmediately: x` is `blocking: !x`.
    fn try_from(c: SendMessageConfiguration) -> Result<Self, ConvertError> {
        Ok(v03::MessageSendConfiguration {
            accepted_output_modes: c.accepted_output_modes,
            history_length: history_to_v03("configuration.historyLength", c.history_length)?,
            push_notification_config: c
                .task_push_notification_config
                .map(v03::PushNotificationConfig::try_from)
                .transpose()?,
            blocking: c.return_immediately.map(|r| !r),
        })
    }
}

impl TryFrom<v03::MessageSendConfiguration> for SendMessageConfiguration {
    type Error = ConvertError;
    fn try_from(c: v03::MessageSendConfiguration) -> Result<Self, ConvertError> {
        Ok(SendMessageConfiguration {
            accepted_output_modes: c.accepted_output_modes,
            task_push_notification_config: c
                .push_notification_config
                .map(TaskPushNotificationConfig::try_from)
                .transpose()?,
            history_length: history_from_v03(c.history_length),
            return_immediately: c.blocking.map(|b| !b),
        })
    }
}

impl TryFrom<SendMessageRequest> for v03::MessageSendParams {
    type Error = ConvertError;
    /// `tenant` is not carried: read it from the request first if it matters.
    fn try_from(r: SendMessageRequest) -> Result<Self, ConvertError> {
        Ok(v03::MessageSendParams {
            message: r.message.try_into()?,
            configuration: r
                .configuration
                .map(v03::MessageSendConfiguration::try_from)
                .transpose()?,
            metadata: r.metadata,
        })
    }
}

impl TryFrom<v03::MessageSendParams> for SendMessageRequest {
    type Error = ConvertError;
    fn try_from(p: v03::MessageSendParams) -> Result<Self, ConvertError> {
        Ok(SendMessageRequest {
            tenant: String::new(),
            message: p.message.try_into()?,
            configuration: p
                .configuration
                .map(SendMessageConfiguration::try_from)
                .transpose()?,
            metadata: p.metadata,
        })
    }
}

impl TryFrom<GetTaskRequest> for v03::TaskQueryParams {
    type Error = ConvertError;
    fn try_from(r: GetTaskRequest) -> Result<Self, ConvertError> {
        Ok(v03::TaskQueryParams {
            id: r.id,
            history_length: history_to_v03("historyLength", r.history_length)?,
            metadata: None,
        })
    }
}

impl From<v03::TaskQueryParams> for GetTaskRequest {
    /// 0.3's `metadata` has no 1.0 field and is dropped.
    fn from(p: v03::TaskQueryParams) -> Self {
        GetTaskRequest {
            tenant: String::new(),
            id: p.id,
            history_length: history_from_v03(p.history_length),
        }
    }
}

impl From<CancelTaskRequest> for v03::TaskIdParams {
    fn from(r: CancelTaskRequest) -> Self {
        v03::TaskIdParams {
            id: r.id,
            metadata: r.metadata,
        }
    }
}

impl From<v03::TaskIdParams> for CancelTaskRequest {
    fn from(p: v03::TaskIdParams) -> Self {
        CancelTaskRequest {
            tenant: String::new(),
            id: p.id,
            metadata: p.metadata,
        }
    }
}

impl From<SubscribeToTaskRequest> for v03::TaskIdParams {
    fn from(r: SubscribeToTaskRequest) -> Self {
        v03::TaskIdParams {
            id: r.id,
            metadata: None,
        }
    }
}

//! Messages, parts, tasks, artifacts and the method parameters that carry them.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Who sent a [`Message`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The client.
    User,
    /// The agent (this server).
    Agent,
}

/// One turn of a conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "kind", rename = "message")]
pub struct Message {
    /// Unique id chosen by the sender.
    pub message_id: String,
    /// Sender role.
    pub role: Role,
    /// The content.
    pub parts: Vec<Part>,
    /// The task this message belongs to, when continuing one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_id: Option<String>,
    /// The conversation context.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context_id: Option<String>,
    /// Free-form metadata; `skillId` selects the skill.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Map<String, Value>>,
    /// Extension URIs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extensions: Option<Vec<String>>,
    /// Tasks this message refers to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference_task_ids: Option<Vec<String>>,
}

/// The content of a file part: inline base64 bytes or a URI.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FileContent {
    /// Base64 content (exclusive with `uri`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes: Option<String>,
    /// Location of the content (exclusive with `bytes`). `url` is accepted as an alias.
    #[serde(default, skip_serializing_if = "Option::is_none", alias = "url")]
    pub uri: Option<String>,
    /// File name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Media type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
}

/// A piece of message or artifact content.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Part {
    /// Plain text.
    Text {
        /// The text.
        text: String,
        /// Part metadata.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        metadata: Option<Map<String, Value>>,
    },
    /// Structured data: always a JSON object.
    Data {
        /// The object.
        data: Map<String, Value>,
        /// Part metadata.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        metadata: Option<Map<String, Value>>,
    },
    /// A file, inline or by reference.
    File {
        /// The file content.
        file: FileContent,
        /// Part metadata.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        metadata: Option<Map<String, Value>>,
    },
}

impl Part {
    /// A text part without metadata.
    pub fn text(text: impl Into<String>) -> Self {
        Part::Text {
            text: text.into(),
            metadata: None,
        }
    }

    /// A data part without metadata. A value that is not an object is wrapped as `{"value": v}`.
    pub fn data(data: Value) -> Self {
        let data = match data {
            Value::Object(map) => map,
            other => {
                let mut map = Map::new();
                map.insert("value".into(), other);
                map
            }
        };
        Part::Data {
            data,
            metadata: None,
        }
    }
}

/// The lifecycle state of a [`Task`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TaskState {
    /// Received, not started.
    Submitted,
    /// Running.
    Working,
    /// Waiting for the client.
    InputRequired,
    /// Done, with artifacts.
    Completed,
    /// Canceled by the client.
    Canceled,
    /// Ended by an error.
    Failed,
    /// Refused by the agent.
    Rejected,
    /// Waiting for authentication.
    AuthRequired,
    /// Unknown.
    Unknown,
}

impl TaskState {
    /// Completed, canceled, failed and rejected tasks cannot change any more.
    pub fn is_terminal(self) -> bool {
        matches!(
            self,
            TaskState::Completed | TaskState::Canceled | TaskState::Failed | TaskState::Rejected
        )
    }

    /// The wire name (`"input-required"`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            TaskState::Submitted => "submitted",
            TaskState::Working => "working",
            TaskState::InputRequired => "input-required",
            TaskState::Completed => "completed",
            TaskState::Canceled => "canceled",
            TaskState::Failed => "failed",
            TaskState::Rejected => "rejected",
            TaskState::AuthRequired => "auth-required",
            TaskState::Unknown => "unknown",
        }
    }
}

/// A task's state, with an optional agent message and the time it was set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskStatus {
    /// The state.
    pub state: TaskState,
    /// A message from the agent explaining the state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<Message>,
    /// ISO 8601 time the state was set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<String>,
}

/// An output of a task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Artifact {
    /// Unique within the task.
    pub artifact_id: String,
    /// Skill-specific name (`search_results`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Human-readable description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The content.
    pub parts: Vec<Part>,
    /// Metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Map<String, Value>>,
    /// Extension URIs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extensions: Option<Vec<String>>,
}

/// A unit of work: what the server answers `message/send` with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "kind", rename = "task")]
pub struct Task {
    /// Server-generated id.
    pub id: String,
    /// The conversation context.
    pub context_id: String,
    /// Current status.
    pub status: TaskStatus,
    /// Messages exchanged, oldest first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub history: Option<Vec<Message>>,
    /// Outputs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub artifacts: Option<Vec<Artifact>>,
    /// Metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Map<String, Value>>,
}

/// Streaming event: the task's status changed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "kind", rename = "status-update")]
pub struct TaskStatusUpdateEvent {
    /// The task.
    pub task_id: String,
    /// Its context.
    pub context_id: String,
    /// The new status.
    pub status: TaskStatus,
    /// True on the last event of the stream.
    #[serde(rename = "final")]
    pub is_final: bool,
    /// Metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Map<String, Value>>,
}

/// Streaming event: an artifact (or a chunk of one) was produced.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "kind", rename = "artifact-update")]
pub struct TaskArtifactUpdateEvent {
    /// The task.
    pub task_id: String,
    /// Its context.
    pub context_id: String,
    /// The artifact or chunk.
    pub artifact: Artifact,
    /// True when this chunk extends an artifact already sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub append: Option<bool>,
    /// True on the artifact's last chunk.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_chunk: Option<bool>,
    /// Metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Map<String, Value>>,
}

/// One event of a `message/stream` or `tasks/resubscribe` stream.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum StreamEvent {
    /// The task itself (first event).
    Task(Task),
    /// A status change.
    Status(TaskStatusUpdateEvent),
    /// An artifact or chunk.
    Artifact(TaskArtifactUpdateEvent),
}

/// Where to push task updates (a webhook).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PushNotificationConfig {
    /// Config id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Callback URL.
    pub url: String,
    /// Token for the callback.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// Authentication info.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub authentication: Option<Value>,
}

/// Options of `message/send`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MessageSendConfiguration {
    /// Media types the client accepts; empty means any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accepted_output_modes: Option<Vec<String>>,
    /// Trim the returned history to this many messages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub history_length: Option<u32>,
    /// Push config.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub push_notification_config: Option<PushNotificationConfig>,
    /// Wait for the task to end (default true).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blocking: Option<bool>,
}

/// Parameters of `message/send` and `message/stream`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MessageSendParams {
    /// The message.
    pub message: Message,
    /// Options.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub configuration: Option<MessageSendConfiguration>,
    /// Request metadata; `skillId` is also read here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Map<String, Value>>,
}

/// Parameters of `tasks/get`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskQueryParams {
    /// The task id.
    pub id: String,
    /// Trim history to this many messages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub history_length: Option<u32>,
    /// Metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Map<String, Value>>,
}

/// Parameters of `tasks/cancel` and `tasks/resubscribe`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskIdParams {
    /// The task id.
    pub id: String,
    /// Metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Map<String, Value>>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[track_caller]
    fn roundtrip<
        T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
    >(
        v: Value,
    ) {
        let t: T = serde_json::from_value(v.clone()).expect("parse");
        assert_eq!(serde_json::to_value(&t).expect("serialize"), v);
    }

    #[test]
    fn message_roundtrip() {
        roundtrip::<Message>(json!({
            "kind": "message", "messageId": "m1", "role": "user",
            "parts": [
                {"kind": "text", "text": "hello"},
                {"kind": "data", "data": {"city": "Paris", "n": 3}},
                {"kind": "file", "file": {"uri": "https://x/y.pdf", "mimeType": "application/pdf"}}
            ],
            "metadata": {"skillId": "echo"}, "taskId": "t", "contextId": "c"
        }));
    }

    #[test]
    fn task_roundtrip() {
        roundtrip::<Task>(json!({
            "kind": "task", "id": "t1", "contextId": "c1",
            "status": {"state": "input-required", "timestamp": "2026-01-01T00:00:00Z"},
            "history": [{"kind": "message", "messageId": "m", "role": "agent", "parts": [{"kind": "text", "text": "x"}]}],
            "artifacts": [{"artifactId": "a", "name": "n", "parts": [{"kind": "text", "text": "y"}]}]
        }));
    }

    #[test]
    fn events_roundtrip() {
        roundtrip::<StreamEvent>(json!({
            "kind": "status-update", "taskId": "t", "contextId": "c",
            "status": {"state": "working"}, "final": false
        }));
        roundtrip::<StreamEvent>(json!({
            "kind": "artifact-update", "taskId": "t", "contextId": "c",
            "artifact": {"artifactId": "a", "parts": []}, "append": true, "lastChunk": false
        }));
    }

    #[test]
    fn lenient_input() {
        // Unknown fields and nulls are accepted; `file.url` is read as `uri`.
        let m: Message = serde_json::from_value(json!({
            "kind": "message", "messageId": "m", "role": "user", "extra": 1, "taskId": null,
            "parts": [{"kind": "file", "file": {"url": "https://x"}}]
        }))
        .unwrap();
        assert!(m.task_id.is_none());
        assert!(
            matches!(&m.parts[0], Part::File { file, .. } if file.uri.as_deref() == Some("https://x"))
        );
    }

    #[test]
    fn strict_where_needed() {
        for bad in [
            json!({"kind": "message", "role": "user", "parts": []}),
            json!({"kind": "message", "messageId": "m", "role": "robot", "parts": []}),
            json!({"kind": "message", "messageId": "m", "role": "user", "parts": "invalid"}),
            json!({"kind": "message", "messageId": "m", "role": "user", "parts": [{"kind": "data", "data": [1]}]}),
            json!({"kind": "message", "messageId": "m", "role": "user", "parts": [{"kind": "video"}]}),
        ] {
            assert!(
                serde_json::from_value::<Message>(bad.clone()).is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn terminal_states() {
        assert!(TaskState::Completed.is_terminal());
        assert!(!TaskState::InputRequired.is_terminal());
        assert_eq!(
            serde_json::to_value(TaskState::InputRequired).unwrap(),
            json!("input-required")
        );
    }
}

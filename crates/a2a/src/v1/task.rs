//! Tasks, their status and the events and responses that carry them
//! (`Task`, `TaskStatus`, `TaskState`, `TaskStatusUpdateEvent`,
//! `TaskArtifactUpdateEvent`, `StreamResponse`, `SendMessageResponse`).

use serde::de::Deserializer;
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::lenient;
use super::message::{Artifact, Message};

/// The lifecycle state of a [`Task`] (`TaskState` of `a2a.proto`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TaskState {
    /// `TASK_STATE_UNSPECIFIED`: unknown or indeterminate (0.3's `unknown`).
    Unspecified,
    /// `TASK_STATE_SUBMITTED`.
    Submitted,
    /// `TASK_STATE_WORKING`.
    Working,
    /// `TASK_STATE_COMPLETED` (terminal).
    Completed,
    /// `TASK_STATE_FAILED` (terminal).
    Failed,
    /// `TASK_STATE_CANCELED` (terminal).
    Canceled,
    /// `TASK_STATE_INPUT_REQUIRED` (interrupted).
    InputRequired,
    /// `TASK_STATE_REJECTED` (terminal).
    Rejected,
    /// `TASK_STATE_AUTH_REQUIRED` (interrupted).
    AuthRequired,
}

/// In proto number order.
const STATES: [TaskState; 9] = [
    TaskState::Unspecified,
    TaskState::Submitted,
    TaskState::Working,
    TaskState::Completed,
    TaskState::Failed,
    TaskState::Canceled,
    TaskState::InputRequired,
    TaskState::Rejected,
    TaskState::AuthRequired,
];
const STATE_NAMES: [&str; 9] = [
    "TASK_STATE_UNSPECIFIED",
    "TASK_STATE_SUBMITTED",
    "TASK_STATE_WORKING",
    "TASK_STATE_COMPLETED",
    "TASK_STATE_FAILED",
    "TASK_STATE_CANCELED",
    "TASK_STATE_INPUT_REQUIRED",
    "TASK_STATE_REJECTED",
    "TASK_STATE_AUTH_REQUIRED",
];

impl TaskState {
    /// Every state, in proto number order.
    pub const ALL: [TaskState; 9] = STATES;

    /// The wire name (`"TASK_STATE_COMPLETED"`, …).
    pub fn as_str(self) -> &'static str {
        // STATES and STATE_NAMES share one order; the match keeps it total.
        let i = match self {
            TaskState::Unspecified => 0,
            TaskState::Submitted => 1,
            TaskState::Working => 2,
            TaskState::Completed => 3,
            TaskState::Failed => 4,
            TaskState::Canceled => 5,
            TaskState::InputRequired => 6,
            TaskState::Rejected => 7,
            TaskState::AuthRequired => 8,
        };
        STATE_NAMES[i]
    }

    /// Completed, failed, canceled and rejected: the task cannot change any more.
    pub fn is_terminal(self) -> bool {
        matches!(
            self,
            TaskState::Completed | TaskState::Failed | TaskState::Canceled | TaskState::Rejected
        )
    }

    /// Input-required and auth-required: the task waits for the client.
    pub fn is_interrupted(self) -> bool {
        matches!(self, TaskState::InputRequired | TaskState::AuthRequired)
    }
}

impl Serialize for TaskState {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for TaskState {
    /// The name, or (as ProtoJSON allows) the enum number.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        lenient::proto_enum(d, "task state", &STATE_NAMES).map(|i| STATES[i])
    }
}

/// A task's state, with an optional agent message and the time it was set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskStatus {
    /// The state (required).
    pub state: TaskState,
    /// A message explaining the state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<Message>,
    /// ISO 8601 UTC time the state was set (`2026-03-12T10:00:00.000Z`), kept as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<String>,
}

/// A unit of work.
///
/// `a2a.proto` (v1.0.0 and v1.0.1) has no `createdAt` or `lastModified` on a
/// task; they appear in `specification.md` only as examples of timestamp
/// formatting. The official SDK parses results strictly (unknown fields are
/// errors), so this type has neither; `status.timestamp` is the last change.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Task {
    /// Server-generated id (required).
    pub id: String,
    /// The conversation context (empty when absent, as in ProtoJSON).
    #[serde(default, skip_serializing_if = "lenient::is_empty")]
    pub context_id: String,
    /// Current status (required).
    pub status: TaskStatus,
    /// Outputs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub artifacts: Option<Vec<Artifact>>,
    /// Messages exchanged, oldest first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub history: Option<Vec<Message>>,
    /// Metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Map<String, Value>>,
}

/// Stream event: the task's status changed. 1.0 has no `final` flag: the
/// stream closes after the last event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskStatusUpdateEvent {
    /// The task (required).
    pub task_id: String,
    /// Its context (required).
    pub context_id: String,
    /// The new status (required).
    pub status: TaskStatus,
    /// Metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Map<String, Value>>,
}

/// Stream event: an artifact (or a chunk of one) was produced.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskArtifactUpdateEvent {
    /// The task (required).
    pub task_id: String,
    /// Its context (required).
    pub context_id: String,
    /// The artifact or chunk (required).
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

/// One event of a `SendStreamingMessage` or `SubscribeToTask` stream, and the
/// body of a push notification: `{"task": …}`, `{"message": …}`,
/// `{"statusUpdate": …}` or `{"artifactUpdate": …}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum StreamResponse {
    /// The task (first event of a task stream).
    Task(Task),
    /// A direct message (the only event of a message stream).
    Message(Message),
    /// A status change.
    StatusUpdate(TaskStatusUpdateEvent),
    /// An artifact or chunk.
    ArtifactUpdate(TaskArtifactUpdateEvent),
}

/// The result of `SendMessage`: `{"task": …}` or `{"message": …}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum SendMessageResponse {
    /// The task created or updated.
    Task(Task),
    /// A direct reply.
    Message(Message),
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn states_round_trip_by_name_and_number() {
        for (i, s) in TaskState::ALL.iter().enumerate() {
            let v = serde_json::to_value(s).unwrap();
            assert_eq!(v, json!(s.as_str()));
            assert_eq!(serde_json::from_value::<TaskState>(v).unwrap(), *s);
            assert_eq!(serde_json::from_value::<TaskState>(json!(i)).unwrap(), *s);
        }
        assert_eq!(
            TaskState::InputRequired.as_str(),
            "TASK_STATE_INPUT_REQUIRED"
        );
        assert!(serde_json::from_value::<TaskState>(json!("completed")).is_err());
        assert!(serde_json::from_value::<TaskState>(json!("TASK_STATE_RUNNING")).is_err());
        assert!(TaskState::Rejected.is_terminal() && !TaskState::AuthRequired.is_terminal());
        assert!(TaskState::AuthRequired.is_interrupted());
    }

    #[test]
    fn stream_response_is_wrapped() {
        let v = json!({"statusUpdate": {"taskId": "t", "contextId": "c",
                        "status": {"state": "TASK_STATE_WORKING"}}});
        let e: StreamResponse = serde_json::from_value(v.clone()).unwrap();
        assert!(matches!(&e, StreamResponse::StatusUpdate(u) if u.task_id == "t"));
        assert_eq!(serde_json::to_value(&e).unwrap(), v);
        assert!(serde_json::from_value::<StreamResponse>(json!({"taskStatusUpdate": {}})).is_err());
    }

    #[test]
    fn task_without_context_keeps_its_shape() {
        let v = json!({"id": "t", "status": {"state": "TASK_STATE_SUBMITTED"}});
        let t: Task = serde_json::from_value(v.clone()).unwrap();
        assert_eq!(t.context_id, "");
        assert_eq!(serde_json::to_value(&t).unwrap(), v);
    }
}

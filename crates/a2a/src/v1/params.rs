//! The params of the task methods: `SendMessage` / `SendStreamingMessage`,
//! `GetTask`, `ListTasks` (and its result), `CancelTask`, `SubscribeToTask`,
//! `GetExtendedAgentCard`.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::lenient;
use super::message::Message;
use super::push::TaskPushNotificationConfig;
use super::task::{Task, TaskState};

/// Options of `SendMessage`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SendMessageConfiguration {
    /// Media types the client accepts; empty means any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accepted_output_modes: Option<Vec<String>>,
    /// A webhook for this task's updates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_push_notification_config: Option<TaskPushNotificationConfig>,
    /// Return at most this many recent messages of history (0: none; unset: no limit).
    #[serde(
        default,
        deserialize_with = "lenient::opt_i32",
        skip_serializing_if = "Option::is_none"
    )]
    pub history_length: Option<i32>,
    /// Return at once instead of waiting for a terminal or interrupted state
    /// (default false: wait). The opposite of 0.3's `blocking`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub return_immediately: Option<bool>,
}

/// Params of `SendMessage` and `SendStreamingMessage`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SendMessageRequest {
    /// Routing id from the card's interface, if any.
    #[serde(default, skip_serializing_if = "lenient::is_empty")]
    pub tenant: String,
    /// The message (required).
    pub message: Message,
    /// Options.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub configuration: Option<SendMessageConfiguration>,
    /// Request metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Map<String, Value>>,
}

/// Params of `GetTask`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GetTaskRequest {
    /// Routing id.
    #[serde(default, skip_serializing_if = "lenient::is_empty")]
    pub tenant: String,
    /// The task (required).
    pub id: String,
    /// Return at most this many recent messages of history.
    #[serde(
        default,
        deserialize_with = "lenient::opt_i32",
        skip_serializing_if = "Option::is_none"
    )]
    pub history_length: Option<i32>,
}

/// Params of `ListTasks`: filters and a cursor.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListTasksRequest {
    /// Routing id.
    #[serde(default, skip_serializing_if = "lenient::is_empty")]
    pub tenant: String,
    /// Only tasks of this context.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context_id: Option<String>,
    /// Only tasks in this state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<TaskState>,
    /// 1 to 100; 50 when unset.
    #[serde(
        default,
        deserialize_with = "lenient::opt_i32",
        skip_serializing_if = "Option::is_none"
    )]
    pub page_size: Option<i32>,
    /// From a previous response's `nextPageToken`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_token: Option<String>,
    /// History messages per task.
    #[serde(
        default,
        deserialize_with = "lenient::opt_i32",
        skip_serializing_if = "Option::is_none"
    )]
    pub history_length: Option<i32>,
    /// Only tasks whose status timestamp is at or after this ISO 8601 time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status_timestamp_after: Option<String>,
    /// Include artifacts (default false: the `artifacts` field is omitted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include_artifacts: Option<bool>,
}

impl ListTasksRequest {
    /// The page size when the client sets none.
    pub const DEFAULT_PAGE_SIZE: i32 = 50;
    /// The largest page size a client may ask for.
    pub const MAX_PAGE_SIZE: i32 = 100;

    /// The page size to use: the client's, or [`Self::DEFAULT_PAGE_SIZE`].
    /// (Range checked by [`super::methods::Request::decode`].)
    pub fn effective_page_size(&self) -> i32 {
        self.page_size.unwrap_or(Self::DEFAULT_PAGE_SIZE)
    }
}

/// Result of `ListTasks`. Every field is always written (`nextPageToken` is
/// `""` on the last page, as the specification requires).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListTasksResponse {
    /// The page, most recently updated first.
    #[serde(default)]
    pub tasks: Vec<Task>,
    /// Cursor of the next page, or `""`.
    #[serde(default)]
    pub next_page_token: String,
    /// The page size used.
    #[serde(default, deserialize_with = "lenient::i32_or_zero")]
    pub page_size: i32,
    /// Tasks matching the filters, over all pages.
    #[serde(default, deserialize_with = "lenient::i32_or_zero")]
    pub total_size: i32,
}

/// Params of `CancelTask`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CancelTaskRequest {
    /// Routing id.
    #[serde(default, skip_serializing_if = "lenient::is_empty")]
    pub tenant: String,
    /// The task (required).
    pub id: String,
    /// Metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Map<String, Value>>,
}

/// Params of `SubscribeToTask`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SubscribeToTaskRequest {
    /// Routing id.
    #[serde(default, skip_serializing_if = "lenient::is_empty")]
    pub tenant: String,
    /// The task (required).
    pub id: String,
}

/// Params of `GetExtendedAgentCard` (may be absent altogether).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GetExtendedAgentCardRequest {
    /// Routing id.
    #[serde(default, skip_serializing_if = "lenient::is_empty")]
    pub tenant: String,
}

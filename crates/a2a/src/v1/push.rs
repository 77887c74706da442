//! Push notification configs and the requests of the four
//! `*TaskPushNotificationConfig*` methods.

use serde::{Deserialize, Serialize};

use super::lenient;

/// How the agent authenticates to the webhook (`AuthenticationInfo`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AuthenticationInfo {
    /// HTTP authentication scheme (`Bearer`, `Basic`; case-insensitive). Required.
    pub scheme: String,
    /// The credentials for that scheme (the token for `Bearer`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub credentials: Option<String>,
}

/// A webhook for one task: the params and result of
/// `CreateTaskPushNotificationConfig`, the result of `Get…`, an item of `List…`,
/// and `configuration.taskPushNotificationConfig` of `SendMessage`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskPushNotificationConfig {
    /// Routing id from the card's interface, if any.
    #[serde(default, skip_serializing_if = "lenient::is_empty")]
    pub tenant: String,
    /// The config's id (chosen by the server when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The task (empty inside `SendMessage`, where the task does not exist yet). ProtoJSON
    /// readers accept the proto field name too (`task_id`).
    #[serde(default, alias = "task_id", skip_serializing_if = "Option::is_none")]
    pub task_id: Option<String>,
    /// Where to POST the updates (required).
    pub url: String,
    /// A token unique to this task or session, for the client to check the caller.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// How to authenticate to the webhook.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub authentication: Option<AuthenticationInfo>,
}

/// Params of `GetTaskPushNotificationConfig` and `DeleteTaskPushNotificationConfig`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskPushNotificationConfigRef {
    /// Routing id.
    #[serde(default, skip_serializing_if = "lenient::is_empty")]
    pub tenant: String,
    /// The task (required).
    #[serde(alias = "task_id")]
    pub task_id: String,
    /// The config (required).
    pub id: String,
}

/// Params of `GetTaskPushNotificationConfig`.
pub type GetTaskPushNotificationConfigRequest = TaskPushNotificationConfigRef;
/// Params of `DeleteTaskPushNotificationConfig` (its result is empty: `null` or `{}`).
pub type DeleteTaskPushNotificationConfigRequest = TaskPushNotificationConfigRef;

/// Params of `ListTaskPushNotificationConfigs`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListTaskPushNotificationConfigsRequest {
    /// Routing id.
    #[serde(default, skip_serializing_if = "lenient::is_empty")]
    pub tenant: String,
    /// The task (required).
    #[serde(alias = "task_id")]
    pub task_id: String,
    /// At most this many configs.
    #[serde(
        default,
        alias = "page_size",
        deserialize_with = "lenient::opt_i32",
        skip_serializing_if = "Option::is_none"
    )]
    pub page_size: Option<i32>,
    /// From a previous response's `nextPageToken`.
    #[serde(default, alias = "page_token", skip_serializing_if = "Option::is_none")]
    pub page_token: Option<String>,
}

/// Result of `ListTaskPushNotificationConfigs`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListTaskPushNotificationConfigsResponse {
    /// The configs.
    #[serde(default)]
    pub configs: Vec<TaskPushNotificationConfig>,
    /// Token of the next page; empty (and omitted) on the last one.
    #[serde(default, skip_serializing_if = "lenient::is_empty")]
    pub next_page_token: String,
}

//! The A2A 0.3 push-notification methods' params and results
//! (`tasks/pushNotificationConfig/set|get|list|delete`).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::PushNotificationConfig;

/// How the agent authenticates to the webhook (0.3 `PushNotificationAuthenticationInfo`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PushNotificationAuthenticationInfo {
    /// Schemes (`Bearer`, `Basic`); the first is used.
    pub schemes: Vec<String>,
    /// Credentials for that scheme.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub credentials: Option<String>,
}

/// A task's webhook: the params and result of `tasks/pushNotificationConfig/set`, the
/// result of `…/get`, an item of `…/list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskPushNotificationConfig {
    /// The task.
    pub task_id: String,
    /// The webhook.
    pub push_notification_config: PushNotificationConfig,
}

/// Params of `tasks/pushNotificationConfig/get` (and of `…/delete`, where the config id is
/// required).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskPushNotificationConfigQuery {
    /// The task.
    pub id: String,
    /// The config (the task's id when absent, for `…/get`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub push_notification_config_id: Option<String>,
    /// Request metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Map<String, Value>>,
}

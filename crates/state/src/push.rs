//! Push-notification configs: one webhook of one task, owned by the caller who set it, and
//! what a config store must do ([`PushConfigStore`]).

use crate::tasks::StoreError;
use serde::{Deserialize, Serialize};

/// The protocol version a webhook speaks (the version its config was set in).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PushVersion {
    /// A2A 0.3: the task as the body.
    V03,
    /// A2A 1.0: a `StreamResponse` as the body.
    V1,
}

/// How to authenticate to a webhook: `Authorization: <scheme> <credentials>`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PushAuth {
    /// `Bearer`, `Basic` …
    pub scheme: String,
    /// The credentials for that scheme.
    pub credentials: Option<String>,
}

/// One webhook of one task.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PushConfig {
    /// The config's id (unique per task).
    pub id: String,
    /// The task.
    pub task_id: String,
    /// Who set it (only they can read, list or delete it).
    pub owner: String,
    /// Where to POST.
    pub url: String,
    /// Sent as `X-A2A-Notification-Token`.
    pub token: Option<String>,
    /// Sent as `Authorization`.
    pub authentication: Option<PushAuth>,
    /// The body's shape.
    pub version: PushVersion,
}

/// Most configs one task may have.
pub const MAX_CONFIGS_PER_TASK: usize = 16;

/// Where push configs live. Calls block (run them on a blocking thread).
pub trait PushConfigStore: Send + Sync {
    /// Insert or replace the config (`task_id`, `id`).
    fn put_config(&self, config: &PushConfig) -> Result<(), StoreError>;
    /// `owner`'s config `id` of `task_id`.
    fn get_config(
        &self,
        owner: &str,
        task_id: &str,
        id: &str,
    ) -> Result<Option<PushConfig>, StoreError>;
    /// `owner`'s configs of `task_id`.
    fn list_configs(&self, owner: &str, task_id: &str) -> Result<Vec<PushConfig>, StoreError>;
    /// Delete `owner`'s config `id` of `task_id`; whether there was one.
    fn delete_config(&self, owner: &str, task_id: &str, id: &str) -> Result<bool, StoreError>;
    /// Every config of `task_id`, whoever set it (for delivery).
    fn configs_for_dispatch(&self, task_id: &str) -> Result<Vec<PushConfig>, StoreError>;
}

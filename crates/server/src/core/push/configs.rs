//! Setting, reading, listing and deleting a task's push configs, for every protocol: the
//! task must be the caller's, the URL a target the server may call, and a task has at most
//! [`MAX_CONFIGS_PER_TASK`] configs.

use super::{targets, PushAuth, PushConfig, PushVersion, MAX_CONFIGS_PER_TASK};
use crate::core::callers::Caller;
use crate::core::errors::ServerError;
use crate::core::state::AppState;
use crate::core::tasks;
use std::sync::Arc;

/// What a caller asks to set (the config without its owner).
#[derive(Debug, Clone)]
pub struct NewConfig {
    /// The config's id (the task's id when absent, as the official SDKs do).
    pub id: Option<String>,
    /// Where to POST.
    pub url: String,
    /// `X-A2A-Notification-Token`.
    pub token: Option<String>,
    /// `Authorization`.
    pub authentication: Option<PushAuth>,
    /// The body's shape.
    pub version: PushVersion,
}

fn service(state: &AppState) -> Result<Arc<super::deliver::Push>, ServerError> {
    state.push.clone().ok_or(ServerError::PushNotSupported)
}

async fn blocking<T: Send + 'static>(
    request_id: &str,
    f: impl FnOnce() -> Result<T, crate::core::store::StoreError> + Send + 'static,
) -> Result<T, ServerError> {
    match tokio::task::spawn_blocking(f).await {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(ServerError::internal(request_id, e)),
        Err(e) => Err(ServerError::internal(request_id, e)),
    }
}

/// A 0.3 config (the form the core speaks inside) as a new config of `version`.
pub fn from_v03(
    c: &ecclesia_a2a::PushNotificationConfig,
    version: PushVersion,
) -> Result<NewConfig, ServerError> {
    use serde_json::Value;
    let authentication = match &c.authentication {
        None | Some(Value::Null) => None,
        Some(v) => {
            let a: ecclesia_a2a::PushNotificationAuthenticationInfo =
                serde_json::from_value(v.clone()).map_err(|_| {
                    ServerError::invalid_params(
                        "pushNotificationConfig.authentication must be {\"schemes\": [\"Bearer\"], \"credentials\": \"…\"}",
                    )
                })?;
            let scheme = a.schemes.first().cloned().ok_or_else(|| {
                ServerError::invalid_params(
                    "pushNotificationConfig.authentication.schemes must name a scheme",
                )
            })?;
            Some(PushAuth {
                scheme,
                credentials: a.credentials,
            })
        }
    };
    Ok(NewConfig {
        id: c.id.clone(),
        url: c.url.clone(),
        token: c.token.clone(),
        authentication,
        version,
    })
}

/// `config` in 0.3's form.
pub fn to_v03(config: &PushConfig) -> ecclesia_a2a::TaskPushNotificationConfig {
    let authentication = config.authentication.as_ref().map(|a| {
        serde_json::to_value(ecclesia_a2a::PushNotificationAuthenticationInfo {
            schemes: vec![a.scheme.clone()],
            credentials: a.credentials.clone(),
        })
        .unwrap_or_default()
    });
    ecclesia_a2a::TaskPushNotificationConfig {
        task_id: config.task_id.clone(),
        push_notification_config: ecclesia_a2a::PushNotificationConfig {
            id: Some(config.id.clone()),
            url: config.url.clone(),
            token: config.token.clone(),
            authentication,
        },
    }
}

/// Store `new` for the task `task_id` of `owner` just created (`message/send` with a config;
/// checked with [`check`] before the task was admitted).
pub async fn attach(
    state: &AppState,
    owner: &str,
    task_id: &str,
    new: NewConfig,
    request_id: &str,
) -> Result<(), ServerError> {
    let push = service(state)?;
    let config = PushConfig {
        id: new
            .id
            .filter(|i| !i.trim().is_empty())
            .unwrap_or_else(|| task_id.to_string()),
        task_id: task_id.to_string(),
        owner: owner.to_string(),
        url: new.url,
        token: new.token,
        authentication: new.authentication,
        version: new.version,
    };
    let (store, id) = (push.store.clone(), config.id.clone());
    blocking(request_id, move || store.put_config(&config)).await?;
    push.watch(task_id, &id);
    Ok(())
}

/// Check a config before its task exists (`message/send` with a config).
pub fn check(state: &AppState, new: &NewConfig) -> Result<(), ServerError> {
    let push = service(state)?;
    targets::check(&new.url, &push.allow).map_err(ServerError::invalid_params)?;
    Ok(())
}

/// Set a config on the caller's task `task_id`.
pub async fn set(
    state: &AppState,
    caller: &Caller,
    task_id: &str,
    new: NewConfig,
    request_id: &str,
) -> Result<PushConfig, ServerError> {
    let push = service(state)?;
    tasks::get(state, task_id, &caller.id, request_id).await?;
    check(state, &new)?;
    let config = PushConfig {
        id: new
            .id
            .filter(|i| !i.trim().is_empty())
            .unwrap_or_else(|| task_id.to_string()),
        task_id: task_id.to_string(),
        owner: caller.id.clone(),
        url: new.url,
        token: new.token,
        authentication: new.authentication,
        version: new.version,
    };
    // Who delivers: this replica's runs through `emit`; another replica's, followed here.
    let remote = super::follow::subscribe(state, task_id).await;
    let (store, c, owner, tid) = (
        push.store.clone(),
        config.clone(),
        caller.id.clone(),
        task_id.to_string(),
    );
    blocking(request_id, move || {
        let existing = store.list_configs(&owner, &tid)?;
        let replaces = existing.iter().any(|e| e.id == c.id);
        if !replaces && existing.len() >= MAX_CONFIGS_PER_TASK {
            return Ok(false);
        }
        store.put_config(&c)?;
        Ok(true)
    })
    .await?
    .then_some(())
    .ok_or_else(|| {
        ServerError::invalid_params(format!(
            "task {task_id} already has {MAX_CONFIGS_PER_TASK} push notification configs; delete one first"
        ))
    })?;
    let followed = push.watch(task_id, &config.id);
    if let (Some(events), false) = (remote, followed) {
        super::follow::spawn(
            state.clone(),
            push.clone(),
            task_id.to_string(),
            caller.id.clone(),
            events,
        );
    }
    Ok(config)
}

/// The caller's config `id` of task `task_id`.
pub async fn get(
    state: &AppState,
    caller: &Caller,
    task_id: &str,
    id: &str,
    request_id: &str,
) -> Result<PushConfig, ServerError> {
    let push = service(state)?;
    tasks::get(state, task_id, &caller.id, request_id).await?;
    let (store, owner, tid, cid) = (
        push.store.clone(),
        caller.id.clone(),
        task_id.to_string(),
        id.to_string(),
    );
    blocking(request_id, move || store.get_config(&owner, &tid, &cid))
        .await?
        .ok_or_else(|| ServerError::PushConfigNotFound {
            task_id: task_id.to_string(),
            id: id.to_string(),
        })
}

/// The caller's configs of task `task_id`.
pub async fn list(
    state: &AppState,
    caller: &Caller,
    task_id: &str,
    request_id: &str,
) -> Result<Vec<PushConfig>, ServerError> {
    let push = service(state)?;
    tasks::get(state, task_id, &caller.id, request_id).await?;
    let (store, owner, tid) = (push.store.clone(), caller.id.clone(), task_id.to_string());
    blocking(request_id, move || store.list_configs(&owner, &tid)).await
}

/// Delete the caller's config `id` of task `task_id`.
pub async fn delete(
    state: &AppState,
    caller: &Caller,
    task_id: &str,
    id: &str,
    request_id: &str,
) -> Result<(), ServerError> {
    let push = service(state)?;
    tasks::get(state, task_id, &caller.id, request_id).await?;
    let (store, owner, tid, cid) = (
        push.store.clone(),
        caller.id.clone(),
        task_id.to_string(),
        id.to_string(),
    );
    if blocking(request_id, move || store.delete_config(&owner, &tid, &cid)).await? {
        Ok(())
    } else {
        Err(ServerError::PushConfigNotFound {
            task_id: task_id.to_string(),
            id: id.to_string(),
        })
    }
}

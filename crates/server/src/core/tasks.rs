//! The task service: the whole lifecycle of a task, for every protocol. A task is
//! **created** (`submitted`) when a message is admitted, **started** (`working`) when its run
//! is registered, and **finished** (`completed`, `rejected`, `failed`) when the run ends, or
//! **canceled** by its owner; tasks a previous process left unfinished are **failed** at start
//! ([`fail_unfinished`]) and old ones **expire** ([`maintain`]). Every change is persisted
//! through the [`TaskStore`] (and nothing else) and published on the [`crate::TaskBus`].
//!
//! A race between a cancel and the end of a run is settled under the lock of the running
//! map: either the cancel wins entirely (the task stays canceled) or it sees the task
//! finishing and is refused.

use crate::core::bus::{receiver_stream, EventStream, SharedEvent};
use crate::core::errors::ServerError;
use crate::core::lanes::Ticket;
use crate::core::runs::{self, RunError};
use crate::core::state::{AppState, RunningTask};
use crate::core::store::{
    agent_message, rfc3339, status_with_text, Maintenance, StoreError, TaskListQuery, TaskPage,
    TaskRecord, TaskStore,
};
use chrono::{DateTime, Utc};
use ecclesia_a2a::{
    Artifact, Message, Part, StreamEvent, Task, TaskArtifactUpdateEvent, TaskState, TaskStatus,
    TaskStatusUpdateEvent,
};
use ecclesia_core::{Skill, SkillError, SkillRequest};
use futures::future::{FusedFuture, FutureExt};
use serde_json::Value;
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use tokio::sync::Notify;

/// A status without a message.
pub(crate) fn status(state: TaskState, now: DateTime<Utc>) -> TaskStatus {
    TaskStatus {
        state,
        message: None,
        timestamp: Some(rfc3339(now)),
    }
}

pub(crate) fn status_event(rec: &TaskRecord, is_final: bool) -> SharedEvent {
    Arc::new(StreamEvent::Status(TaskStatusUpdateEvent {
        task_id: rec.task.id.clone(),
        context_id: rec.task.context_id.clone(),
        status: rec.task.status.clone(),
        is_final,
        metadata: None,
    }))
}

pub(crate) fn artifact_event(
    task_id: &str,
    context_id: &str,
    artifact: Artifact,
    append: bool,
    last: bool,
) -> SharedEvent {
    Arc::new(StreamEvent::Artifact(TaskArtifactUpdateEvent {
        task_id: task_id.to_string(),
        context_id: context_id.to_string(),
        artifact,
        append: Some(append),
        last_chunk: Some(last),
        metadata: None,
    }))
}

/// Whether an event of `task_id` would reach anyone: a reader on the bus or a webhook.
pub(crate) fn heard(state: &AppState, task_id: &str) -> bool {
    state.bus.listened(task_id) || state.push.as_ref().is_some_and(|p| p.watches(task_id))
}

/// Publish `event` of the task `task_id` on the bus and queue it for the task's webhooks;
/// `task` (at a status change) is what 0.3 webhooks receive.
pub(crate) fn emit(state: &AppState, task_id: &str, event: SharedEvent, task: Option<&Task>) {
    if let Some(push) = &state.push {
        let last = matches!(event.as_ref(), StreamEvent::Status(s) if s.is_final);
        push.notify(task_id, &event, task, last);
    }
    state.bus.publish(task_id, event);
}

/// The task as a reader asked for it: the last `history_length` messages of its history
/// (an empty history when it asked for some and there is none).
pub(crate) fn view(task: Task, history_length: Option<u32>) -> Task {
    let mut t = task;
    if let (Some(n), Some(h)) = (history_length, t.history.as_mut()) {
        let n = n as usize;
        if h.len() > n {
            h.drain(..h.len() - n);
        }
    }
    if history_length.is_some() && t.history.is_none() {
        t.history = Some(Vec::new());
    }
    t
}

/// A new `submitted` task of `owner` for `skill`, holding the user's message.
pub(crate) fn create(state: &AppState, owner: &str, skill: &str, msg: &Message) -> TaskRecord {
    let now = state.clock.now();
    // Time-ordered (UUID v7, 74 random bits): a new task's id lands at the right edge of the
    // store's id index instead of on a random page, so a commit writes fewer pages.
    let task_id = uuid::Uuid::now_v7().to_string();
    let context_id = msg
        .context_id
        .clone()
        .filter(|c| !c.trim().is_empty())
        .unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
    let mut user_msg = msg.clone();
    user_msg.task_id = Some(task_id.clone());
    user_msg.context_id = Some(context_id.clone());
    let mut meta = serde_json::Map::new();
    meta.insert("skillId".into(), Value::String(skill.to_string()));
    let submitted = status(TaskState::Submitted, now);
    TaskRecord {
        task: Task {
            id: task_id,
            context_id,
            status: submitted.clone(),
            history: Some(vec![user_msg]),
            artifacts: None,
            metadata: Some(meta),
        },
        owner: owner.to_string(),
        skill: skill.to_string(),
        created_at: now,
        expires_at: now + state.config.task_ttl,
        status_history: vec![submitted],
    }
}

/// Run a blocking store call off the async threads.
async fn blocking<T: Send + 'static>(
    state: &AppState,
    f: impl FnOnce(&dyn TaskStore) -> Result<T, StoreError> + Send + 'static,
) -> Result<T, String> {
    let tasks = state.tasks.clone();
    match tokio::task::spawn_blocking(move || f(tasks.as_ref())).await {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(e.to_string()),
        Err(e) => Err(e.to_string()),
    }
}

/// Persist `rec` (a failure is logged: the run goes on, the caller still gets its answer).
pub(crate) async fn persist(state: &AppState, rec: &TaskRecord) {
    let id = rec.task.id.clone();
    if let Err(e) = state.writer.put(rec.clone()).await {
        tracing::error!(task = %id, error = %e, "storing task failed");
    }
}

/// The task `id` of `owner`, if it exists and has not expired.
pub(crate) async fn load(
    state: &AppState,
    id: &str,
    owner: &str,
    request_id: &str,
) -> Result<Option<TaskRecord>, ServerError> {
    let now = state.clock.now();
    let (id, owner) = (id.to_string(), owner.to_string());
    blocking(state, move |s| s.get(&id, &owner, now))
        .await
        .map_err(|e| ServerError::internal(request_id, e))
}

/// The task `id` of `owner`, or `TaskNotFound`.
pub async fn get(
    state: &AppState,
    id: &str,
    owner: &str,
    request_id: &str,
) -> Result<TaskRecord, ServerError> {
    load(state, id, owner, request_id)
        .await?
        .ok_or_else(|| ServerError::TaskNotFound(id.to_string()))
}

/// A page of `owner`'s tasks.
pub async fn list(
    state: &AppState,
    owner: &str,
    query: TaskListQuery,
    request_id: &str,
) -> Result<TaskPage, ServerError> {
    let now = state.clock.now();
    let owner = owner.to_string();
    blocking(state, move |s| s.list(&owner, &query, now))
        .await
        .map_err(|e| ServerError::internal(request_id, e))
}

/// How a run ended, for the caller that waited on it.
#[derive(Debug)]
pub(crate) enum Outcome {
    /// The task reached a terminal state (completed, failed or canceled).
    Done(Box<TaskRecord>),
    /// The skill refused the parameters: the blocking caller gets invalid params.
    InvalidParams(String),
}

/// A started task: the events its streaming caller reads (when asked for), and the run,
/// which ends with the outcome.
pub(crate) struct Started {
    pub events: Option<EventStream>,
    pub run: tokio::task::JoinHandle<Outcome>,
}

/// How a task is started.
pub(crate) struct StartMode {
    /// Subscribe to its events before anything is published (streaming).
    pub subscribe: bool,
    /// Store the `working` state before the run. Needed whenever the caller learns the
    /// task's id before it ends (streaming, `blocking: false`); a blocking caller learns it
    /// with the final state, so only that is stored (one write a call instead of two).
    pub store_working: bool,
}

/// Register `rec` as running here, mark it `working`, and run `skill` for it in its lane.
pub(crate) async fn start(
    state: &AppState,
    mut rec: TaskRecord,
    skill: Arc<dyn Skill>,
    req: SkillRequest,
    ticket: Ticket,
    mode: StartMode,
) -> Started {
    let StartMode {
        subscribe,
        store_working,
    } = mode;
    let id = rec.task.id.clone();
    let stop = Arc::new(AtomicBool::new(false));
    let canceled = Arc::new(AtomicBool::new(false));
    let wake = Arc::new(Notify::new());
    state
        .running
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(
            id.clone(),
            RunningTask {
                owner: rec.owner.clone(),
                stop: stop.clone(),
                canceled: canceled.clone(),
                finished: Arc::new(AtomicBool::new(false)),
                wake: wake.clone(),
            },
        );
    state.bus.open(&id);
    let events = if subscribe {
        match state.bus.subscribe(&id).await {
            Ok(s) => s,
            Err(e) => {
                tracing::error!(task = %id, error = %e, "subscribing to a new task failed");
                None
            }
        }
    } else {
        None
    };
    rec.set_status(status(TaskState::Working, state.clock.now()));
    if store_working {
        persist(state, &rec).await;
    }
    emit(state, &id, status_event(&rec, false), Some(&rec.task));

    let state = state.clone();
    let run = tokio::spawn(async move {
        let run = runs::Run {
            skill,
            req,
            stop,
            ticket,
            wake,
        };
        let result = {
            let work = runs::run(&state, &rec.task.id, &rec.task.context_id, run);
            tokio::pin!(work);
            // A cancel asked for on another replica reaches this one through the bus
            // (watched here, beside the run, rather than by a task of its own).
            let mut remote = state.bus.cancel_requested(&id).fuse();
            loop {
                tokio::select! {
                    r = &mut work => break r,
                    () = &mut remote, if !remote.is_terminated() => {
                        cancel_running(&state, &id, &rec.owner).await;
                    }
                }
            }
        };
        finish(&state, rec, result, &canceled).await
    });
    Started { events, run }
}

/// The reply message: the text parts of the first artifact (or a summary).
fn reply_parts(artifacts: &[Artifact]) -> Vec<Part> {
    let text: Vec<Part> = artifacts
        .first()
        .map(|a| {
            a.parts
                .iter()
                .filter(|p| matches!(p, Part::Text { .. }))
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    if text.is_empty() {
        vec![Part::text(format!(
            "Completed with {} artifact(s).",
            artifacts.len()
        ))]
    } else {
        text
    }
}

/// The terminal status a failed run leaves (`None`: the caller canceled, nothing to set),
/// and the refusal to pass to a blocking caller. This is where a [`SkillError`] raised by a
/// running skill is mapped (before a task exists, [`ServerError::from_skill`] does it).
fn failure(
    e: RunError,
    user_canceled: bool,
    state: &AppState,
    rec: &TaskRecord,
) -> Option<(TaskState, String, Option<String>)> {
    let id = &rec.task.id;
    Some(match e {
        RunError::Skill(SkillError::InvalidParams(m)) => (TaskState::Rejected, m.clone(), Some(m)),
        RunError::Skill(SkillError::Canceled) if user_canceled => return None,
        RunError::Skill(SkillError::Canceled) => (
            TaskState::Failed,
            format!(
                "the skill did not finish within {} seconds",
                state.config.skill_timeout.as_secs()
            ),
            None,
        ),
        RunError::Skill(SkillError::Unavailable(m)) => (TaskState::Failed, m, None),
        RunError::Skill(SkillError::Internal(m)) => {
            tracing::error!(task = %id, error = %m, "skill failed");
            (
                TaskState::Failed,
                format!("the skill failed with an internal error (task {id})"),
                None,
            )
        }
        RunError::Panicked => (
            TaskState::Failed,
            format!("the skill failed unexpectedly (task {id})"),
            None,
        ),
    })
}

/// Store the end of a run, publish the final event, and let the task go.
async fn finish(
    state: &AppState,
    mut rec: TaskRecord,
    result: Result<(Vec<Artifact>, HashSet<String>), RunError>,
    canceled: &AtomicBool,
) -> Outcome {
    let now = state.clock.now();
    let (task_id, ctx_id) = (rec.task.id.clone(), rec.task.context_id.clone());
    let mut invalid = None;
    match result {
        Ok((artifacts, streamed)) => {
            // (Nobody hears them when a blocking caller waits alone: no copies then.)
            let heard = heard(state, &task_id);
            for a in artifacts.iter().filter(|_| heard) {
                let ev = if streamed.contains(&a.artifact_id) {
                    // Live readers already have the text: only close the artifact (late
                    // readers get the whole one from the store).
                    let closing = Artifact {
                        parts: Vec::new(),
                        ..a.clone()
                    };
                    artifact_event(&task_id, &ctx_id, closing, true, true)
                } else {
                    artifact_event(&task_id, &ctx_id, a.clone(), false, true)
                };
                emit(state, &task_id, ev, None);
            }
            let reply = reply_parts(&artifacts);
            if let Some(h) = rec.task.history.as_mut() {
                h.push(agent_message(reply, &task_id, &ctx_id));
            }
            rec.task.artifacts = Some(artifacts);
            rec.set_status(status(TaskState::Completed, now));
        }
        Err(e) => {
            let user = canceled.load(Ordering::Relaxed);
            if let Some((st, text, refusal)) = failure(e, user, state, &rec) {
                rec.set_status(status_with_text(st, &text, now, &task_id, &ctx_id));
                invalid = refusal;
            }
        }
    }
    let user_canceled = {
        let running = state.running.lock().unwrap_or_else(|e| e.into_inner());
        let c = canceled.load(Ordering::Relaxed);
        if let Some(entry) = running.get(&task_id) {
            entry.finished.store(true, Ordering::Relaxed);
        }
        c
    };
    let release = |state: &AppState| {
        state
            .running
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&task_id);
    };
    if user_canceled {
        // The cancel stores and publishes the final state, and closes the task's events
        // (it may still be storing): hand back what is stored.
        let stored = load(state, &task_id, &rec.owner, "-").await;
        release(state);
        return Outcome::Done(Box::new(stored.ok().flatten().unwrap_or(rec)));
    }
    persist(state, &rec).await;
    emit(state, &task_id, status_event(&rec, true), Some(&rec.task));
    release(state);
    state.bus.close(&task_id);
    match invalid {
        Some(m) => Outcome::InvalidParams(m),
        None => Outcome::Done(Box::new(rec)),
    }
}

/// What a cancel of a task running here found.
enum Local {
    Canceled(Box<TaskRecord>),
    NotRunning,
    Finishing,
}

/// Mark `rec` canceled by its owner, store it and publish the final event.
async fn store_canceled(state: &AppState, mut rec: TaskRecord) -> TaskRecord {
    let now = state.clock.now();
    let (tid, cid) = (rec.task.id.clone(), rec.task.context_id.clone());
    rec.set_status(status_with_text(
        TaskState::Canceled,
        "canceled by the caller",
        now,
        &tid,
        &cid,
    ));
    persist(state, &rec).await;
    emit(state, &tid, status_event(&rec, true), Some(&rec.task));
    rec
}

/// Cancel the task `id` of `owner` if it runs in this process.
async fn cancel_running(state: &AppState, id: &str, owner: &str) -> Local {
    {
        let running = state.running.lock().unwrap_or_else(|e| e.into_inner());
        let Some(entry) = running.get(id).filter(|e| e.owner == owner) else {
            return Local::NotRunning;
        };
        if entry.finished.load(Ordering::Relaxed) {
            return Local::Finishing;
        }
        entry.canceled.store(true, Ordering::Relaxed);
        entry.stop.store(true, Ordering::Relaxed);
        entry.wake.notify_one();
    }
    let local = match load(state, id, owner, "-").await {
        Ok(Some(rec)) => Local::Canceled(Box::new(store_canceled(state, rec).await)),
        _ => Local::NotRunning,
    };
    // The run leaves the events of a canceled task to the cancel: they are over now.
    state.bus.close(id);
    local
}

/// Cancel the task `id` of `owner`: here if it runs here; else through the bus (another
/// replica runs it) and in the store.
pub async fn cancel(
    state: &AppState,
    id: &str,
    owner: &str,
    request_id: &str,
) -> Result<TaskRecord, ServerError> {
    match cancel_running(state, id, owner).await {
        Local::Canceled(rec) => return Ok(*rec),
        Local::Finishing => {
            return Err(ServerError::TaskNotCancelable {
                id: id.to_string(),
                state: TaskState::Completed,
            })
        }
        Local::NotRunning => {}
    }
    let rec = get(state, id, owner, request_id).await?;
    if rec.state().is_terminal() {
        return Err(ServerError::TaskNotCancelable {
            id: id.to_string(),
            state: rec.state(),
        });
    }
    if let Err(e) = state.bus.request_cancel(id).await {
        tracing::warn!(task = %id, error = %e, "the cancel could not be sent on the task bus");
    }
    Ok(store_canceled(state, rec).await)
}

/// What a subscriber to a task gets.
pub enum Subscription {
    /// The task runs: its state now, then its events up to the final one.
    Live {
        /// The task now.
        task: Box<Task>,
        /// Its events from now on.
        events: EventStream,
    },
    /// The task has finished: its final state.
    Finished(Box<Task>),
}

/// Subscribe to the task `id` of `owner`.
pub async fn subscribe(
    state: &AppState,
    id: &str,
    owner: &str,
    request_id: &str,
) -> Result<(Subscription, String), ServerError> {
    // Subscribe first, then read the task: no event between the two is lost.
    let events = state
        .bus
        .subscribe(id)
        .await
        .map_err(|e| ServerError::internal(request_id, e))?;
    let rec = get(state, id, owner, request_id).await?;
    let skill = rec.skill.clone();
    let sub = match events {
        Some(events) if !rec.state().is_terminal() => Subscription::Live {
            task: Box::new(rec.task),
            events,
        },
        _ => Subscription::Finished(Box::new(rec.task)),
    };
    Ok((sub, skill))
}

/// A finished task as a stream: its final status.
pub(crate) fn final_events(task: &Task) -> EventStream {
    let (tx, rx) = tokio::sync::broadcast::channel(1);
    let _ = tx.send(Arc::new(StreamEvent::Status(TaskStatusUpdateEvent {
        task_id: task.id.clone(),
        context_id: task.context_id.clone(),
        status: task.status.clone(),
        is_final: true,
        metadata: None,
    })));
    receiver_stream(rx)
}

/// Mark the tasks a previous process left `submitted` or `working` as failed (the store
/// does it, with [`crate::failed_by_restart`]); returns how many.
pub fn fail_unfinished(store: &dyn TaskStore, now: DateTime<Utc>) -> Result<usize, StoreError> {
    store.fail_unfinished(now)
}

/// One pass of upkeep: expire old tasks, keep the store under its ceiling.
pub async fn maintain(state: &AppState) -> Result<Maintenance, String> {
    let now = state.clock.now();
    blocking(state, move |s| s.maintain(now)).await
}

//! Running a skill for a task: on a blocking thread, with a deadline and a
//! cancellation flag, publishing stream events and storing every state change.
//! A panic or timeout in a skill ends the task `failed`, never the server.

use crate::queue::Ticket;
use crate::state::{AppState, RunningTask};
use crate::store::TaskRecord;
use chrono::{DateTime, Utc};
use ecclesia_a2a::{
    Artifact, Message, Part, Role, StreamEvent, TaskArtifactUpdateEvent, TaskState, TaskStatus,
    TaskStatusUpdateEvent,
};
use ecclesia_core::{ArtifactChunk, Skill, SkillContext, SkillError, SkillRequest};
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::{broadcast, Notify};

/// Stream events kept per running task for readers that fall behind. Events
/// are shared (`Arc`), so the buffer costs about 40 bytes a slot: ≈ 5 KB a task
/// (it was 4,096 slots of whole events, ≈ 1.4 MB).
pub(crate) const EVENT_BUFFER: usize = 128;

/// A stream event as the per-task channel carries it.
pub(crate) type SharedEvent = Arc<StreamEvent>;

/// How a run ended, for the caller that waited on it.
#[derive(Debug)]
pub(crate) enum Outcome {
    /// The task reached a terminal state (completed, failed or canceled).
    Done(Box<TaskRecord>),
    /// The skill refused the parameters: the blocking caller gets -32602.
    InvalidParams(String),
}

/// A status with an agent message holding `text`.
pub(crate) fn status_with_text(
    state: TaskState,
    text: &str,
    now: DateTime<Utc>,
    task_id: &str,
    context_id: &str,
) -> TaskStatus {
    TaskStatus {
        state,
        message: Some(agent_message(vec![Part::text(text)], task_id, context_id)),
        timestamp: Some(rfc3339(now)),
    }
}

pub(crate) fn status(state: TaskState, now: DateTime<Utc>) -> TaskStatus {
    TaskStatus {
        state,
        message: None,
        timestamp: Some(rfc3339(now)),
    }
}

pub(crate) fn rfc3339(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

pub(crate) fn agent_message(parts: Vec<Part>, task_id: &str, context_id: &str) -> Message {
    Message {
        message_id: uuid::Uuid::new_v4().to_string(),
        role: Role::Agent,
        parts,
        task_id: Some(task_id.to_string()),
        context_id: Some(context_id.to_string()),
        metadata: None,
        extensions: None,
        reference_task_ids: None,
    }
}

fn status_event(rec: &TaskRecord, is_final: bool) -> SharedEvent {
    Arc::new(StreamEvent::Status(TaskStatusUpdateEvent {
        task_id: rec.task.id.clone(),
        context_id: rec.task.context_id.clone(),
        status: rec.task.status.clone(),
        is_final,
        metadata: None,
    }))
}

fn artifact_event(
    rec_id: &str,
    ctx_id: &str,
    artifact: Artifact,
    append: bool,
    last: bool,
) -> SharedEvent {
    Arc::new(StreamEvent::Artifact(TaskArtifactUpdateEvent {
        task_id: rec_id.to_string(),
        context_id: ctx_id.to_string(),
        artifact,
        append: Some(append),
        last_chunk: Some(last),
        metadata: None,
    }))
}

async fn put(state: &AppState, rec: &TaskRecord) {
    let tasks = state.tasks.clone();
    let rec = rec.clone();
    let id = rec.task.id.clone();
    match tokio::task::spawn_blocking(move || tasks.put(&rec)).await {
        Ok(Ok(())) => {}
        Ok(Err(e)) => tracing::error!(task = %id, error = %e, "storing task failed"),
        Err(e) => tracing::error!(task = %id, error = %e, "storing task failed"),
    }
}

/// Register `rec` as running and return its event receiver (subscribed before
/// anything is sent) and the handle of the run, which ends with the outcome.
pub(crate) async fn start(
    state: &AppState,
    mut rec: TaskRecord,
    skill: Arc<dyn Skill>,
    req: SkillRequest,
    ticket: Ticket,
) -> (
    broadcast::Receiver<SharedEvent>,
    tokio::task::JoinHandle<Outcome>,
) {
    let (tx, rx) = broadcast::channel(EVENT_BUFFER);
    let stop = Arc::new(AtomicBool::new(false));
    let canceled = Arc::new(AtomicBool::new(false));
    let wake = Arc::new(Notify::new());
    {
        let mut running = state.running.lock().unwrap_or_else(|e| e.into_inner());
        running.insert(
            rec.task.id.clone(),
            RunningTask {
                owner: rec.owner.clone(),
                stop: stop.clone(),
                canceled: canceled.clone(),
                finished: Arc::new(AtomicBool::new(false)),
                events: tx.clone(),
                wake: wake.clone(),
            },
        );
    }
    rec.set_status(status(TaskState::Working, state.clock.now()));
    put(state, &rec).await;
    let _ = tx.send(status_event(&rec, false));

    let state = state.clone();
    let handle = tokio::spawn(async move {
        let run = Run {
            skill,
            req,
            tx,
            stop,
            canceled,
            ticket,
            wake,
        };
        run_task(&state, rec, run).await
    });
    (rx, handle)
}

/// What a run needs besides the task.
struct Run {
    skill: Arc<dyn Skill>,
    req: SkillRequest,
    tx: broadcast::Sender<SharedEvent>,
    stop: Arc<AtomicBool>,
    canceled: Arc<AtomicBool>,
    ticket: Ticket,
    wake: Arc<Notify>,
}

/// Why a queued run never started.
enum NotStarted {
    Canceled,
    TooLong,
}

async fn run_task(state: &AppState, mut rec: TaskRecord, run: Run) -> Outcome {
    let Run {
        skill,
        req,
        tx,
        stop,
        canceled,
        ticket,
        wake,
    } = run;
    let task_id = rec.task.id.clone();
    let ctx_id = rec.task.context_id.clone();
    let timeout = state.config.skill_timeout;
    let streamed: Arc<Mutex<HashSet<String>>> = Arc::default();

    // Wait for a worker of the lane (bounded: the queue is, and so is the wait).
    let permit = tokio::select! {
        p = tokio::time::timeout(timeout, ticket.wait()) => match p {
            Ok(Some(p)) => Ok(p),
            Ok(None) | Err(_) => Err(NotStarted::TooLong),
        },
        _ = wake.notified() => Err(NotStarted::Canceled),
    };
    let result = match permit {
        Err(NotStarted::Canceled) => Err(Some(SkillError::Canceled)),
        Err(NotStarted::TooLong) => Err(Some(SkillError::Unavailable(format!(
            "the server was too busy to start this task within {} seconds; please send it again later",
            timeout.as_secs()
        )))),
        Ok(_permit) if stop.load(Ordering::Relaxed) => Err(Some(SkillError::Canceled)),
        Ok(_permit) => {
        let sink_tx = tx.clone();
        let sink_streamed = streamed.clone();
        let (tid, cid) = (task_id.clone(), ctx_id.clone());
        let ctx =
            SkillContext::new(timeout, stop.clone()).with_sink(move |chunk: ArtifactChunk| {
                sink_streamed
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(chunk.artifact.artifact_id.clone());
                let _ = sink_tx.send(artifact_event(
                    &tid,
                    &cid,
                    chunk.artifact,
                    chunk.append,
                    chunk.last_chunk,
                ));
            });
        let join = tokio::task::spawn_blocking(move || skill.run(&req, &ctx));
        match tokio::time::timeout(timeout + std::time::Duration::from_secs(1), join).await {
            Ok(Ok(r)) => r.map_err(Some),
            Ok(Err(join_err)) => {
                tracing::error!(task = %task_id, error = %join_err, "skill panicked");
                Err(None)
            }
            Err(_) => {
                stop.store(true, Ordering::Relaxed);
                Err(Some(SkillError::Canceled))
            }
        }
        }
    };

    let now = state.clock.now();
    let mut invalid = None;
    match result {
        Ok(artifacts) => {
            let already: HashSet<String> =
                streamed.lock().unwrap_or_else(|e| e.into_inner()).clone();
            for a in &artifacts {
                let append = already.contains(&a.artifact_id);
                if !append {
                    let _ = tx.send(artifact_event(&task_id, &ctx_id, a.clone(), false, true));
                } else {
                    // The full artifact replaces the streamed chunks for late readers; live
                    // readers already have the text, so only close the artifact.
                    let closing = Artifact {
                        parts: Vec::new(),
                        ..a.clone()
                    };
                    let _ = tx.send(artifact_event(&task_id, &ctx_id, closing, true, true));
                }
            }
            let reply: Vec<Part> = artifacts
                .first()
                .map(|a| {
                    a.parts
                        .iter()
                        .filter(|p| matches!(p, Part::Text { .. }))
                        .cloned()
                        .collect()
                })
                .unwrap_or_default();
            let reply = if reply.is_empty() {
                vec![Part::text(format!(
                    "Completed with {} artifact(s).",
                    artifacts.len()
                ))]
            } else {
                reply
            };
            if let Some(h) = rec.task.history.as_mut() {
                h.push(agent_message(reply, &task_id, &ctx_id));
            }
            rec.task.artifacts = Some(artifacts);
            rec.set_status(status(TaskState::Completed, now));
        }
        Err(Some(SkillError::InvalidParams(m))) => {
            rec.set_status(status_with_text(
                TaskState::Rejected,
                &m,
                now,
                &task_id,
                &ctx_id,
            ));
            invalid = Some(m);
        }
        Err(Some(SkillError::Canceled)) if !canceled.load(Ordering::Relaxed) => {
            let m = format!(
                "the skill did not finish within {} seconds",
                timeout.as_secs()
            );
            rec.set_status(status_with_text(
                TaskState::Failed,
                &m,
                now,
                &task_id,
                &ctx_id,
            ));
        }
        Err(Some(SkillError::Unavailable(m))) => {
            rec.set_status(status_with_text(
                TaskState::Failed,
                &m,
                now,
                &task_id,
                &ctx_id,
            ));
        }
        Err(Some(SkillError::Internal(m))) => {
            tracing::error!(task = %task_id, error = %m, "skill failed");
            rec.set_status(status_with_text(
                TaskState::Failed,
                &format!("the skill failed with an internal error (task {task_id})"),
                now,
                &task_id,
                &ctx_id,
            ));
        }
        Err(Some(SkillError::Canceled)) => {}
        Err(None) => {
            rec.set_status(status_with_text(
                TaskState::Failed,
                &format!("the skill failed unexpectedly (task {task_id})"),
                now,
                &task_id,
                &ctx_id,
            ));
        }
    }

    // Finish under the running-map lock so that a concurrent cancel either
    // wins entirely (the task stays canceled) or sees the task finished.
    let user_canceled = {
        let running = state.running.lock().unwrap_or_else(|e| e.into_inner());
        let c = canceled.load(Ordering::Relaxed);
        if let Some(entry) = running.get(&task_id) {
            entry.finished.store(true, Ordering::Relaxed);
        }
        c
    };
    let remove = |state: &AppState| {
        state
            .running
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&task_id);
    };
    if user_canceled {
        let tasks = state.tasks.clone();
        let owner = rec.owner.clone();
        let id = task_id.clone();
        let stored = tokio::task::spawn_blocking(move || tasks.get(&id, &owner, now)).await;
        let rec = match stored {
            Ok(Ok(Some(r))) => r,
            _ => rec,
        };
        remove(state);
        return Outcome::Done(Box::new(rec));
    }
    put(state, &rec).await;
    remove(state);
    let _ = tx.send(status_event(&rec, true));
    match invalid {
        Some(m) => Outcome::InvalidParams(m),
        None => Outcome::Done(Box::new(rec)),
    }
}

/// What a cancel found.
pub(crate) enum CancelResult {
    /// It was running here and is now canceled.
    Canceled(Box<TaskRecord>),
    /// It is not running in this process (look in the store).
    NotRunning,
    /// It is completing right now: too late to cancel.
    Finishing,
}

/// Cancel a running task of `owner`.
pub(crate) async fn cancel(state: &AppState, id: &str, owner: &str) -> CancelResult {
    match cancel_inner(state, id, owner).await {
        Some(Ok(rec)) => CancelResult::Canceled(Box::new(rec)),
        Some(Err(())) => CancelResult::Finishing,
        None => CancelResult::NotRunning,
    }
}

async fn cancel_inner(state: &AppState, id: &str, owner: &str) -> Option<Result<TaskRecord, ()>> {
    let (events, tasks) = {
        let running = state.running.lock().unwrap_or_else(|e| e.into_inner());
        let entry = running.get(id)?;
        if entry.owner != owner {
            return None;
        }
        if entry.finished.load(Ordering::Relaxed) {
            return Some(Err(()));
        }
        entry.canceled.store(true, Ordering::Relaxed);
        entry.stop.store(true, Ordering::Relaxed);
        entry.wake.notify_one();
        (entry.events.clone(), state.tasks.clone())
    };
    let now = state.clock.now();
    let (id2, owner2) = (id.to_string(), owner.to_string());
    let mut rec = tokio::task::spawn_blocking(move || tasks.get(&id2, &owner2, now))
        .await
        .ok()?
        .ok()??;
    let (tid, cid) = (rec.task.id.clone(), rec.task.context_id.clone());
    rec.set_status(status_with_text(
        TaskState::Canceled,
        "canceled by the caller",
        now,
        &tid,
        &cid,
    ));
    put(state, &rec).await;
    let _ = events.send(status_event(&rec, true));
    Some(Ok(rec))
}

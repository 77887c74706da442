//! Delivering to a webhook set through this replica for a task that runs on another: the
//! task's events reach this replica on the task bus (as a `tasks/resubscribe` through it
//! would), and this replica delivers them to the configs set through it; the replica running
//! the task delivers to those set through it. So each config is delivered to exactly once,
//! whichever replica took it. (With the in-process bus a task runs here or nowhere.)

use super::deliver::Push;
use crate::core::bus::EventStream;
use crate::core::state::AppState;
use crate::core::tasks;
use ecclesia_a2a::{StreamEvent, Task, TaskStatus};
use futures::StreamExt;
use std::sync::Arc;
use std::time::Duration;

/// How long a follower waits for the final state to be stored before it delivers the task as
/// stored with the final status on it (0.3 webhooks get the task).
const FINAL_WRITE_WAIT: Duration = Duration::from_secs(2);

/// The events of `task_id` when it runs on another replica; `None` when it runs here (its
/// events pass through this replica's `emit`), has finished, or the bus cannot be reached.
pub(super) async fn subscribe(state: &AppState, task_id: &str) -> Option<EventStream> {
    let here = state
        .running
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .contains_key(task_id);
    if here {
        return None;
    }
    match state.bus.subscribe(task_id).await {
        Ok(events) => events,
        Err(e) => {
            tracing::warn!(task = %task_id, error = %e,
                "the task bus cannot be reached: the webhook is stored but this replica cannot follow the task");
            None
        }
    }
}

/// Deliver `events` of `owner`'s task `task_id` to the configs this replica watches, until
/// the final one (or the end of the stream).
pub(super) fn spawn(
    state: AppState,
    push: Arc<Push>,
    task_id: String,
    owner: String,
    mut events: EventStream,
) {
    tokio::spawn(async move {
        while let Some(event) = events.next().await {
            let (last, task) = match event.as_ref() {
                StreamEvent::Status(s) => (
                    s.is_final,
                    current_task(&state, &task_id, &owner, &s.status, s.is_final).await,
                ),
                _ => (false, None),
            };
            push.notify(&task_id, &event, task.as_ref(), last);
            if last {
                return;
            }
        }
        push.forget(&task_id);
    });
}

/// The task as stored, with `status` (the event's) on it; for the final status, once the
/// store has it (bounded by [`FINAL_WRITE_WAIT`]), so its artifacts are there.
async fn current_task(
    state: &AppState,
    task_id: &str,
    owner: &str,
    status: &TaskStatus,
    is_final: bool,
) -> Option<Task> {
    let deadline = tokio::time::Instant::now() + FINAL_WRITE_WAIT;
    loop {
        let stored = match tasks::get(state, task_id, owner, "push-follow").await {
            Ok(rec) => Some(rec.task),
            Err(e) => {
                tracing::debug!(task = %task_id, error = %e.message(), "the followed task could not be read");
                None
            }
        };
        let written = stored
            .as_ref()
            .is_some_and(|t| t.status.state == status.state);
        if written || !is_final || tokio::time::Instant::now() >= deadline {
            return stored.map(|mut t| {
                t.status = status.clone();
                t
            });
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

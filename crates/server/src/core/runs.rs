//! Skill runs: wait for a worker of the lane, run the skill on a blocking thread with a
//! deadline and a cancellation flag, and publish the chunks it streams. A panic or a
//! timeout ends the run with an error, never the server. What the result means for the
//! task is decided by `core::tasks`.

use crate::core::lanes::Ticket;
use crate::core::state::AppState;
use crate::core::tasks::artifact_event;
use ecclesia_a2a::Artifact;
use ecclesia_core::{ArtifactChunk, Skill, SkillContext, SkillError, SkillRequest};
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::Notify;

/// What a run needs besides the task's ids.
pub(crate) struct Run {
    pub skill: Arc<dyn Skill>,
    pub req: SkillRequest,
    /// Set to stop the skill (cancel, deadline); the skill polls it.
    pub stop: Arc<AtomicBool>,
    /// The place in the lane.
    pub ticket: Ticket,
    /// Woken on cancel: a run still waiting for a worker gives up its place.
    pub wake: Arc<Notify>,
}

/// Why a run produced no artifacts.
#[derive(Debug)]
pub(crate) enum RunError {
    /// The skill returned an error (or the run was canceled, or never started in time).
    Skill(SkillError),
    /// The skill panicked.
    Panicked,
}

/// Run the skill; on success, its artifacts and the ids of those it streamed.
pub(crate) async fn run(
    state: &AppState,
    task_id: &str,
    context_id: &str,
    run: Run,
) -> Result<(Vec<Artifact>, HashSet<String>), RunError> {
    let Run {
        skill,
        req,
        stop,
        ticket,
        wake,
    } = run;
    let timeout = state.config.skill_timeout;
    // Wait for a worker of the lane (bounded: the queue is, and so is the wait).
    let permit = tokio::select! {
        p = tokio::time::timeout(timeout, ticket.wait()) => match p {
            Ok(Some(p)) => p,
            Ok(None) | Err(_) => return Err(RunError::Skill(SkillError::Unavailable(format!(
                "the server was too busy to start this task within {} seconds; please send it again later",
                timeout.as_secs()
            )))),
        },
        _ = wake.notified() => return Err(RunError::Skill(SkillError::Canceled)),
    };
    if stop.load(Ordering::Relaxed) {
        return Err(RunError::Skill(SkillError::Canceled));
    }
    let streamed: Arc<Mutex<HashSet<String>>> = Arc::default();
    let sink = {
        let (state, streamed) = (state.clone(), streamed.clone());
        let (tid, cid) = (task_id.to_string(), context_id.to_string());
        move |chunk: ArtifactChunk| {
            streamed
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(chunk.artifact.artifact_id.clone());
            let ev = artifact_event(&tid, &cid, chunk.artifact, chunk.append, chunk.last_chunk);
            crate::core::tasks::emit(&state, &tid, ev, None);
        }
    };
    let ctx = SkillContext::new(timeout, stop.clone()).with_sink(sink);
    if skill.is_instant() {
        // An index probe of microseconds: run here, without the hop to a blocking thread.
        let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| skill.run(&req, &ctx)));
        drop(permit);
        let streamed = streamed.lock().unwrap_or_else(|e| e.into_inner()).clone();
        return match ran {
            Ok(r) => r.map(|a| (a, streamed)).map_err(RunError::Skill),
            Err(_) => {
                tracing::error!(task = %task_id, "skill panicked");
                Err(RunError::Panicked)
            }
        };
    }
    let join = tokio::task::spawn_blocking(move || skill.run(&req, &ctx));
    let result = match tokio::time::timeout(timeout + std::time::Duration::from_secs(1), join).await
    {
        Ok(Ok(r)) => r.map_err(RunError::Skill),
        Ok(Err(join_err)) => {
            tracing::error!(task = %task_id, error = %join_err, "skill panicked");
            Err(RunError::Panicked)
        }
        Err(_) => {
            stop.store(true, Ordering::Relaxed);
            Err(RunError::Skill(SkillError::Canceled))
        }
    };
    drop(permit);
    let streamed = streamed.lock().unwrap_or_else(|e| e.into_inner()).clone();
    result.map(|a| (a, streamed))
}

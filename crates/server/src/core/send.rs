//! Sending a message, for every protocol: check the caller's plan and the message, pick the
//! skill, admit the call (a place in the skill's lane, then the rate-limit pools), create
//! the task and start it; then wait for it (blocking), return it at once (`blocking: false`)
//! or hand its events over (streaming).

use crate::core::bus::EventStream;
use crate::core::errors::ServerError;
use crate::core::lanes::{Busy, Lane, LaneKind};
use crate::core::limits::RateDecision;
use crate::core::push::{configs, PushVersion};
use crate::core::state::AppState;
use crate::core::tasks::{self, Outcome};
use crate::core::{callers::Caller, plans};
use ecclesia_a2a::{MessageSendParams, Role, Task, TaskState};
use ecclesia_core::{Skill, SkillRequest};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Instant;

/// The default skill when a message names none.
pub const DEFAULT_SKILL: &str = "catholic_qa";

/// What a send produced.
pub enum Sent {
    /// The task: finished (blocking), or working (`blocking: false`).
    Task(Box<Task>),
    /// The task as submitted, then its events up to the final one.
    Stream {
        /// The task as submitted.
        first: Box<Task>,
        /// Its events.
        events: EventStream,
    },
}

/// A send's result, with what the front-end reports besides it.
pub struct SendOutcome {
    /// The skill called (for the metrics), once known.
    pub skill: Option<String>,
    /// The rate-limit verdict (its `RateLimit-*` headers go on the reply).
    pub rate: Option<RateDecision>,
    /// The task, or the refusal.
    pub result: Result<Sent, ServerError>,
}

fn skill_id(p: &MessageSendParams) -> Result<String, ServerError> {
    let from = |m: &Option<serde_json::Map<String, Value>>| {
        m.as_ref().and_then(|m| m.get("skillId")).cloned()
    };
    match from(&p.message.metadata).or_else(|| from(&p.metadata)) {
        None | Some(Value::Null) => Ok(DEFAULT_SKILL.to_string()),
        Some(Value::String(s)) => Ok(s),
        Some(_) => Err(ServerError::invalid_params(
            "metadata.skillId must be a string",
        )),
    }
}

/// The refusal for a full lane, with a rough wait: the queue ahead divided among the
/// workers, a second a run for the fast lane and five for the slow one (1 to 60 s).
fn busy_error(busy: &Busy, lane: &Lane) -> ServerError {
    let stats = lane.stats();
    let per_run = match busy.lane {
        LaneKind::Fast => 1,
        LaneKind::Slow => 5,
    };
    let retry = ((busy.queued as u64 * per_run) / stats.workers.max(1) as u64).clamp(1, 60);
    let what = if busy.caller_share {
        format!(
            "you already have {} requests waiting for the {} skills",
            stats.per_caller_limit,
            busy.lane.as_str()
        )
    } else {
        format!(
            "the server's queue for the {} skills is full ({} waiting)",
            busy.lane.as_str(),
            busy.queued
        )
    };
    ServerError::Busy {
        retry_after: retry,
        message: format!("server busy: {what}; retry in {retry} s"),
        data: json!({
            "retry_after_seconds": retry,
            "lane": busy.lane.as_str(),
            "queued": busy.queued,
            "queue_limit": stats.queue_limit,
            "per_caller_limit": stats.per_caller_limit,
            "caller_share": busy.caller_share,
        }),
    }
}

/// The checks on the message itself, and on the task it continues (if any).
async fn check_message(
    state: &AppState,
    caller: &Caller,
    p: &MessageSendParams,
    request_id: &str,
) -> Result<(), ServerError> {
    let msg = &p.message;
    if msg.role != Role::User {
        return Err(ServerError::invalid_params("message.role must be \"user\""));
    }
    if msg.message_id.trim().is_empty() {
        return Err(ServerError::invalid_params(
            "message.messageId must not be empty",
        ));
    }
    if msg.parts.is_empty() {
        return Err(ServerError::invalid_params(
            "message.parts must hold at least one part",
        ));
    }
    if let Some(types) = unsupported_only(&msg.parts) {
        return Err(ServerError::ContentTypeNotSupported(format!(
            "the message holds only {types}; this agent accepts text/plain and application/json (a text part or a data part)"
        )));
    }
    if let Some(tid) = &msg.task_id {
        let rec = tasks::get(state, tid, &caller.id, request_id).await?;
        return Err(if rec.state().is_terminal() {
            ServerError::TaskFinished {
                id: tid.clone(),
                state: rec.state(),
            }
        } else {
            ServerError::TaskStillWorking(tid.clone())
        });
    }
    Ok(())
}

/// When every part is a file of a media type the skills do not read (not text, not JSON),
/// those media types; `None` when some part can be read.
fn unsupported_only(parts: &[ecclesia_a2a::Part]) -> Option<String> {
    let mut types = Vec::new();
    for part in parts {
        match part {
            ecclesia_a2a::Part::File { file, .. } => {
                let mime = file
                    .mime_type
                    .as_deref()
                    .unwrap_or("")
                    .trim()
                    .to_ascii_lowercase();
                let readable = mime.starts_with("text/")
                    || mime == "application/json"
                    || mime.ends_with("+json");
                if readable {
                    return None;
                }
                types.push(if mime.is_empty() {
                    "a file of no media type".to_string()
                } else {
                    mime
                });
            }
            _ => return None,
        }
    }
    types.dedup();
    (!types.is_empty()).then(|| types.join(", "))
}

/// Send `p` for `caller`; `stream` hands the task's events over instead of waiting.
pub async fn send(
    state: &AppState,
    caller: &Caller,
    p: MessageSendParams,
    stream: bool,
    version: PushVersion,
    request_id: &str,
) -> SendOutcome {
    let mut out = SendOutcome {
        skill: None,
        rate: None,
        result: Err(ServerError::PlanRequired(caller.plan_name.clone())),
    };
    if !caller.plan.a2a {
        return out;
    }
    let skill_name = match skill_id(&p) {
        Ok(s) => s,
        Err(e) => {
            out.result = Err(e);
            return out;
        }
    };
    let registry = state.registry.load();
    let Some(skill) = registry.get(&skill_name).cloned() else {
        let shown: String = skill_name.chars().take(100).collect();
        out.result = Err(ServerError::InvalidParams {
            message: format!(
                "unknown skill {shown:?}; available skills: {}",
                registry.ids().join(", ")
            ),
            data: Some(json!({"available_skills": registry.ids()})),
        });
        return out;
    };
    out.skill = Some(skill_name.clone());
    let args = Args {
        stream,
        version,
        request_id,
    };
    out.result = admit_and_run(state, caller, p, skill, args, &mut out.rate).await;
    out
}

/// How a send was asked for.
struct Args<'a> {
    stream: bool,
    /// The protocol version of a webhook given with the message.
    version: PushVersion,
    request_id: &'a str,
}

async fn admit_and_run(
    state: &AppState,
    caller: &Caller,
    p: MessageSendParams,
    skill: Arc<dyn Skill>,
    args: Args<'_>,
    rate: &mut Option<RateDecision>,
) -> Result<Sent, ServerError> {
    let Args {
        stream,
        version,
        request_id,
    } = args;
    check_message(state, caller, &p, request_id).await?;
    let req = SkillRequest::from_parts(&p.message.parts)
        .map_err(|e| ServerError::from_skill(e, request_id))?;
    let config = p.configuration.as_ref();
    let webhook = match config.and_then(|c| c.push_notification_config.as_ref()) {
        Some(c) => {
            let new = configs::from_v03(c, version)?;
            configs::check(state, &new)?;
            Some(new)
        }
        None => None,
    };
    let skill_name = skill.card().id;

    // A place in the skill's lane first (a refusal here costs no rate-limit slot).
    let lane = state.lane_of(&skill_name);
    let ticket = lane.admit(&caller.id).map_err(|b| busy_error(&b, lane))?;
    let pools = plans::pools(&caller.id, &caller.plan, skill.extra_pool());
    *rate = state.limiter.acquire(&pools, Instant::now()).await;
    if let Some(d) = rate.as_ref().filter(|d| !d.allowed) {
        return Err(ServerError::rate_refused(d.clone()));
    }

    let rec = tasks::create(state, &caller.id, &skill_name, &p.message);
    if let Some(new) = webhook {
        configs::attach(state, &caller.id, &rec.task.id, new, request_id).await?;
    }
    let history_length = config.and_then(|c| c.history_length);
    let blocking = config.and_then(|c| c.blocking).unwrap_or(true);
    // the task as submitted, for a caller that gets it before the run ends
    let first = (stream || !blocking).then(|| rec.task.clone());
    let mode = tasks::StartMode {
        subscribe: stream,
        store_working: stream || !blocking,
    };
    let started = tasks::start(state, rec, skill, req, ticket, mode).await;
    if let Some(first) = first {
        if stream {
            let events = started.events.ok_or_else(|| {
                ServerError::internal(request_id, "no event stream for a new task")
            })?;
            return Ok(Sent::Stream {
                first: Box::new(first),
                events,
            });
        }
        let mut t = tasks::view(first, history_length);
        t.status = tasks::status(TaskState::Working, state.clock.now());
        return Ok(Sent::Task(Box::new(t)));
    }
    match started.run.await {
        Ok(Outcome::Done(rec)) => Ok(Sent::Task(Box::new(tasks::view(rec.task, history_length)))),
        Ok(Outcome::InvalidParams(m)) => Err(ServerError::invalid_params(m)),
        Err(e) => Err(ServerError::internal(request_id, e)),
    }
}

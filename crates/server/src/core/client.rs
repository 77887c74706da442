//! [`CoreClient`]: the one way a front-end reaches the core. A2A's JSON-RPC and REST
//! handlers, MCP (over HTTP and stdio), the OpenAI API and the console all call it with the
//! [`Caller`] they authenticated once, and get typed results and [`ServerError`]s back: no
//! front-end builds another's JSON or reads another's SSE. Every skill run goes through the
//! same admission (plan, lane, rate-limit pools), task, deadline and metrics, whichever door
//! it came in by.
//!
//! Two kinds of call:
//! - the task methods A2A exposes ([`send`](CoreClient::send), [`get`](CoreClient::get),
//!   [`list`](CoreClient::list), [`cancel`](CoreClient::cancel),
//!   [`subscribe`](CoreClient::subscribe)), which return tasks;
//! - [`ask`](CoreClient::ask) and [`ask_streaming`](CoreClient::ask_streaming), for the
//!   front-ends that want a skill's answer rather than a task: the artifacts of a completed
//!   task, or [`AskError`].

use crate::core::callers::Caller;
use crate::core::errors::ServerError;
use crate::core::push::configs::{self, NewConfig};
use crate::core::push::{PushConfig, PushVersion};
use crate::core::send::{self, SendOutcome, Sent};
use crate::core::state::AppState;
use crate::core::store::{TaskListQuery, TaskPage, TaskRecord};
use crate::core::tasks::{self, Subscription};
use ecclesia_a2a::{
    Artifact, Message, MessageSendParams, Part, Role, StreamEvent, Task, TaskState,
};
use futures::StreamExt;
use serde_json::{Map, Value};
use std::time::Instant;
use tokio::sync::mpsc;

/// Items buffered between a streamed run and its reader.
const ITEM_BUFFER: usize = 256;

/// One piece of a skill's answer, as it is produced.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// More text (a delta, or a whole text part from a skill that does not stream).
    Text(String),
    /// A data part (`{"citations": [...]}`, `{"grounding": {...}}`, …).
    Data(Map<String, Value>),
}

/// Why an ask produced no answer.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AskError {
    /// Refused before the skill ran (plan, rate limit, a full lane, bad parameters, no such
    /// skill, a rate-limit store that cannot be reached).
    #[error("{}", .0.message())]
    Refused(ServerError),
    /// The task ran and ended without an answer.
    #[error("{message}")]
    Ended {
        /// `failed`, `canceled`, or `rejected` (the skill refused its parameters while
        /// streaming, when no status code could be sent any more).
        state: TaskState,
        /// Why, as the task's status message says it.
        message: String,
    },
}

impl AskError {
    /// Whether the caller's parameters were at fault: refused as invalid, or rejected by the
    /// skill while streaming.
    pub fn is_invalid_params(&self) -> bool {
        matches!(
            self,
            AskError::Refused(ServerError::InvalidParams { .. })
                | AskError::Ended {
                    state: TaskState::Rejected,
                    ..
                }
        )
    }
}

/// The items of a streamed answer, until it is complete; an `Err` ends it early.
pub type Items = mpsc::Receiver<Result<Item, AskError>>;

/// The core, for one front-end (`surface` labels its calls in the metrics: `mcp`, `openai`,
/// `console`, …). Cheap to clone.
#[derive(Clone)]
pub struct CoreClient {
    state: AppState,
    surface: &'static str,
}

impl std::fmt::Debug for CoreClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CoreClient")
            .field("surface", &self.surface)
            .finish()
    }
}

/// The id of the request this call serves (see [`crate::core::request`]).
fn new_request_id() -> String {
    crate::core::request::id()
}

/// The label of a refusal in the metrics.
fn outcome_of(e: &ServerError) -> &'static str {
    match e {
        ServerError::InvalidParams { .. } => "invalid_params",
        ServerError::RateLimited(_) => "rate_limited",
        ServerError::LimiterUnavailable { .. } => "limiter_unavailable",
        ServerError::Busy { .. } => "busy",
        ServerError::PlanRequired(_) => "plan_required",
        ServerError::Unavailable(_) => "unavailable",
        ServerError::Internal { .. } => "internal",
        _ => "refused",
    }
}

/// The text of a status message's text parts.
fn status_text(message: Option<&Message>) -> String {
    message
        .map(|m| {
            m.parts
                .iter()
                .filter_map(|p| match p {
                    Part::Text { text, .. } => Some(text.as_str()),
                    _ => None,
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_default()
}

fn ended(state: TaskState, message: Option<&Message>) -> AskError {
    let text = status_text(message);
    AskError::Ended {
        message: if text.is_empty() {
            format!("the task ended {}", state.as_str())
        } else {
            text
        },
        state,
    }
}

/// The items of an artifact: its text and data parts, then the grounding its metadata holds.
pub fn items_of(artifact: &Artifact) -> Vec<Item> {
    let mut items: Vec<Item> = artifact
        .parts
        .iter()
        .filter_map(|p| match p {
            Part::Text { text, .. } => Some(Item::Text(text.clone())),
            Part::Data { data, .. } => Some(Item::Data(data.clone())),
            Part::File { .. } => None,
        })
        .collect();
    if let Some(g) = artifact.metadata.as_ref().and_then(|m| m.get("grounding")) {
        let mut data = Map::new();
        data.insert("grounding".into(), g.clone());
        items.push(Item::Data(data));
    }
    items
}

/// A user message asking `skill` with `parts`.
fn ask_params(skill: &str, parts: Vec<Part>) -> MessageSendParams {
    let mut metadata = Map::new();
    metadata.insert("skillId".into(), Value::String(skill.to_string()));
    MessageSendParams {
        message: Message {
            role: Role::User,
            parts,
            message_id: uuid::Uuid::new_v4().to_string(),
            task_id: None,
            context_id: None,
            metadata: Some(metadata),
            extensions: None,
            reference_task_ids: None,
        },
        configuration: None,
        metadata: None,
    }
}

impl CoreClient {
    /// The core of `state`, for the front-end `surface`.
    pub fn new(state: AppState, surface: &'static str) -> Self {
        CoreClient { state, surface }
    }

    /// The server's state (configuration, card, key store) for what front-ends read of it.
    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Whether a skill with this id is offered now.
    pub fn has_skill(&self, id: &str) -> bool {
        self.state.registry.load().get(id).is_some()
    }

    /// Send a message (A2A `message/send` and `message/stream`): the finished task, the
    /// working one (`blocking: false`), or its events.
    pub async fn send(
        &self,
        caller: &Caller,
        params: MessageSendParams,
        stream: bool,
        version: PushVersion,
        request_id: &str,
    ) -> SendOutcome {
        send::send(&self.state, caller, params, stream, version, request_id).await
    }

    /// The task `id` of `caller`.
    pub async fn get(
        &self,
        caller: &Caller,
        id: &str,
        request_id: &str,
    ) -> Result<TaskRecord, ServerError> {
        tasks::get(&self.state, id, &caller.id, request_id).await
    }

    /// A page of `caller`'s tasks.
    pub async fn list(
        &self,
        caller: &Caller,
        query: TaskListQuery,
        request_id: &str,
    ) -> Result<TaskPage, ServerError> {
        tasks::list(&self.state, &caller.id, query, request_id).await
    }

    /// Cancel the task `id` of `caller`.
    pub async fn cancel(
        &self,
        caller: &Caller,
        id: &str,
        request_id: &str,
    ) -> Result<TaskRecord, ServerError> {
        tasks::cancel(&self.state, id, &caller.id, request_id).await
    }

    /// Follow the task `id` of `caller` (and the skill it runs).
    pub async fn subscribe(
        &self,
        caller: &Caller,
        id: &str,
        request_id: &str,
    ) -> Result<(Subscription, String), ServerError> {
        tasks::subscribe(&self.state, id, &caller.id, request_id).await
    }

    /// Set a push-notification config on the task `task_id` of `caller`.
    pub async fn set_push_config(
        &self,
        caller: &Caller,
        task_id: &str,
        new: NewConfig,
        request_id: &str,
    ) -> Result<PushConfig, ServerError> {
        configs::set(&self.state, caller, task_id, new, request_id).await
    }

    /// The push-notification config `id` of the task `task_id` of `caller`.
    pub async fn push_config(
        &self,
        caller: &Caller,
        task_id: &str,
        id: &str,
        request_id: &str,
    ) -> Result<PushConfig, ServerError> {
        configs::get(&self.state, caller, task_id, id, request_id).await
    }

    /// The push-notification configs of the task `task_id` of `caller`.
    pub async fn push_configs(
        &self,
        caller: &Caller,
        task_id: &str,
        request_id: &str,
    ) -> Result<Vec<PushConfig>, ServerError> {
        configs::list(&self.state, caller, task_id, request_id).await
    }

    /// Delete the push-notification config `id` of the task `task_id` of `caller`.
    pub async fn delete_push_config(
        &self,
        caller: &Caller,
        task_id: &str,
        id: &str,
        request_id: &str,
    ) -> Result<(), ServerError> {
        configs::delete(&self.state, caller, task_id, id, request_id).await
    }

    fn record(&self, skill: &str, outcome: &str, started: Instant, refused: Option<&ServerError>) {
        let metrics = &self.state.metrics;
        if let Some(pool) = refused.and_then(ServerError::refused_pool) {
            metrics.rate_limited(pool);
        }
        metrics.record(self.surface, skill, outcome, started.elapsed());
    }

    /// Ask `skill` with `parts` for `caller` and wait: the artifacts of the completed task.
    pub async fn ask(
        &self,
        caller: &Caller,
        skill: &str,
        parts: Vec<Part>,
    ) -> Result<Vec<Artifact>, AskError> {
        let started = Instant::now();
        let request_id = new_request_id();
        let params = ask_params(skill, parts);
        let out = self
            .send(caller, params, false, PushVersion::V03, &request_id)
            .await;
        let task: Task = match out.result {
            Ok(Sent::Task(t)) => *t,
            Ok(Sent::Stream { .. }) => {
                let e = ServerError::internal(&request_id, "a blocking send streamed");
                self.record(skill, outcome_of(&e), started, Some(&e));
                return Err(AskError::Refused(e));
            }
            Err(e) => {
                self.record(skill, outcome_of(&e), started, Some(&e));
                return Err(AskError::Refused(e));
            }
        };
        let state = task.status.state;
        self.record(skill, state.as_str(), started, None);
        if state == TaskState::Completed {
            Ok(task.artifacts.unwrap_or_default())
        } else {
            Err(ended(state, task.status.message.as_ref()))
        }
    }

    /// Ask `skill` with `parts` for `caller`, streaming: the answer's items as they are
    /// produced. A refusal comes back as `Err` before any item, so that the front-end can
    /// still answer with its status code.
    pub async fn ask_streaming(
        &self,
        caller: &Caller,
        skill: &str,
        parts: Vec<Part>,
    ) -> Result<Items, AskError> {
        let started = Instant::now();
        let request_id = new_request_id();
        let params = ask_params(skill, parts);
        let out = self
            .send(caller, params, true, PushVersion::V03, &request_id)
            .await;
        let mut events = match out.result {
            Ok(Sent::Stream { events, .. }) => events,
            Ok(Sent::Task(t)) => {
                // Not expected (a stream was asked for); answer with what the task holds.
                let (tx, rx) = mpsc::channel(ITEM_BUFFER);
                let state = t.status.state;
                let items: Vec<Result<Item, AskError>> = if state == TaskState::Completed {
                    t.artifacts
                        .iter()
                        .flatten()
                        .flat_map(items_of)
                        .map(Ok)
                        .collect()
                } else {
                    vec![Err(ended(state, t.status.message.as_ref()))]
                };
                for item in items {
                    let _ = tx.try_send(item);
                }
                return Ok(rx);
            }
            Err(e) => {
                self.record(skill, outcome_of(&e), started, Some(&e));
                return Err(AskError::Refused(e));
            }
        };
        let (tx, rx) = mpsc::channel(ITEM_BUFFER);
        let client = self.clone();
        let skill = skill.to_string();
        tokio::spawn(async move {
            let mut state = TaskState::Working;
            while let Some(ev) = events.next().await {
                match ev.as_ref() {
                    StreamEvent::Artifact(a) => {
                        for item in items_of(&a.artifact) {
                            if tx.send(Ok(item)).await.is_err() {
                                // The reader left; the task runs to its end as any other.
                                return;
                            }
                        }
                    }
                    StreamEvent::Status(s) if s.status.state.is_terminal() => {
                        state = s.status.state;
                        if state != TaskState::Completed {
                            let _ = tx.send(Err(ended(state, s.status.message.as_ref()))).await;
                        }
                        break;
                    }
                    _ => {}
                }
            }
            client.record(&skill, state.as_str(), started, None);
        });
        Ok(rx)
    }
}

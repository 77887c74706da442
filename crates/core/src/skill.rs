//! The [`Skill`] trait, its context and errors, and the registry.

use crate::request::SkillRequest;
use ecclesia_a2a::{AgentSkill, Artifact, Part};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Why a skill could not answer.
///
/// The server maps each variant to one JSON-RPC outcome: `InvalidParams` is the
/// `-32602` error (the message goes to the caller as is), the others end the
/// task as `failed` with a message.
#[derive(Debug, thiserror::Error)]
pub enum SkillError {
    /// The request is wrong in a way the caller can fix; the message says how.
    #[error("{0}")]
    InvalidParams(String),
    /// The skill's store or model is not available (not ingested, still loading).
    #[error("{0}")]
    Unavailable(String),
    /// The caller canceled the task or its deadline passed.
    #[error("the task was canceled")]
    Canceled,
    /// A bug or I/O failure; logged in full, answered with a generic message.
    #[error("internal error: {0}")]
    Internal(String),
}

impl SkillError {
    /// Shorthand for [`SkillError::Internal`] from any error.
    pub fn internal(e: impl std::fmt::Display) -> Self {
        SkillError::Internal(e.to_string())
    }
}

/// A piece of an artifact sent while a skill is still running (streaming).
#[derive(Debug, Clone)]
pub struct ArtifactChunk {
    /// The artifact (id, name and the parts of this chunk).
    pub artifact: Artifact,
    /// True when it extends an artifact already sent with the same id.
    pub append: bool,
    /// True on the last chunk of this artifact.
    pub last_chunk: bool,
}

type Sink = Arc<dyn Fn(ArtifactChunk) + Send + Sync>;

/// What a running skill may consult: its deadline, whether it was canceled,
/// and where to send streamed chunks.
#[derive(Clone)]
pub struct SkillContext {
    deadline: Option<Instant>,
    canceled: Arc<AtomicBool>,
    sink: Option<Sink>,
}

impl Default for SkillContext {
    fn default() -> Self {
        SkillContext {
            deadline: None,
            canceled: Arc::new(AtomicBool::new(false)),
            sink: None,
        }
    }
}

impl std::fmt::Debug for SkillContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SkillContext")
            .field("deadline", &self.deadline)
            .field("canceled", &self.is_canceled())
            .field("streaming", &self.sink.is_some())
            .finish()
    }
}

impl SkillContext {
    /// A context that ends after `timeout`, canceled through `flag`.
    pub fn new(timeout: Duration, flag: Arc<AtomicBool>) -> Self {
        SkillContext {
            deadline: Some(Instant::now() + timeout),
            canceled: flag,
            sink: None,
        }
    }

    /// Send streamed chunks to `sink`.
    pub fn with_sink(mut self, sink: impl Fn(ArtifactChunk) + Send + Sync + 'static) -> Self {
        self.sink = Some(Arc::new(sink));
        self
    }

    /// True when the caller canceled or the deadline passed.
    pub fn is_canceled(&self) -> bool {
        self.canceled.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// `Err(SkillError::Canceled)` when [`is_canceled`](Self::is_canceled); call between steps.
    pub fn check(&self) -> Result<(), SkillError> {
        if self.is_canceled() {
            Err(SkillError::Canceled)
        } else {
            Ok(())
        }
    }

    /// Time left before the deadline.
    pub fn remaining(&self) -> Option<Duration> {
        self.deadline
            .map(|d| d.saturating_duration_since(Instant::now()))
    }

    /// True when the caller listens to streamed chunks.
    pub fn is_streaming(&self) -> bool {
        self.sink.is_some()
    }

    /// Send a chunk to a streaming caller (no-op otherwise).
    pub fn emit(&self, chunk: ArtifactChunk) {
        if let Some(sink) = &self.sink {
            sink(chunk);
        }
    }
}

/// One skill of the agent.
///
/// Implementations are transport-neutral: they never see JSON-RPC or HTTP.
/// `run` is called on a blocking thread; long-running skills should call
/// [`SkillContext::check`] between steps so that cancellation is prompt.
pub trait Skill: Send + Sync + 'static {
    /// The skill's entry on the agent card.
    fn card(&self) -> AgentSkill;

    /// Answer one request with the artifacts of the finished task.
    ///
    /// Artifacts already streamed through [`SkillContext::emit`] must be
    /// returned again, complete, under the same `artifactId`.
    fn run(&self, req: &SkillRequest, ctx: &SkillContext) -> Result<Vec<Artifact>, SkillError>;

    /// Which rate-limit pool the skill counts against beyond the common one
    /// (`Some("catholic_qa")` for the stricter question-answering pool).
    fn extra_pool(&self) -> Option<&'static str> {
        None
    }

    /// Readiness detail for `/readyz` (backend, background progress).
    fn status(&self) -> serde_json::Value {
        serde_json::Value::Null
    }

    /// The values an optional data field takes (`calendar`, `translation`),
    /// each with a label for a person, for forms; empty for a free field.
    fn choices(&self, field: &str) -> Vec<Choice> {
        let _ = field;
        Vec::new()
    }

    /// Whether every run is a probe of an in-memory index taking microseconds, which the
    /// server may then run on the request's own thread instead of handing it to a blocking
    /// thread (the hand-off costs more than the run). Such a run cannot be interrupted by
    /// the skill deadline, so only skills that never wait on anything say so.
    fn is_instant(&self) -> bool {
        false
    }
}

/// One value a skill's data field takes ([`Skill::choices`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// The value sent (`pl`, `douay-rheims`).
    pub id: String,
    /// What a person reads (`Poland`, `Douay-Rheims (DRA)`).
    pub label: String,
}

/// The skills the server offers, by id, in card order.
#[derive(Default, Clone)]
pub struct SkillRegistry {
    skills: BTreeMap<String, Arc<dyn Skill>>,
    order: Vec<String>,
    feeds: Vec<Arc<dyn crate::feed::Feed>>,
}

impl SkillRegistry {
    /// Register a skill under its card id; a second skill with the same id replaces the first.
    pub fn register(&mut self, skill: impl Skill) -> &mut Self {
        self.register_arc(Arc::new(skill))
    }

    /// Register a shared skill.
    pub fn register_arc(&mut self, skill: Arc<dyn Skill>) -> &mut Self {
        let id = skill.card().id;
        if self.skills.insert(id.clone(), skill).is_none() {
            self.order.push(id);
        }
        self
    }

    /// The skill with this id.
    pub fn get(&self, id: &str) -> Option<&Arc<dyn Skill>> {
        self.skills.get(id)
    }

    /// Ids in registration order.
    pub fn ids(&self) -> &[String] {
        &self.order
    }

    /// Skills in registration order.
    pub fn iter(&self) -> impl Iterator<Item = &Arc<dyn Skill>> {
        self.order.iter().filter_map(|id| self.skills.get(id))
    }

    /// Number of skills.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// True when no skill is registered.
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// Register a document served by `GET` (a second one at the same path replaces the first).
    pub fn register_feed(&mut self, feed: impl crate::feed::Feed) -> &mut Self {
        self.feeds.retain(|f| f.path() != feed.path());
        self.feeds.push(Arc::new(feed));
        self
    }

    /// The documents served by `GET`.
    pub fn feeds(&self) -> &[Arc<dyn crate::feed::Feed>] {
        &self.feeds
    }
}

/// A new artifact with a fresh id.
pub fn artifact(name: &str, parts: Vec<Part>) -> Artifact {
    Artifact {
        artifact_id: format!("art_{}", uuid::Uuid::new_v4().simple()),
        name: Some(name.to_string()),
        description: None,
        parts,
        metadata: None,
        extensions: None,
    }
}

/// A card entry with the usual modes (text and JSON in, JSON and text out).
pub fn skill_card(
    id: &str,
    name: &str,
    description: &str,
    tags: &[&str],
    examples: &[&str],
) -> AgentSkill {
    AgentSkill {
        id: id.into(),
        name: name.into(),
        description: description.into(),
        tags: tags.iter().map(|s| s.to_string()).collect(),
        examples: examples.iter().map(|s| s.to_string()).collect(),
        input_modes: vec!["text/plain".into(), "application/json".into()],
        output_modes: vec!["application/json".into(), "text/plain".into()],
    }
}

//! Calling the skills: the console's only way to the data.
//!
//! The console's port to the skills is [`SkillRunner`]: a page's call names the
//! [`Visitor`] its gate admitted, the skill and the A2A parts, and gets the artifacts
//! or a [`RunError`], which [`call`] maps to the console's pages. The server implements
//! it over its core (every call a task, in a lane, with its deadline, counted in the
//! metrics under the `console` surface); [`RegistryRunner`] runs the registry directly
//! for the console alone. The console reads only the documented text and data parts.

use crate::error::ConsoleError;
use crate::gate::{Refusal, Visitor};
use crate::{ConsoleState, RegistrySource};
use ecclesia_a2a::{Artifact, Part};
use ecclesia_core::{SkillContext, SkillError, SkillRequest};
use futures::future::BoxFuture;
use serde_json::{Map, Value};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// Why a skill call gave no answer, as a [`SkillRunner`] reports it.
#[derive(Debug, Clone, thiserror::Error)]
pub enum RunError {
    /// No skill with this id is served (its store is absent).
    #[error("skill {0} is not served")]
    UnknownSkill(String),
    /// The parameters are wrong in a way the person can fix; the message says how.
    #[error("{0}")]
    InvalidParams(String),
    /// The skill cannot answer now (its data is absent or not ready).
    #[error("{0}")]
    Unavailable(String),
    /// The call ran past its deadline.
    #[error("the skill did not finish in time")]
    Timeout,
    /// Refused before the skill ran (a full lane, a plan, a limit), with the status to answer.
    #[error("refused: {}", .0.message)]
    Refused(Refusal),
    /// Anything else (an internal error, a panic); the message is for the log only.
    #[error("the skill failed: {0}")]
    Failed(String),
}

/// The console's port to the skills: run `skill` on `parts` for `visitor` (as the page's
/// gate admitted it) and hand back the artifacts. Object-safe; the deployment chooses it
/// (`ConsoleOptions::runner`).
pub trait SkillRunner: Send + Sync {
    /// One skill call of a page.
    fn run<'a>(
        &'a self,
        visitor: &'a Visitor,
        skill: &'a str,
        parts: Vec<Part>,
    ) -> BoxFuture<'a, Result<Vec<Artifact>, RunError>>;
}

/// Runs the registry's skills directly, on a blocking thread with a deadline: the console
/// alone (its own tests, an embedding without a server). It knows no visitor, lane, task or
/// metric. **The server never uses it**: it passes its own runner over its core, so that a
/// console page's calls are tasks like any front-end's.
pub struct RegistryRunner {
    source: RegistrySource,
    timeout: Duration,
}

impl RegistryRunner {
    /// Over the registry `source` gives at each call, each run limited to `timeout`.
    pub fn new(source: RegistrySource, timeout: Duration) -> Self {
        RegistryRunner { source, timeout }
    }

    async fn run_now(&self, id: &str, parts: Vec<Part>) -> Result<Vec<Artifact>, RunError> {
        let Some(skill) = (self.source)().get(id).cloned() else {
            return Err(RunError::UnknownSkill(id.to_string()));
        };
        let timeout = self.timeout;
        let joined = tokio::task::spawn_blocking(move || {
            let req = SkillRequest::from_parts(&parts)?;
            let ctx = SkillContext::new(timeout, Arc::new(AtomicBool::new(false)));
            skill.run(&req, &ctx)
        })
        .await;
        match joined {
            Ok(Ok(artifacts)) => Ok(artifacts),
            Ok(Err(SkillError::InvalidParams(m))) => Err(RunError::InvalidParams(m)),
            Ok(Err(SkillError::Unavailable(m))) => Err(RunError::Unavailable(m)),
            Ok(Err(SkillError::Canceled)) => Err(RunError::Timeout),
            Ok(Err(SkillError::Internal(m))) => Err(RunError::Failed(m)),
            Err(e) => Err(RunError::Failed(format!("the skill panicked: {e}"))),
        }
    }
}

impl SkillRunner for RegistryRunner {
    fn run<'a>(
        &'a self,
        _visitor: &'a Visitor,
        skill: &'a str,
        parts: Vec<Part>,
    ) -> BoxFuture<'a, Result<Vec<Artifact>, RunError>> {
        Box::pin(self.run_now(skill, parts))
    }
}

/// The parts of a skill's first artifact, read the documented way.
#[derive(Debug, Clone, Default)]
pub struct Answer {
    /// The artifacts, as the skill returned them.
    pub artifacts: Vec<Artifact>,
}

impl Answer {
    /// The text parts of the first artifact, joined.
    pub fn text(&self) -> Option<String> {
        let a = self.artifacts.first()?;
        let texts: Vec<&str> = a
            .parts
            .iter()
            .filter_map(|p| match p {
                Part::Text { text, .. } => Some(text.as_str()),
                _ => None,
            })
            .collect();
        (!texts.is_empty()).then(|| texts.join("\n"))
    }

    /// The data parts of the first artifact, merged (later parts win).
    pub fn data(&self) -> Map<String, Value> {
        let mut out = Map::new();
        if let Some(a) = self.artifacts.first() {
            for p in &a.parts {
                if let Part::Data { data, .. } = p {
                    for (k, v) in data {
                        out.insert(k.clone(), v.clone());
                    }
                }
            }
            // `catholic_qa`'s grounding travels in the artifact's metadata.
            if let Some(g) = a.metadata.as_ref().and_then(|m| m.get("grounding")) {
                out.insert("grounding".into(), g.clone());
            }
        }
        out
    }
}

/// Run skill `id` on `parts` for `visitor` through the console's runner, at most
/// `max_concurrent` at once. A skill not served is [`ConsoleError::Unavailable`];
/// invalid parameters become a 400 page; a refusal (a full lane) its own status.
pub async fn call(
    state: &ConsoleState,
    visitor: &Visitor,
    id: &str,
    parts: Vec<Part>,
) -> Result<Answer, ConsoleError> {
    let _permit = state
        .permits
        .acquire()
        .await
        .map_err(|_| ConsoleError::Internal("the console is shutting down".into()))?;
    let started = std::time::Instant::now();
    let result = state.runner.run(visitor, id, parts).await;
    tracing::debug!(skill = %id, visitor = %visitor.id(), elapsed = ?started.elapsed(), "console skill call");
    match result {
        Ok(artifacts) => Ok(Answer { artifacts }),
        Err(RunError::UnknownSkill(_)) => Err(ConsoleError::Unavailable(id.to_string())),
        Err(RunError::InvalidParams(m)) => Err(ConsoleError::BadInput(m)),
        Err(RunError::Unavailable(m)) => {
            tracing::warn!(skill = %id, "skill unavailable: {m}");
            Err(ConsoleError::Unavailable(id.to_string()))
        }
        Err(RunError::Timeout) => Err(ConsoleError::Timeout),
        Err(RunError::Refused(r)) => Err(ConsoleError::Refused(r)),
        Err(RunError::Failed(m)) => {
            tracing::error!(skill = %id, "skill failed: {m}");
            Err(ConsoleError::Internal("the skill failed".into()))
        }
    }
}

/// A data part from a JSON object.
pub fn data(v: Value) -> Vec<Part> {
    vec![Part::data(v)]
}

/// A string field of a JSON object.
pub fn s<'a>(m: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    m.get(key).and_then(Value::as_str).filter(|s| !s.is_empty())
}

//! Calling the skills: the console's only way to the data.
//!
//! Each call builds a [`SkillRequest`] from A2A parts exactly as the server
//! does, runs the skill on a blocking thread with a deadline, and hands back
//! the artifacts. The console reads only the documented text and data parts.

use crate::error::ConsoleError;
use crate::ConsoleState;
use ecclesia_a2a::{Artifact, Part};
use ecclesia_core::{SkillContext, SkillError, SkillRequest};
use serde_json::{Map, Value};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

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

/// Run skill `id` on `parts`. A skill not registered is
/// [`ConsoleError::Unavailable`]; `InvalidParams` becomes a 400 page.
pub async fn call(
    state: &ConsoleState,
    id: &str,
    parts: Vec<Part>,
) -> Result<Answer, ConsoleError> {
    let registry = state.registry();
    let Some(skill) = registry.get(id).cloned() else {
        return Err(ConsoleError::Unavailable(id.to_string()));
    };
    let permit = state
        .permits
        .clone()
        .acquire_owned()
        .await
        .map_err(|_| ConsoleError::Internal("the console is shutting down".into()))?;
    let timeout = state.opts.skill_timeout;
    let id_owned = id.to_string();
    let started = std::time::Instant::now();
    let joined = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let req = SkillRequest::from_parts(&parts)?;
        let ctx = SkillContext::new(timeout, Arc::new(AtomicBool::new(false)));
        skill.run(&req, &ctx)
    })
    .await;
    tracing::debug!(skill = %id_owned, elapsed = ?started.elapsed(), "console skill call");
    match joined {
        Ok(Ok(artifacts)) => Ok(Answer { artifacts }),
        Ok(Err(SkillError::InvalidParams(m))) => Err(ConsoleError::BadInput(m)),
        Ok(Err(SkillError::Unavailable(m))) => {
            tracing::warn!(skill = %id_owned, "skill unavailable: {m}");
            Err(ConsoleError::Unavailable(id_owned))
        }
        Ok(Err(SkillError::Canceled)) => Err(ConsoleError::Timeout),
        Ok(Err(SkillError::Internal(m))) => {
            tracing::error!(skill = %id_owned, "skill failed: {m}");
            Err(ConsoleError::Internal("the skill failed".into()))
        }
        Err(e) => {
            tracing::error!(skill = %id_owned, "skill panicked: {e}");
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

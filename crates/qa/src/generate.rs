//! The [`Generator`] trait: the one seam between retrieval and whatever writes
//! the answer text (the extractive composer, an OpenAI-compatible server, a
//! local model). A generator writes `[n]` markers that refer to the numbered
//! passages it was given (1-based); the engine validates and renumbers them.

use crate::error::QaError;
use crate::passage::Passage;
use crate::text::Excerpt;

/// What a generator wrote.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Draft {
    /// The answer text with `[n]` markers referring to the passages (1-based).
    pub text: String,
    /// For each passage (same index), the excerpt the text quotes, when the
    /// generator quoted one verbatim; citations then quote exactly that.
    pub excerpts: Vec<Option<Excerpt>>,
}

/// A caller's sampling settings for one answer (OpenAI's `max_tokens` and
/// `temperature`); `None` keeps the backend's configured value.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Sampling {
    /// Most tokens to generate.
    pub max_tokens: Option<u32>,
    /// Sampling temperature.
    pub temperature: Option<f32>,
}

/// Receives streamed text; returns `Err(QaError::Canceled)` to stop the generator.
pub type Emit<'a> = dyn FnMut(&str) -> Result<(), QaError> + 'a;

/// Writes an answer from numbered passages.
pub trait Generator: Send + Sync {
    /// The backend's name for logs, the card and `readyz` (`extractive`, `openai:llama3`).
    fn name(&self) -> String;

    /// Write the answer to `question` from `passages` (cited as `[1]`…`[n]`),
    /// sending text through `emit` as it is produced. The returned draft's
    /// text is the concatenation of what was emitted.
    fn generate(
        &self,
        question: &str,
        passages: &[Passage],
        emit: &mut Emit<'_>,
    ) -> Result<Draft, QaError>;

    /// [`Generator::generate`] with the caller's `sampling`; backends without
    /// sampling (the extractive composer) ignore it.
    fn generate_sampled(
        &self,
        question: &str,
        passages: &[Passage],
        _sampling: &Sampling,
        emit: &mut Emit<'_>,
    ) -> Result<Draft, QaError> {
        self.generate(question, passages, emit)
    }

    /// The question translated into English for retrieval, when this backend
    /// can translate (a model); `None` otherwise or when translation failed.
    fn translate_query(&self, _question: &str) -> Option<String> {
        None
    }
}

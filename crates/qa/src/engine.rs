//! [`QaEngine`]: question in, validated [`Answer`] out. It checks the question,
//! refuses off-topic ones, gathers passages, runs the [`Generator`] with a
//! streaming marker rewriter in between, falls back to the extractive answer
//! when a model backend fails before writing anything, and builds citations
//! and related questions.

use crate::answer::{citations, strip_model_sources, tidy, Answer, MarkerRewriter};
use crate::error::QaError;
use crate::extractive::{Extractive, RelatedList};
use crate::generate::{Generator, Sampling};
use crate::grounding::{self, Grounding, Status};
use crate::injection::looks_like_injection;
use crate::lang::{detect, Lang};
use crate::passage::{Passage, Retriever};
use crate::related::related_questions;
use crate::retrieve::{gather_with, RetrievalConfig};
use crate::text::Excerpt;
use crate::topic::semantic::SemanticVote;
use crate::topic::{classify_with, REFUSAL};
use crate::translate::search_text;
use ecclesia_magisterium::Registry;
use std::sync::Arc;

/// A generator's output after marker rewriting: the rewriter (text, order) and the excerpts.
type Generated = (MarkerRewriter, Vec<Option<Excerpt>>);

/// Behaviour of the engine beyond the backend.
#[derive(Debug, Clone)]
pub struct QaConfig {
    /// Longest question accepted, in characters.
    pub max_question_chars: usize,
    /// Refuse questions with no relation to faith, religion or morals.
    pub refuse_off_topic: bool,
    /// The refusal text.
    pub refusal: String,
    /// Passage selection bounds.
    pub retrieval: RetrievalConfig,
    /// Longest `cited_text` for model answers, in characters.
    pub cited_chars: usize,
    /// When a model backend fails before writing anything, answer extractively.
    pub fallback_to_extractive: bool,
    /// How many related questions to offer.
    pub related: usize,
    /// The on-topic classifier's embedding voice (`None`: the word model alone).
    pub topic_vote: Option<Arc<SemanticVote>>,
}

impl Default for QaConfig {
    fn default() -> Self {
        QaConfig {
            max_question_chars: 2000,
            refuse_off_topic: true,
            refusal: REFUSAL.to_string(),
            retrieval: RetrievalConfig::default(),
            cited_chars: 600,
            fallback_to_extractive: true,
            related: 4,
            topic_vote: None,
        }
    }
}

/// Answers questions from a [`Retriever`] with a [`Generator`].
#[derive(Clone)]
pub struct QaEngine {
    retriever: Arc<dyn Retriever>,
    generator: Arc<dyn Generator>,
    config: QaConfig,
}

impl std::fmt::Debug for QaEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("QaEngine")
            .field("backend", &self.generator.name())
            .field("config", &self.config)
            .finish()
    }
}

impl QaEngine {
    /// An engine over `retriever` writing with `generator`.
    pub fn new(
        retriever: Arc<dyn Retriever>,
        generator: Arc<dyn Generator>,
        config: QaConfig,
    ) -> Self {
        if config.refuse_off_topic {
            // Train the on-topic model now (≈ 0.2–0.4 s) rather than on the first question.
            crate::topic::warm();
        }
        QaEngine {
            retriever,
            generator,
            config,
        }
    }

    /// The active backend's name.
    pub fn backend(&self) -> String {
        self.generator.name()
    }

    /// The configuration.
    pub fn config(&self) -> &QaConfig {
        &self.config
    }

    /// Answer `question` without streaming.
    pub fn answer(&self, question: &str) -> Result<Answer, QaError> {
        self.answer_streaming(question, &mut |_| {}, &|| false)
    }

    /// Check a question: trimmed, non-empty, not too long.
    pub fn check_question(&self, question: &str) -> Result<String, QaError> {
        let q = question.trim();
        if q.is_empty() {
            return Err(QaError::InvalidQuestion("the question is empty".into()));
        }
        let n = q.chars().count();
        if n > self.config.max_question_chars {
            return Err(QaError::InvalidQuestion(format!(
                "the question is too long ({n} characters); the limit is {}",
                self.config.max_question_chars
            )));
        }
        Ok(q.to_string())
    }

    /// Answer `question`, sending the answer text to `on_text` as it is
    /// written (markers already validated); `canceled` is polled between steps
    /// and between streamed pieces.
    pub fn answer_streaming(
        &self,
        question: &str,
        on_text: &mut dyn FnMut(&str),
        canceled: &dyn Fn() -> bool,
    ) -> Result<Answer, QaError> {
        self.answer_streaming_sampled(question, &Sampling::default(), on_text, canceled)
    }

    /// [`QaEngine::answer_streaming`] with the caller's `sampling` (`max_tokens`,
    /// `temperature`) for a model backend.
    pub fn answer_streaming_sampled(
        &self,
        question: &str,
        sampling: &Sampling,
        on_text: &mut dyn FnMut(&str),
        canceled: &dyn Fn() -> bool,
    ) -> Result<Answer, QaError> {
        let question = self.check_question(question)?;
        if looks_like_injection(&question) {
            tracing::warn!("question contains instruction-like text; it is treated as data only");
        }
        // A question that names a Church document, the Council or a modern pope
        // is about the faith whatever the classifier makes of its other words.
        if self.config.refuse_off_topic
            && !names_the_magisterium(&question)
            && !classify_with(&question, self.config.topic_vote.as_deref()).on_topic()
        {
            tracing::info!("off-topic question refused");
            on_text(&self.config.refusal);
            return Ok(Answer {
                text: self.config.refusal.clone(),
                citations: Vec::new(),
                related_questions: Vec::new(),
                backend: "refusal".into(),
                grounding: None,
            });
        }
        if canceled() {
            return Err(QaError::Canceled);
        }
        let translation = if detect(&question) == Lang::En {
            None
        } else {
            self.generator.translate_query(&question)
        };
        let search = search_text(&question, translation.as_deref());
        let passages = gather_with(
            self.retriever.as_ref(),
            &question,
            &search,
            &self.config.retrieval,
        )?;
        tracing::debug!(passages = passages.len(), "passages gathered");
        if canceled() {
            return Err(QaError::Canceled);
        }
        let grounding = grounding::decide(
            &question,
            &passages,
            self.retriever.as_ref(),
            Registry::bundled(),
        );
        tracing::debug!(status = ?grounding.status, "grounding decided");
        let lang = detect(&question);
        let related = RelatedList;
        // An answer the library cannot give is never sent to a model to fill:
        // it says so, then quotes a few related passages as related.
        let (prefix, generator, passages): (String, &dyn Generator, Vec<Passage>) =
            match grounding.status {
                Status::Answered => (String::new(), self.generator.as_ref(), passages),
                Status::Partial => (
                    format!(
                        "{}\n\n{}\n\n",
                        grounding.statement,
                        grounding::partial_intro(lang)
                    ),
                    self.generator.as_ref(),
                    passages,
                ),
                Status::NotInLibrary => {
                    let related_passages = grounding::related(&grounding.subject, passages, 3);
                    let prefix = if related_passages.is_empty() {
                        grounding.statement.clone()
                    } else {
                        format!(
                            "{}\n\n{}",
                            grounding.statement,
                            grounding::related_intro(lang)
                        )
                    };
                    (prefix, &related as &dyn Generator, related_passages)
                }
            };

        let (rewriter, excerpts, backend) = match self.generate(
            generator, &question, &passages, &prefix, true, sampling, on_text, canceled,
        ) {
            Ok(r) => (r.0, r.1, generator.name()),
            Err((e, emitted)) => {
                let model_backend = generator.name() != "extractive";
                if matches!(e, QaError::Backend(_))
                    && model_backend
                    && self.config.fallback_to_extractive
                    && !emitted
                {
                    tracing::warn!(error = %e, "model backend failed; answering extractively");
                    let ex = Extractive::default();
                    let r = self
                        .generate(
                            &ex, &question, &passages, &prefix, false, sampling, on_text, canceled,
                        )
                        .map_err(|(e, _)| e)?;
                    (r.0, r.1, "extractive (fallback)".to_string())
                } else {
                    return Err(e);
                }
            }
        };
        Ok(self.finish(
            &question, &passages, rewriter, &excerpts, backend, grounding,
        ))
    }

    /// Run one generator through the marker rewriter, after `prefix` (the
    /// grounding statement; sent to `on_text` when `emit_prefix`). On error,
    /// also says whether the generator emitted text.
    #[allow(clippy::too_many_arguments)]
    fn generate(
        &self,
        generator: &dyn Generator,
        question: &str,
        passages: &[Passage],
        prefix: &str,
        emit_prefix: bool,
        sampling: &Sampling,
        on_text: &mut dyn FnMut(&str),
        canceled: &dyn Fn() -> bool,
    ) -> Result<Generated, (QaError, bool)> {
        let mut rewriter = MarkerRewriter::new(passages.len());
        let mut emitted = false;
        if !prefix.is_empty() {
            let clean = rewriter.feed(prefix);
            if emit_prefix && !clean.is_empty() {
                on_text(&clean);
            }
        }
        let result = {
            let mut emit = |delta: &str| -> Result<(), QaError> {
                if canceled() {
                    return Err(QaError::Canceled);
                }
                let clean = rewriter.feed(delta);
                if !clean.is_empty() {
                    emitted = true;
                    on_text(&clean);
                }
                Ok(())
            };
            generator.generate_sampled(question, passages, sampling, &mut emit)
        };
        match result {
            Ok(draft) => {
                let rest = rewriter.finish();
                if !rest.is_empty() {
                    on_text(&rest);
                }
                Ok((rewriter, draft.excerpts))
            }
            Err(e) => Err((e, emitted)),
        }
    }

    /// Final text, citations and related questions.
    fn finish(
        &self,
        question: &str,
        passages: &[Passage],
        rewriter: MarkerRewriter,
        excerpts: &[Option<Excerpt>],
        backend: String,
        grounding: Grounding,
    ) -> Answer {
        // Drop a model's own source list, then renumber again so that markers
        // removed with it leave no uncited citation behind.
        let text = tidy(&strip_model_sources(rewriter.text()));
        let first_order = rewriter.order().to_vec();
        let mut again = MarkerRewriter::new(first_order.len());
        again.feed(&text);
        again.finish();
        let mut text = again.text().to_string();
        let mut order: Vec<usize> = again.order().iter().map(|&c| first_order[c]).collect();
        if order.is_empty() && !passages.is_empty() && backend != "extractive" {
            // A model that cited nothing: say which passages it was given, honestly.
            let marks: String = (1..=passages.len()).map(|i| format!("[{i}]")).collect();
            text.push_str(&format!("\n\nPassages consulted for this answer: {marks}"));
            order = (0..passages.len()).collect();
        }
        let cites = citations(
            passages,
            &order,
            excerpts,
            &text,
            question,
            self.config.cited_chars,
        );
        let used: Vec<Passage> = order
            .iter()
            .filter_map(|&i| passages.get(i).cloned())
            .collect();
        // The cited passages first, then the others gathered.
        let mut pool = used;
        pool.extend(
            passages
                .iter()
                .filter(|p| !pool.iter().any(|u| u.key() == p.key()))
                .cloned()
                .collect::<Vec<_>>(),
        );
        let related = related_questions(question, &pool, self.config.related);
        Answer {
            text,
            citations: cites,
            related_questions: related,
            backend,
            grounding: Some(grounding),
        }
    }
}

/// True when `question` names a document of the modern Magisterium, the
/// Second Vatican Council or a modern pope (a title merely guessed after a
/// word like "document" does not count).
fn names_the_magisterium(question: &str) -> bool {
    let m = Registry::bundled().mentions(question);
    !m.documents.is_empty() || m.council || !m.popes.is_empty()
}

//! The extractive generator, used when no model is configured: the answer is
//! composed of sentences of the passages themselves, each quoted verbatim,
//! introduced by its author and marked `[n]`. It opens with the direct answer
//! when a source gives one (a catechism's answer to the same question, a
//! definition), then two to four short paragraphs in the order of the
//! hierarchy of sources (Scripture and the Magisterium before the Fathers,
//! the Doctors and commentary), about 120–300 words, with no two sentences
//! saying the same thing. It says nothing the passages do not say, and a
//! passage cannot instruct it: text is only ever quoted.
//!
//! [`Extractive::list`] is the older form, kept for the related passages of
//! an answer the library cannot give: each passage's key lines quoted under
//! its attribution.

mod compose;
mod intro;
mod sentences;

use crate::answer::defuse_markers;
use crate::error::QaError;
use crate::framing;
use crate::generate::{Draft, Emit, Generator};
use crate::lang::detect;
use crate::passage::{Passage, SourceKind};
use crate::text::{best_excerpt, content_terms, squash, Excerpt};

/// Composes answers from verbatim quotations.
#[derive(Debug, Clone)]
pub struct Extractive {
    /// Longest quotation of the best passages, in characters.
    pub quote_chars: usize,
    /// Longest quotation of the other passages.
    pub short_quote_chars: usize,
    /// Length the composed answer aims at, in words (about 120–300).
    pub max_words: usize,
}

impl Default for Extractive {
    fn default() -> Self {
        Extractive {
            quote_chars: 520,
            short_quote_chars: 320,
            max_words: 260,
        }
    }
}

impl Extractive {
    /// Quote the key lines of each passage under its attribution (the related
    /// passages of an answer the library cannot give).
    pub fn list(
        &self,
        question: &str,
        passages: &[Passage],
        emit: &mut Emit<'_>,
    ) -> Result<Draft, QaError> {
        let terms = content_terms(&crate::translate::english_terms(question));
        let mut text = String::new();
        let mut excerpts: Vec<Option<Excerpt>> = vec![None; passages.len()];
        let mut push = |s: &str, text: &mut String| -> Result<(), QaError> {
            text.push_str(s);
            emit(s)
        };
        if passages.is_empty() {
            return Ok(Draft { text, excerpts });
        }

        // Group by kind of source, in the order of SourceKind; within a group keep retrieval order.
        let mut order: Vec<usize> = (0..passages.len()).collect();
        order.sort_by_key(|&i| (passages[i].kind(), i));
        let mut current: Option<SourceKind> = None;
        for (rank_in_answer, &i) in order.iter().enumerate() {
            let p = &passages[i];
            let kind = p.kind();
            if current != Some(kind) {
                current = Some(kind);
            }
            // The best passages (by retrieval rank) get the longer quotation.
            let limit = if i < 3 {
                self.quote_chars
            } else {
                self.short_quote_chars
            };
            let _ = rank_in_answer;
            let ex = best_excerpt(&p.text, &terms, limit);
            if ex.text.is_empty() {
                continue;
            }
            let before = if ex.cut_before() { "\u{2026}" } else { "" };
            let after = if ex.cut_after(p.text.len()) && !ex.text.ends_with(['.', '?', '!']) {
                "\u{2026}"
            } else {
                ""
            };
            let mut attribution = p.attribution();
            if let Some(h) = p
                .heading
                .as_deref()
                .map(str::trim)
                .filter(|h| !h.is_empty())
            {
                if kind != SourceKind::Scripture
                    && !attribution.contains(h)
                    && h.chars().count() <= 80
                {
                    let h = squash(h);
                    attribution.push_str(&format!(
                        " \u{2014} {}",
                        h.trim_end_matches(['.', ':', ';', ','])
                    ));
                }
            }
            let line = format!(
                "\n- {attribution}: \u{201c}{before}{}{after}\u{201d} [{}]",
                defuse_markers(&squash(&ex.text)),
                i + 1
            );
            excerpts[i] = Some(ex);
            push(&line, &mut text)?;
        }
        Ok(Draft { text, excerpts })
    }
}

impl Generator for Extractive {
    fn name(&self) -> String {
        "extractive".into()
    }

    fn generate(
        &self,
        question: &str,
        passages: &[Passage],
        emit: &mut Emit<'_>,
    ) -> Result<Draft, QaError> {
        let lang = detect(question);
        if passages.is_empty() {
            emit(framing::nothing_found(lang))?;
            return Ok(Draft {
                text: framing::nothing_found(lang).to_string(),
                excerpts: Vec::new(),
            });
        }
        let composed = compose::compose(question, passages, self.max_words);
        if composed.text.is_empty() {
            // No readable sentence (headings, verse fragments): quote the passages instead.
            return self.list(question, passages, emit);
        }
        // Streamed a quotation at a time.
        for piece in composed.text.split_inclusive(']') {
            emit(piece)?;
        }
        Ok(Draft {
            text: composed.text,
            excerpts: composed.excerpts,
        })
    }
}

/// The related passages of an answer the library cannot give, quoted under
/// their attributions ([`Extractive::list`]); no model is ever asked.
#[derive(Debug, Clone, Copy, Default)]
pub struct RelatedList;

impl Generator for RelatedList {
    fn name(&self) -> String {
        "extractive".into()
    }

    fn generate(
        &self,
        question: &str,
        passages: &[Passage],
        emit: &mut Emit<'_>,
    ) -> Result<Draft, QaError> {
        Extractive::default().list(question, passages, emit)
    }
}

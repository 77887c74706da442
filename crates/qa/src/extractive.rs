//! The extractive generator, used when no model is configured: the answer is
//! composed from the passages themselves. A short lead names the sources, then
//! the key passage of each is quoted verbatim and attributed, grouped by kind
//! of source. It says nothing the passages do not say, and a passage cannot
//! instruct it: text is only ever quoted.

use crate::answer::defuse_markers;
use crate::error::QaError;
use crate::framing;
use crate::generate::{Draft, Emit, Generator};
use crate::lang::{detect, Lang};
use crate::passage::{Passage, SourceKind};
use crate::text::{best_excerpt, content_terms, squash, Excerpt};

/// Composes answers from verbatim quotations.
#[derive(Debug, Clone)]
pub struct Extractive {
    /// Longest quotation of the best passages, in characters.
    pub quote_chars: usize,
    /// Longest quotation of the other passages.
    pub short_quote_chars: usize,
}

impl Default for Extractive {
    fn default() -> Self {
        Extractive {
            quote_chars: 520,
            short_quote_chars: 320,
        }
    }
}

/// How a document is named in the lead (`Leo XIII's Mirae Caritatis (1902)`, `John 6`).
fn short_name(p: &Passage) -> String {
    match p.kind() {
        SourceKind::Scripture => match p.reference.as_deref() {
            Some(r) => match r.rsplit_once(':') {
                Some((chapter, _)) => chapter.to_string(),
                None => r.to_string(),
            },
            None => p.doc_title.clone(),
        },
        _ => {
            let author = p
                .author
                .as_deref()
                .map(str::trim)
                .filter(|a| !a.is_empty() && !p.doc_title.contains(*a));
            match (author, p.year) {
                (Some(a), Some(y)) => format!("{} ({a}, {y})", p.doc_title.trim()),
                (Some(a), None) => format!("{} ({a})", p.doc_title.trim()),
                (None, Some(y)) => format!("{} ({y})", p.doc_title.trim()),
                (None, None) => p.doc_title.trim().to_string(),
            }
        }
    }
}

impl Extractive {
    /// The lead paragraph: which sources were found, in words.
    fn lead(&self, lang: Lang, question: &str, passages: &[Passage]) -> String {
        let mut names: Vec<String> = Vec::new();
        for p in passages {
            let n = short_name(p);
            if !names.contains(&n) {
                names.push(n);
            }
        }
        let more = names.len().saturating_sub(4);
        names.truncate(4);
        let mut list = framing::join_list(lang, &names, "; ");
        if more > 0 {
            list.push_str(&framing::and_more(lang, more));
        }
        let mut kinds: Vec<SourceKind> = passages.iter().map(|p| p.kind()).collect();
        kinds.sort();
        kinds.dedup();
        let kind_words: Vec<String> = kinds
            .iter()
            .map(|k| framing::noun(lang, *k).to_string())
            .collect();
        let kinds = framing::join_list(lang, &kind_words, ", ");
        framing::lead(lang, &squash(question), &kinds, &list)
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
        let terms = content_terms(&crate::translate::english_terms(question));
        let mut text = String::new();
        let mut excerpts: Vec<Option<Excerpt>> = vec![None; passages.len()];
        let mut push = |s: &str, text: &mut String| -> Result<(), QaError> {
            text.push_str(s);
            emit(s)
        };
        if passages.is_empty() {
            push(framing::nothing_found(lang), &mut text)?;
            return Ok(Draft { text, excerpts });
        }
        push(&self.lead(lang, question, passages), &mut text)?;

        // Group by kind of source, in the order of SourceKind; within a group keep retrieval order.
        let mut order: Vec<usize> = (0..passages.len()).collect();
        order.sort_by_key(|&i| (passages[i].kind(), i));
        let mut current: Option<SourceKind> = None;
        for (rank_in_answer, &i) in order.iter().enumerate() {
            let p = &passages[i];
            let kind = p.kind();
            if current != Some(kind) {
                current = Some(kind);
                push(
                    &format!("\n\n**{}**\n", framing::heading(lang, kind)),
                    &mut text,
                )?;
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

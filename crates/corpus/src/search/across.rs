//! The cross-language document list ([`crate::crosslingual`]) beside the
//! others: a question in another language than English gets the documents in
//! Italian, Latin, French, Spanish or Portuguese whose vector is closest.

use super::{Corpus, RankedDoc};
use crate::crosslingual::{CrossLingual, DOC_CHARS};
use crate::fusion::RRF_K;
use crate::lexical::Filters;
use crate::query::normalize::Normalized;
use crate::CorpusError;
use std::sync::Arc;

/// Documents the cross-language list gives.
const ACROSS_DOCS: usize = 10;
/// Its weight in the fusion (the catalogue's is 1.5).
const ACROSS_WEIGHT: f32 = 1.5;

impl Corpus {
    /// Use `x` for questions in other languages than English (its vectors
    /// are built by [`CrossLingual::build`] over [`Self::crosslingual_texts`]).
    pub fn attach_crosslingual(&mut self, x: Arc<CrossLingual>) {
        self.crosslingual = Some(x);
    }

    /// The cross-language index, when attached.
    pub fn crosslingual(&self) -> Option<&Arc<CrossLingual>> {
        self.crosslingual.as_ref()
    }

    /// What the cross-language vectors encode: every document with text in a
    /// language other than English (Bibles aside), as its title and first
    /// passages, at most [`DOC_CHARS`] characters.
    pub fn crosslingual_texts(&self) -> Result<Vec<(u32, String)>, CorpusError> {
        let mut out = Vec::new();
        for (d, e) in self.docs.iter().enumerate() {
            if e.language == "en" || e.metadata_only || e.count == 0 || e.is_bible {
                continue;
            }
            let Some(meta) = self.meta_by_idx(d as u32)? else {
                continue;
            };
            let mut text = meta.title.clone();
            for p in self.passages_in(e.first_ord, e.first_ord + e.count.min(8))? {
                if text.chars().count() >= DOC_CHARS {
                    break;
                }
                text.push('\n');
                text.push_str(&p.text);
            }
            let cut = text
                .char_indices()
                .nth(DOC_CHARS)
                .map_or(text.len(), |(i, _)| i);
            text.truncate(cut);
            out.push((d as u32, text));
        }
        Ok(out)
    }

    /// Add the cross-language list to `docs` (scores summed; new documents
    /// shown with their first passage) for a question not in English.
    pub(super) fn add_across(&self, query: &str, filters: &Filters, docs: &mut Vec<RankedDoc>) {
        let Some(x) = self.crosslingual.as_ref().filter(|x| x.ready()) else {
            return;
        };
        if !crate::query::enabled()
            || crate::query::glossary::looks_english(&Normalized::new(query))
        {
            return;
        }
        for (rank, (d, _)) in x.ranked(query, ACROSS_DOCS).into_iter().enumerate() {
            let e = &self.docs[d as usize];
            if !e.passes(filters) {
                continue;
            }
            let add = ACROSS_WEIGHT / (RRF_K + rank as f32 + 1.0) * self.source_weight(d);
            match docs.iter_mut().find(|x| x.0 == d) {
                Some(x) => x.1 += add,
                None => docs.push((d, add, e.first_ord)),
            }
        }
    }
}

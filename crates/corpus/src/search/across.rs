//! The cross-language document list ([`crate::crosslingual`]) beside the
//! others: a question in another language than English gets the documents in
//! Italian, Latin, French, Spanish or Portuguese whose vector is closest.

use super::{Corpus, RankedDoc};
use crate::crosslingual::{CrossLingual, Unit, DOC_CHARS, PASSAGE_CHARS};
use crate::fusion::RRF_K;
use crate::lexical::Filters;
use crate::query::normalize::Normalized;

/// Words that are English and no word of the other languages served: one of
/// them marks a query as English.
const ENGLISH: &[&str] = &[
    "the", "of", "and", "to", "is", "are", "was", "were", "be", "been", "with", "who", "whom",
    "what", "how", "why", "which", "that", "these", "those", "his", "her", "he", "she", "they",
    "we", "you", "i", "my", "your", "our", "for", "from", "by", "at", "it", "its", "not", "or",
    "but", "when", "where", "there", "their", "them", "him", "has", "have", "had", "do", "does",
    "did", "can", "could", "should", "would", "will", "shall", "am", "here", "into", "about",
    "after", "before", "under", "over", "than", "then", "so", "if", "up", "out", "all", "one",
    "only", "even", "says", "said", "say", "this",
];

/// True when `query` is in another language than English: another script,
/// or Latin letters without any English word.
fn is_foreign(query: &str) -> bool {
    if query
        .chars()
        .any(|c| c.is_alphabetic() && !c.is_ascii() && !is_latin_letter(c))
    {
        return true;
    }
    let n = Normalized::new(query);
    !n.words.is_empty() && !n.words.iter().any(|w| ENGLISH.contains(&w.as_str()))
}

/// Latin letters with accents (`é`, `č`): the script of English too.
fn is_latin_letter(c: char) -> bool {
    matches!(c as u32, 0x00C0..=0x024F | 0x1E00..=0x1EFF)
}
use crate::CorpusError;
use std::sync::Arc;

/// Documents the cross-language list gives.
const ACROSS_DOCS: usize = 10;
/// A passage shorter than this is a heading: not encoded on its own.
const MIN_PASSAGE_CHARS: usize = 200;
/// Its weight in the fusion (the catalogue's too): a document list beside
/// the catalogue's, which finds documents by their title as this finds them by their subject.
const ACROSS_WEIGHT: f32 = 1.0;

impl Corpus {
    /// Use `x` for questions in other languages than English (its vectors
    /// are built by [`CrossLingual::build`] over [`Self::crosslingual_units`]).
    pub fn attach_crosslingual(&mut self, x: Arc<CrossLingual>) {
        self.crosslingual = Some(x);
    }

    /// The cross-language index, when attached.
    pub fn crosslingual(&self) -> Option<&Arc<CrossLingual>> {
        self.crosslingual.as_ref()
    }

    /// What the cross-language vectors encode, and how many of them come
    /// first: every document with text in a language other than English
    /// (Bibles aside) as its head (title and first passages, at most
    /// [`DOC_CHARS`] characters), then each passage of those documents with
    /// its document's title (at most [`PASSAGE_CHARS`]; passages of fewer
    /// than [`MIN_PASSAGE_CHARS`] are headings and are left out).
    pub fn crosslingual_units(&self) -> Result<(Vec<Unit>, usize), CorpusError> {
        let mut heads = Vec::new();
        let mut passages = Vec::new();
        for (d, e) in self.docs.iter().enumerate() {
            if e.language == "en" || e.metadata_only || e.count == 0 || e.is_bible {
                continue;
            }
            let Some(meta) = self.meta_by_idx(d as u32)? else {
                continue;
            };
            let mut head = meta.title.clone();
            let passages_of = self.passages_in(e.first_ord, e.first_ord + e.count)?;
            for (ord, p) in (e.first_ord..).zip(passages_of) {
                if head.chars().count() < DOC_CHARS {
                    head.push('\n');
                    head.push_str(&p.text);
                }
                if p.text.chars().count() >= MIN_PASSAGE_CHARS {
                    passages.push(Unit {
                        doc: d as u32,
                        ord: ord as u32,
                        text: cut(&format!("{}\n{}", meta.title, p.text), PASSAGE_CHARS),
                    });
                }
            }
            heads.push(Unit {
                doc: d as u32,
                ord: e.first_ord as u32,
                text: cut(&head, DOC_CHARS),
            });
        }
        let n = heads.len();
        heads.extend(passages);
        Ok((heads, n))
    }

    /// Add the cross-language list to `docs` (scores summed; new documents
    /// shown with their first passage) for a question not in English
    /// ([`is_foreign`]).
    pub(super) fn add_across(&self, query: &str, filters: &Filters, docs: &mut Vec<RankedDoc>) {
        let Some(x) = self.crosslingual.as_ref().filter(|x| x.ready()) else {
            return;
        };
        if !crate::query::enabled() || !is_foreign(query) {
            return;
        }
        for (rank, (d, ord, _)) in x.ranked(query, ACROSS_DOCS).into_iter().enumerate() {
            let e = &self.docs[d as usize];
            if !e.passes(filters) {
                continue;
            }
            let add = ACROSS_WEIGHT / (RRF_K + rank as f32 + 1.0) * self.source_weight(d);
            match docs.iter_mut().find(|x| x.0 == d) {
                Some(x) => x.1 += add,
                None => docs.push((d, add, u64::from(ord))),
            }
        }
    }
}

/// `text` cut to at most `chars` characters.
fn cut(text: &str, chars: usize) -> String {
    let end = text
        .char_indices()
        .nth(chars)
        .map_or(text.len(), |(i, _)| i);
    text[..end].to_string()
}

#[cfg(test)]
mod tests {
    use super::is_foreign;

    #[test]
    fn tells_english_from_the_other_languages() {
        for q in [
            "Co učí církev o milosti?",
            "教宗的讲话",
            "অনুগ্রহ কী",
            "Pio XI al cardinale Piffl sulle sette",
            "Pius X de sexto decimo saeculo ab edicto Constantini",
        ] {
            assert!(is_foreign(q), "{q}");
        }
        for q in [
            "whom shall I send? here I am, send me",
            "Jerome traveled to Alexandria to study under Didymus",
            "What is grace?",
            "",
        ] {
            assert!(!is_foreign(q), "{q}");
        }
    }
}

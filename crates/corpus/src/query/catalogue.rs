//! Documents ranked by what describes them as a whole: the title, the author
//! and the header line of the Vatican pages ("ENCYCLICAL OF POPE LEO XIII ON
//! THE ROSARY"). The passage lists see a document's subject only where its
//! passages name it; a query that names the subject ("the Rosary of the
//! Blessed Virgin Mary", "Pope Gregory the Great") is better answered by the
//! document that is *about* it. [`Catalogue::rank`] gives that document list,
//! which the search fuses beside the passage lists.
//!
//! A small in-memory BM25 over those fields, built when the store is opened
//! (one row per document; no re-ingest: the header is in `documents.extra`).

use std::collections::HashMap;
use tantivy::tokenizer::{
    AsciiFoldingFilter, Language, LowerCaser, RemoveLongFilter, SimpleTokenizer, Stemmer,
    TextAnalyzer, TokenStream,
};

/// Words that say nothing about a document's subject.
const STOP: &[&str] = &[
    "a",
    "an",
    "the",
    "of",
    "on",
    "in",
    "to",
    "and",
    "or",
    "for",
    "by",
    "with",
    "at",
    "from",
    "as",
    "is",
    "are",
    "was",
    "be",
    "it",
    "its",
    "his",
    "her",
    "their",
    "our",
    "what",
    "which",
    "who",
    "how",
    "why",
    "that",
    "this",
    "about",
    "concerning",
    "s",
];

/// Where the address of a Vatican header begins ("… TO THE PATRIARCHS,
/// PRIMATES …"): what follows names the recipients, not the subject.
const ADDRESS: &[&str] = &[
    " to the patriarchs",
    " to our venerable",
    " to the venerable",
    " to all the patriarchs",
    " to the archbishops",
    " to the bishops",
    " to the hierarchy",
    " to all our venerable",
];

/// Field weights: a title word counts as two header words, an author word as one half.
const TITLE_WEIGHT: f32 = 2.0;
const HEADER_WEIGHT: f32 = 1.0;
const AUTHOR_WEIGHT: f32 = 0.5;
/// BM25 saturation and length normalisation (short fields: little of either).
const K1: f32 = 1.2;
const B: f32 = 0.3;

/// One document's describing fields.
#[derive(Debug, Clone, Default)]
pub struct Entry<'a> {
    /// The title.
    pub title: &'a str,
    /// The author.
    pub author: Option<&'a str>,
    /// The header line, when the source has one.
    pub header: Option<&'a str>,
}

/// The describing fields of every document, indexed.
pub struct Catalogue {
    analyzer: std::sync::Mutex<TextAnalyzer>,
    /// term → (document, weighted term frequency)
    postings: HashMap<String, Vec<(u32, f32)>>,
    /// weighted length per document
    lengths: Vec<f32>,
    avg_len: f32,
}

impl std::fmt::Debug for Catalogue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Catalogue")
            .field("documents", &self.lengths.len())
            .field("terms", &self.postings.len())
            .finish()
    }
}

fn analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(RemoveLongFilter::limit(40))
        .filter(LowerCaser)
        .filter(AsciiFoldingFilter)
        .filter(Stemmer::new(Language::English))
        .build()
}

/// The subject part of a header (the recipients cut off).
fn subject(header: &str) -> String {
    let h = header.to_lowercase();
    let cut = ADDRESS
        .iter()
        .filter_map(|a| h.find(a))
        .min()
        .unwrap_or(h.len());
    h[..cut].to_string()
}

fn tokens(a: &mut TextAnalyzer, text: &str, out: &mut Vec<String>) {
    let mut stream = a.token_stream(text);
    while stream.advance() {
        let t = &stream.token().text;
        // The headers write "St."; people write either.
        if t == "st" {
            out.push("saint".to_string());
        } else if !STOP.contains(&t.as_str()) {
            out.push(t.clone());
        }
    }
}

impl Catalogue {
    /// Index `entries` (document `i` is `entries[i]`).
    pub fn build<'a>(entries: impl IntoIterator<Item = Entry<'a>>) -> Catalogue {
        let mut a = analyzer();
        let mut postings: HashMap<String, Vec<(u32, f32)>> = HashMap::new();
        let mut lengths = Vec::new();
        let mut words = Vec::new();
        for (doc, e) in entries.into_iter().enumerate() {
            let mut tf: HashMap<String, f32> = HashMap::new();
            let mut len = 0.0;
            let header = e.header.map(subject);
            for (text, w) in [
                (Some(e.title), TITLE_WEIGHT),
                (header.as_deref(), HEADER_WEIGHT),
                (e.author, AUTHOR_WEIGHT),
            ] {
                let Some(text) = text else { continue };
                words.clear();
                tokens(&mut a, text, &mut words);
                for t in &words {
                    *tf.entry(t.clone()).or_insert(0.0) += w;
                    len += w;
                }
            }
            for (t, f) in tf {
                postings.entry(t).or_default().push((doc as u32, f));
            }
            lengths.push(len);
        }
        let avg_len = if lengths.is_empty() {
            1.0
        } else {
            (lengths.iter().sum::<f32>() / lengths.len() as f32).max(1.0)
        };
        Catalogue {
            analyzer: std::sync::Mutex::new(a),
            postings,
            lengths,
            avg_len,
        }
    }

    /// Documents whose describing fields match `query`, best first, with the
    /// share of the query's weight they match; only those matching at least
    /// `min_share` of it, at most `n`. A term weighs the geometric mean of its
    /// IDF among these fields and `text_idf`, its IDF in the passages' text
    /// (the same stemmed form): a word rare in titles but common in the texts
    /// ("take", "read") says little about which document is meant.
    pub fn rank(
        &self,
        query: &str,
        n: usize,
        min_share: f32,
        text_idf: impl Fn(&str) -> f32,
    ) -> Vec<(u32, f32)> {
        let mut terms = Vec::new();
        {
            let mut a = self.analyzer.lock().unwrap_or_else(|p| p.into_inner());
            tokens(&mut a, query, &mut terms);
        }
        terms.sort();
        terms.dedup();
        let docs = self.lengths.len() as f32;
        let idf = |t: &str| {
            let df = self.postings.get(t).map_or(0, Vec::len) as f32;
            let own = ((docs - df + 0.5) / (df + 0.5) + 1.0).ln();
            (own * text_idf(t).max(0.0)).sqrt()
        };
        // A term no document has still counts in the query's weight.
        let total: f32 = terms.iter().map(|t| idf(t)).sum();
        if total <= 0.0 {
            return Vec::new();
        }
        let mut acc: HashMap<u32, (f32, f32)> = HashMap::new();
        for t in &terms {
            let Some(list) = self.postings.get(t) else {
                continue;
            };
            let w = idf(t);
            for &(d, f) in list {
                let len = self.lengths[d as usize];
                let s = w * f * (K1 + 1.0) / (f + K1 * (1.0 - B + B * len / self.avg_len));
                let e = acc.entry(d).or_insert((0.0, 0.0));
                e.0 += s;
                e.1 += w;
            }
        }
        let mut out: Vec<(u32, f32, f32)> = acc
            .into_iter()
            .filter(|(_, (_, m))| m / total >= min_share)
            .map(|(d, (s, m))| (d, s, m / total))
            .collect();
        out.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        out.truncate(n);
        out.into_iter().map(|(d, _, share)| (d, share)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Catalogue {
        fn rank_flat(&self, q: &str, n: usize, share: f32) -> Vec<(u32, f32)> {
            self.rank(q, n, share, |_| 5.0)
        }
    }

    fn cat() -> Catalogue {
        Catalogue::build([
            Entry {
                title: "Diuturni Temporis",
                author: Some("Leo XIII"),
                header: Some("DIUTURNI TEMPORIS ENCYCLICAL OF POPE LEO XIII ON THE ROSARY TO THE PATRIARCHS, PRIMATES, ARCHBISHOPS"),
            },
            Entry {
                title: "Editae Saepe",
                author: Some("Pius X"),
                header: Some("EDITAE SAEPE ENCYCLICAL OF POPE PIUS X ON ST. CHARLES BORROMEO TO THE PATRIARCHS"),
            },
            Entry {
                title: "Martyrdom of Polycarp",
                author: Some("Polycarp of Smyrna"),
                header: None,
            },
            Entry {
                title: "Letter 12",
                author: Some("Basil"),
                header: None,
            },
        ])
    }

    #[test]
    fn finds_the_document_about_a_subject() {
        let c = cat();
        assert_eq!(
            c.rank_flat("the Rosary of the Blessed Virgin Mary", 10, 0.1)[0].0,
            0
        );
        assert_eq!(
            c.rank_flat("Saint Charles Borromeo reformer", 10, 0.5)[0].0,
            1
        );
        assert_eq!(
            c.rank_flat("the martyrdom of the bishop of Smyrna", 10, 0.3)[0].0,
            2
        );
        // the address is not the subject
        assert!(c.rank_flat("archbishops", 10, 0.0).is_empty());
        assert!(c.rank_flat("", 10, 0.0).is_empty());
        assert!(c.rank_flat("lasagna recipe", 10, 0.0).is_empty());
    }

    #[test]
    fn share_is_the_matched_weight() {
        let c = cat();
        let r = c.rank_flat("rosary lasagna", 10, 0.0);
        assert_eq!(r.len(), 1);
        assert!(r[0].1 > 0.3 && r[0].1 < 0.7, "{r:?}");
        assert!(c.rank_flat("rosary lasagna", 10, 0.8).is_empty());
    }
}

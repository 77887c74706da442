//! Retrieval for answering: from a question to a small, diverse, ranked set of
//! passages. Direct references (a verse, a named document, a paragraph) are
//! fetched first; then search, widening to the neighbours of strong hits,
//! reranking (fused score, term overlap, authority of the source) and a
//! bounded selection with at most a few passages per document.

use crate::condemned::Condemned;
use crate::error::QaError;
use crate::passage::{Passage, Retriever, SourceKind};
use crate::refs::{named_passages, paragraph_number, verse_refs};
use crate::text::{content_terms, term_overlap};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, HashSet};

/// Bounds of the passage set handed to a generator.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RetrievalConfig {
    /// Most passages in an answer.
    pub max_passages: usize,
    /// Most passages from one document.
    pub per_document: usize,
    /// Most passages by one author (keeps one prolific author from filling the answer).
    pub per_author: usize,
    /// Most passages of one kind of source (directly named passages aside).
    pub per_kind: usize,
    /// How many search hits to consider.
    pub candidates: usize,
    /// How many of the best hits are widened with their neighbours.
    pub widen_top: usize,
    /// A passage scoring below this fraction of the best is dropped (once
    /// `min_passages` are chosen).
    pub min_relative: f32,
    /// Passages kept regardless of `min_relative` when available.
    pub min_passages: usize,
}

impl Default for RetrievalConfig {
    fn default() -> Self {
        RetrievalConfig {
            max_passages: 7,
            per_document: 2,
            per_author: 2,
            per_kind: 4,
            candidates: 30,
            widen_top: 3,
            min_relative: 0.45,
            min_passages: 3,
        }
    }
}

#[derive(Debug, Clone)]
struct Candidate {
    passage: Passage,
    score: f32,
    pinned: bool,
}

/// Weight of the source's authority in the rerank: the Magisterium and the
/// catechism before Scripture-as-retrieved, the Fathers, then commentary.
fn authority(kind: SourceKind) -> f32 {
    match kind {
        SourceKind::Magisterium => 0.10,
        SourceKind::Catechism => 0.10,
        SourceKind::Scripture => 0.07,
        SourceKind::Fathers => 0.03,
        SourceKind::Theology => 0.03,
        SourceKind::Commentary => 0.0,
        SourceKind::Other => 0.0,
    }
}

/// What a passage is matched on: its document's title and author, its heading and text.
fn haystack(p: &Passage) -> String {
    format!(
        "{} {} {} {}",
        p.doc_title,
        p.author.as_deref().unwrap_or(""),
        p.heading.as_deref().unwrap_or(""),
        p.text
    )
}

/// What the reranker compares passages with: the question's content terms
/// and the terms of its subject (`grace` in "What does the Church teach
/// about grace?").
struct Rerank {
    terms: BTreeSet<String>,
    topic: BTreeSet<String>,
    about_prayer: bool,
}

impl Rerank {
    fn new(question: &str, search: &str) -> Self {
        let topic_en = crate::translate::english_terms(&topic_phrase(question));
        let topic = content_terms(&topic_en);
        Rerank {
            terms: content_terms(search),
            topic,
            about_prayer: terms_mention_prayer(search),
        }
    }

    fn score(&self, norm: f32, p: &Passage) -> f32 {
        let overlap = term_overlap(&self.terms, &haystack(p));
        let len = p.text.chars().count();
        let shortness = if len < 60 {
            0.25
        } else if len < 120 {
            0.08
        } else {
            0.0
        };
        let machine = if p.machine_translated { 0.05 } else { 0.0 };
        0.5 * norm + 0.45 * overlap + authority(p.kind()) - shortness - machine
            + part_weight(p)
            + self.asked(p)
            + condemned_weight(p)
            - self.prayer_text(p)
    }

    /// A catechism answer to the question asked: its own question has the
    /// same subject ("What do you mean by grace?" for "What does the Church
    /// teach about grace?").
    fn asked(&self, p: &Passage) -> f32 {
        if self.topic.is_empty() {
            return 0.0;
        }
        let Some(q) = catechism_question(&p.text) else {
            return 0.0;
        };
        let theirs = content_terms(&topic_phrase(q));
        if theirs.is_empty() {
            return 0.0;
        }
        let shared = theirs.intersection(&self.topic).count() as f32;
        let precision = shared / theirs.len() as f32;
        let recall = shared / self.topic.len() as f32;
        if precision >= 1.0 && recall >= 1.0 {
            0.35
        } else {
            0.15 * precision * recall
        }
    }

    /// The prayers printed before and after a catechism's questions ("Grace
    /// before meals") answer no doctrinal question.
    fn prayer_text(&self, p: &Passage) -> f32 {
        let r = p.reference.as_deref().unwrap_or("");
        if !self.about_prayer
            && p.kind() == SourceKind::Catechism
            && (r.starts_with("intro") || r.starts_with("appendix"))
        {
            0.2
        } else {
            0.0
        }
    }
}

fn terms_mention_prayer(search: &str) -> bool {
    let l = search.to_lowercase();
    [
        "pray",
        "prayer",
        "meal",
        "before meals",
        "after meals",
        "act of",
    ]
    .iter()
    .any(|w| l.contains(w))
}

/// The question a catechism passage answers: `"103 Q. What do you mean by
/// grace? A. …"` → `"What do you mean by grace?"`.
fn catechism_question(text: &str) -> Option<&str> {
    let cut = text.char_indices().nth(300).map_or(text.len(), |(i, _)| i);
    let head = &text[..cut];
    let start = head.find("Q.")? + 2;
    let rest = &head[start..];
    let end = rest.find('?')? + 1;
    let q = rest[..end].trim();
    // Baltimore No. 3 numbers the council's questions in braces: "{146} What is …?"
    let q = match q.strip_prefix('{') {
        Some(r) => r.split_once('}').map(|(_, q)| q.trim()).unwrap_or(q),
        None => q,
    };
    (!q.is_empty()).then_some(q)
}

/// Passages that state an error to condemn it are not quoted as teaching
/// (objections are weighed by [`part_weight`]).
fn condemned_weight(p: &Passage) -> f32 {
    match crate::condemned::label(p) {
        Some(Condemned::Exposition | Condemned::Proposition) => -0.6,
        Some(Condemned::Objection) | None => 0.0,
    }
}

/// Scholastic articles: an objection argues the position the article
/// rejects, so it is never a good quotation on its own; the body and the
/// sed contra are the answer.
fn part_weight(p: &Passage) -> f32 {
    let Some(r) = p.reference.as_deref() else {
        return 0.0;
    };
    let r = r.to_ascii_lowercase();
    if r.contains("obj.") {
        -0.35
    } else if r.ends_with(" co.") || r.ends_with(", co.") {
        0.05
    } else {
        0.0
    }
}

/// The passages to answer `question` from, best first (searched with the
/// question and the glossary's English renderings of its terms).
pub fn gather(
    retriever: &dyn Retriever,
    question: &str,
    cfg: &RetrievalConfig,
) -> Result<Vec<Passage>, QaError> {
    let search = crate::translate::english_terms(question);
    gather_with(retriever, question, &search, cfg)
}

/// [`gather`] with the text to search given: the question with English
/// renderings ([`crate::search_text`]).
pub fn gather_with(
    retriever: &dyn Retriever,
    question: &str,
    search: &str,
    cfg: &RetrievalConfig,
) -> Result<Vec<Passage>, QaError> {
    let mut rr = Rerank::new(question, search);
    let mut cands: Vec<Candidate> = Vec::new();

    // 1. Direct references: verses, named documents and their paragraphs.
    let mut verses = verse_refs(question);
    if verses.is_empty() {
        verses = named_passages(question);
    }
    let mut verse_text = String::new();
    for vref in verses.iter().take(3) {
        for r in vref.verse_references(4) {
            for p in retriever.by_reference(&r, None)? {
                if p.kind() == SourceKind::Scripture && verse_text.chars().count() < 300 {
                    verse_text.push(' ');
                    verse_text.push_str(&p.text);
                }
                cands.push(Candidate {
                    score: 2.0 + rr.score(1.0, &p),
                    passage: p,
                    pinned: true,
                });
            }
        }
    }
    // A question about a verse is searched with the verse's words instead of
    // its numbers ("6:51" matches every footnote 51 in the corpus).
    let query = if verses.is_empty() {
        search.to_string()
    } else {
        let words: Vec<String> = crate::text::words(search)
            .into_iter()
            .filter(|w| !w.chars().all(|c| c.is_ascii_digit()))
            .collect();
        let q = format!("{} {}", words.join(" "), verse_text.trim());
        rr = Rerank::new(question, &q);
        q
    };
    let named = retriever.documents_named_in(question)?;
    let para = paragraph_number(question);
    for (doc_id, title) in named.iter().take(2) {
        if let Some(n) = &para {
            for p in retriever.by_reference(n, Some(doc_id))? {
                cands.push(Candidate {
                    score: 3.0,
                    passage: p,
                    pinned: true,
                });
            }
        }
        // Search the document for the rest of the question (without its title).
        let rest = question.to_lowercase().replace(&title.to_lowercase(), " ");
        let q = if content_terms(&rest).is_empty() {
            title.clone()
        } else {
            rest
        };
        let hits = retriever.search_in_document(doc_id, &q, 4)?;
        let top = hits
            .first()
            .map(|h| h.score)
            .filter(|s| *s > 0.0)
            .unwrap_or(1.0);
        for p in hits {
            let norm = (p.score / top).clamp(0.0, 1.0);
            cands.push(Candidate {
                score: 1.0 + rr.score(norm, &p),
                passage: p,
                pinned: true,
            });
        }
    }

    // 2. Search. A question with a generic opening ("What does the Church
    // teach about grace?") weighs its subject twice: "Church" and "teach"
    // otherwise find the catechism on who can be saved and grace at meals.
    let subject = crate::translate::english_terms(&topic_phrase(question));
    let query = if verses.is_empty() && subject.trim() != question.trim() {
        format!("{subject} {query}")
    } else {
        query
    };
    let hits = retriever.search(&query, cfg.candidates)?;
    let top = hits.first().map(|h| h.score).filter(|s| *s > 0.0);
    let n_hits = hits.len().max(1) as f32;
    let mut widened = Vec::new();
    for (rank, p) in hits.into_iter().enumerate() {
        // Normalise by the best score when scores are meaningful, else by rank.
        let norm = match top {
            Some(t) => (p.score / t).clamp(0.0, 1.0),
            None => 1.0 - rank as f32 / n_hits,
        };
        if rank < cfg.widen_top && norm >= 0.6 {
            widened.push((p.clone(), norm));
        }
        let score = rr.score(norm, &p);
        cands.push(Candidate {
            passage: p,
            score,
            pinned: false,
        });
    }

    // 2b. The Magisterium and Scripture on their own, so that they compete
    // even when commentary dominates the general hits.
    // Scripture only when no verse was named (a named verse is already there),
    // and weighted low: short verses match names and single words too easily.
    let named_verse = !verses.is_empty();
    let mut passes = vec![(SourceKind::Magisterium, 10, 0.9)];
    if !named_verse {
        passes.push((SourceKind::Scripture, 3, 0.55));
    }
    for (kind, k, weight) in passes {
        let hits = retriever.search_kind(&query, kind, k)?;
        let top = hits.first().map(|h| h.score).filter(|s| *s > 0.0);
        for (rank, p) in hits.into_iter().enumerate() {
            // A passage found only by a kind pass must share much of the question:
            // most of it for a verse, a third for a document of the Magisterium.
            let floor = if kind == SourceKind::Scripture {
                0.6
            } else {
                0.34
            };
            if term_overlap(&rr.terms, &haystack(&p)) < floor {
                continue;
            }
            let norm = match top {
                Some(t) => weight * (p.score / t).clamp(0.0, 1.0),
                None => weight * (1.0 - rank as f32 / k as f32),
            };
            let score = rr.score(norm, &p);
            cands.push(Candidate {
                passage: p,
                score,
                pinned: false,
            });
        }
    }

    // 2c. The catechism's own question on the subject ("What is grace?"),
    // which the rerank lifts when its subject is the one asked about.
    if verses.is_empty() && !rr.topic.is_empty() {
        let q = format!("What is {subject}? {subject}");
        for p in retriever.search_kind(&q, SourceKind::Catechism, 8)? {
            if rr.asked(&p) <= 0.0 {
                continue;
            }
            let score = rr.score(0.6, &p);
            cands.push(Candidate {
                passage: p,
                score,
                pinned: false,
            });
        }
    }

    // 3. Widen strong hits with their neighbours (context often sits next door).
    for (p, norm) in widened {
        for n in retriever.neighbours(&p, 1)? {
            let score = rr.score(norm * 0.5, &n);
            cands.push(Candidate {
                passage: n,
                score,
                pinned: false,
            });
        }
    }

    // With a named verse, other verses found by search are mostly noise.
    if named_verse {
        for c in cands.iter_mut() {
            if !c.pinned && c.passage.kind() == SourceKind::Scripture {
                c.score -= 0.3;
            }
        }
    }
    Ok(select(cands, cfg))
}

/// Pick a bounded, diverse set: best first, de-duplicated, at most
/// `per_document` per document, dropping weak tails.
fn select(mut cands: Vec<Candidate>, cfg: &RetrievalConfig) -> Vec<Passage> {
    cands.sort_by(|a, b| b.score.total_cmp(&a.score));
    let mut seen: HashSet<String> = HashSet::new();
    let mut seen_text: HashSet<String> = HashSet::new();
    let mut seen_verse: HashSet<String> = HashSet::new();
    let mut per_doc: std::collections::HashMap<String, usize> = Default::default();
    let mut per_author: std::collections::HashMap<String, usize> = Default::default();
    let mut per_kind: std::collections::HashMap<SourceKind, usize> = Default::default();
    let best = cands
        .iter()
        .find(|c| !c.pinned)
        .map(|c| c.score)
        .unwrap_or(0.0);
    let mut out: Vec<Passage> = Vec::new();
    for c in cands {
        if out.len() >= cfg.max_passages {
            break;
        }
        if c.passage.text.trim().is_empty() {
            continue;
        }
        if !c.pinned && out.len() >= cfg.min_passages && c.score < best * cfg.min_relative {
            break;
        }
        if !seen.insert(c.passage.key()) {
            continue;
        }
        let text_key: String = crate::text::squash(&c.passage.text)
            .chars()
            .take(120)
            .collect();
        if !seen_text.insert(text_key) {
            continue;
        }
        // The same verse in a second translation adds nothing.
        if c.passage.kind() == SourceKind::Scripture {
            if let Some(r) = &c.passage.reference {
                if !seen_verse.insert(r.to_lowercase()) {
                    continue;
                }
            }
        }
        let n = per_doc.get(&c.passage.doc_id).copied().unwrap_or(0);
        if n >= cfg.per_document {
            continue;
        }
        let kind = c.passage.kind();
        let nk = per_kind.get(&kind).copied().unwrap_or(0);
        if !c.pinned && nk >= cfg.per_kind {
            continue;
        }
        let author = c.passage.author.clone().unwrap_or_default().to_lowercase();
        let a = if author.is_empty() {
            0
        } else {
            per_author.get(&author).copied().unwrap_or(0)
        };
        if a >= cfg.per_author {
            continue;
        }
        per_doc.insert(c.passage.doc_id.clone(), n + 1);
        per_kind.insert(kind, nk + 1);
        if !author.is_empty() {
            per_author.insert(author, a + 1);
        }
        out.push(c.passage);
    }
    out
}

/// The subject of a question, for sentences like "the sources on …":
/// the question without its interrogative opening and final mark.
pub fn topic_phrase(question: &str) -> String {
    let q = crate::text::squash(question);
    let q = q.trim().trim_end_matches(['?', '.', '!']).trim();
    let lower = q.to_lowercase();
    const OPENINGS: &[&str] = &[
        "what does the catholic church teach about ",
        "what does the church teach about ",
        "what does the church say about ",
        "what does the bible say about ",
        "what does scripture say about ",
        "what do the church fathers say about ",
        "what do the fathers say about ",
        "what do catholics believe about ",
        "what is the church's teaching on ",
        "what is the catholic teaching on ",
        "what is the teaching of the church on ",
        "is it a sin to ",
        "why do catholics ",
        "how do catholics ",
        "what is meant by ",
        "what do you mean by ",
        "what do we mean by ",
        "what is the meaning of ",
        "what are the ",
        "what is the ",
        "what is a ",
        "what is an ",
        "what is ",
        "what are ",
        "who is ",
        "who was ",
        "who were ",
        "why is ",
        "why are ",
        "how is ",
        "how are ",
        "how should ",
        "how can ",
        "what does ",
        "tell me about ",
        "explain ",
    ];
    let mut topic = q.to_string();
    for o in OPENINGS {
        if lower.starts_with(o) && q.len() > o.len() {
            topic = q[o.len()..].trim().to_string();
            break;
        }
    }
    for tail in [" mean", " say", " teach", " signify", " really mean"] {
        if topic.len() > tail.len() + 2 && topic.to_lowercase().ends_with(tail) {
            topic.truncate(topic.len() - tail.len());
        }
    }
    topic
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn topics() {
        assert_eq!(
            topic_phrase("What does the Church teach about purgatory?"),
            "purgatory"
        );
        assert_eq!(topic_phrase("What is the Eucharist?"), "Eucharist");
        assert_eq!(topic_phrase("Is it a sin to lie?"), "lie");
        assert_eq!(topic_phrase("grace"), "grace");
        assert_eq!(topic_phrase("What does John 6:51 mean?"), "John 6:51");
    }
}

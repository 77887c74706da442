//! Sentence choice for extractive answers: the sentences of the passages that
//! answer the question, scored by how much of the question's subject they
//! carry (rarer words weigh more), with the direct answers first: a
//! catechism's answer to the same question, or a definition of the subject.
//! Headings, tables of contents and fragments are never chosen.

use crate::passage::{Passage, SourceKind};
use crate::text::{content_terms, sentence_spans, stem, words};
use std::collections::{BTreeMap, BTreeSet};

/// One sentence of one passage, by byte range.
#[derive(Debug, Clone)]
pub struct Sentence {
    /// Index of the passage in the answer's passage list.
    pub passage: usize,
    /// Byte range in the passage text.
    pub start: usize,
    /// End of the byte range.
    pub end: usize,
    /// Relevance to the question, 0–1 and bonuses.
    pub score: f32,
    /// The passage answers this very question (a catechism's answer) or defines its subject.
    pub direct: bool,
    /// Content terms (for redundancy checks).
    pub terms: BTreeSet<String>,
}

/// True when `s` reads as running text: not a heading, a title page, a table
/// of contents or a fragment.
pub fn readable(s: &str) -> bool {
    let n_words = s.split_whitespace().count();
    if !(6..=70).contains(&n_words) || s.ends_with(':') || s.ends_with('?') {
        return false;
    }
    let letters = s.chars().filter(|c| c.is_alphabetic()).count();
    let chars = s.chars().filter(|c| !c.is_whitespace()).count().max(1);
    if letters * 10 < chars * 7 {
        return false;
    }
    if s.contains("....") || s.contains(". . .") || s.contains("\u{2026}\u{2026}") {
        return false;
    }
    let lowercase = s.chars().filter(|c| c.is_lowercase()).count();
    if lowercase * 2 < letters {
        return false;
    }
    let capitalised = s
        .split_whitespace()
        .filter(|w| w.chars().next().is_some_and(char::is_uppercase))
        .count();
    // Title case without a full stop: a heading or a line of a table of contents.
    if n_words >= 5 && capitalised * 10 > n_words * 6 && !s.ends_with(['.', '!']) {
        return false;
    }
    if s.chars()
        .find(|c| c.is_alphabetic())
        .is_some_and(char::is_lowercase)
    {
        return false;
    }
    if s.matches('(').count() != s.matches(')').count()
        || s.matches('[').count() != s.matches(']').count()
        || s.matches('"').count() % 2 == 1
        || s.matches('\u{201c}').count() != s.matches('\u{201d}').count()
    {
        return false;
    }
    let shouted = s
        .split_whitespace()
        .take(3)
        .filter(|w| {
            w.chars().filter(|c| c.is_alphabetic()).count() >= 2
                && !w.chars().any(char::is_lowercase)
        })
        .count();
    if shouted >= 2 {
        return false;
    }
    let first = s.split_whitespace().next().unwrap_or("").to_lowercase();
    ![
        "chapter", "book", "part", "section", "article", "question", "contents", "preface", "q.",
    ]
    .contains(&first.trim_end_matches(['.', ':']))
}

/// Sentence spans of `text`, a clause ending in `;` or `:` joined to what follows.
fn spans(text: &str) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    for (a, b) in sentence_spans(text) {
        match out.last_mut() {
            Some(last)
                if text[last.0..last.1].ends_with([';', ':', ','])
                    || ends_in_abbreviation(&text[last.0..last.1]) =>
            {
                last.1 = b
            }
            _ => out.push((a, b)),
        }
    }
    out
}

/// True when `s` ends in an abbreviation (`viz.`, `q.`, `Ps.`, `St.`): the
/// sentence goes on.
fn ends_in_abbreviation(s: &str) -> bool {
    const ABBREVIATIONS: &[&str] = &[
        "viz.", "i.e.", "e.g.", "q.", "a.", "cf.", "ps.", "st.", "ch.", "art.", "obj.", "vol.",
        "p.", "pp.", "ibid.", "op.", "cit.", "lib.", "cap.", "serm.", "ep.", "confess.", "hom.",
        "ver.", "v.", "vv.", "n.", "no.", "mt.", "mk.", "lk.", "jn.", "rom.", "cor.", "gal.",
        "eph.", "gen.", "ex.", "is.", "jer.", "ez.", "dan.", "heb.", "apoc.", "rev.", "mr.", "dr.",
        "ss.", "sts.",
    ];
    let last = s.split_whitespace().last().unwrap_or("");
    // "A." and "Q." open a catechism's answer and question; "a." is an article of the Summa.
    if last.len() == 2 && last.starts_with(|c: char| c.is_ascii_uppercase()) {
        return false;
    }
    let last = last.to_lowercase();
    ABBREVIATIONS.contains(&last.trim_start_matches(['(', '"', '\u{201c}']))
}

/// The question's subject terms with their weights (rarer among the
/// candidate sentences weighs more; the topic phrase's terms count double).
fn weights(
    question_terms: &[String],
    subject: &BTreeSet<String>,
    all: &[BTreeSet<String>],
) -> BTreeMap<String, f32> {
    let n = all.len().max(1) as f32;
    question_terms
        .iter()
        .map(|t| {
            let df = all.iter().filter(|s| s.contains(t)).count() as f32;
            let rare = 1.0 + (n / (1.0 + df)).ln().max(0.0);
            let w = if subject.contains(t) {
                2.0 * rare
            } else {
                rare
            };
            (t.clone(), w)
        })
        .collect()
}

/// The question's terms: English renderings included, generic words left out.
pub fn question_terms(search: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for w in words(search) {
        if crate::text::QUESTION_WORDS.contains(&w.as_str()) {
            continue;
        }
        if content_terms(&w).is_empty() {
            continue;
        }
        let s = stem(&w);
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

/// Split `text` at the `Q.`/`A.` marks of a catechism: the question asked
/// just before a sentence, when there is one.
fn asked_before(text: &str, start: usize) -> Option<&str> {
    let head = &text[..start];
    let a = head.rfind("A.")?;
    let q = head[..a].rfind('?')?;
    let begin = head[..q].rfind(['.', '\n']).map_or(0, |i| i + 1);
    Some(head[begin..=q].trim())
}

/// Every readable sentence of `passages`, scored for `search` (the question
/// with its English renderings) and `subject` (its topic phrase).
pub fn score(passages: &[Passage], search: &str, subject: &str) -> Vec<Sentence> {
    let q_terms = question_terms(search);
    let subject_terms: BTreeSet<String> = question_terms(subject).into_iter().collect();
    let q_set: BTreeSet<String> = q_terms.iter().cloned().collect();
    let mut raw: Vec<Sentence> = Vec::new();
    for (i, p) in passages.iter().enumerate() {
        // Footnotes are references, not teaching.
        if p.reference
            .as_deref()
            .is_some_and(|r| r.starts_with("note"))
        {
            continue;
        }
        for (start, end) in spans(&p.text) {
            let s = &p.text[start..end];
            if !readable(s) {
                continue;
            }
            raw.push(Sentence {
                passage: i,
                start,
                end,
                score: 0.0,
                direct: false,
                terms: content_terms(s),
            });
        }
    }
    let all: Vec<BTreeSet<String>> = raw.iter().map(|s| s.terms.clone()).collect();
    // A question that names an author or a work ("What does Augustine say…")
    // is answered by that author's sentences, whatever words they use.
    let by_passage: Vec<BTreeSet<String>> = passages
        .iter()
        .map(|p| {
            let mut t = content_terms(&p.doc_title);
            t.extend(content_terms(p.author.as_deref().unwrap_or("")));
            t
        })
        .collect();
    // How many passages carry each term: a catechism question's extra words
    // that no other passage shares are another subject ("grace at meals").
    let passage_df = |t: &String| {
        passages
            .iter()
            .filter(|p| content_terms(&p.text).contains(t))
            .count()
    };
    let w = weights(&q_terms, &subject_terms, &all);
    let total: f32 = w.values().sum::<f32>().max(f32::EPSILON);
    for s in raw.iter_mut() {
        let p = &passages[s.passage];
        let text = &p.text[s.start..s.end];
        let hit: f32 = w
            .iter()
            .filter(|(t, _)| s.terms.contains(*t) || by_passage[s.passage].contains(*t))
            .map(|(_, v)| v)
            .sum();
        let mut score = hit / total;
        // A catechism's answer to this very question, or to a narrower one.
        let asked = if p.kind() == SourceKind::Catechism {
            asked_before(&p.text, s.start)
        } else {
            None
        };
        if let Some(asked) = asked {
            let asked_terms: BTreeSet<String> = question_terms(asked).into_iter().collect();
            let common = asked_terms.intersection(&q_set).count() as f32;
            let union = asked_terms.union(&q_set).count().max(1) as f32;
            let jaccard = common / union;
            let off_subject = asked_terms.difference(&q_set).any(|t| passage_df(t) <= 1);
            if off_subject {
                score *= 0.3;
            } else if jaccard >= 0.6 {
                score += 0.6 * jaccard;
                s.direct = true;
            } else {
                score *= 0.5 + 0.5 * jaccard;
            }
        } else if defines(text, &subject_terms) {
            score += 0.3;
            s.direct = true;
        }
        // Earlier passages were ranked better by retrieval.
        score += 0.4 / (1.0 + s.passage as f32);
        let n_words = text.split_whitespace().count() as f32;
        score *= 1.0 - (0.004 * (n_words - 45.0).max(0.0)).min(0.4);
        s.score = score;
    }
    raw
}

/// `"Grace is …"`, `"Baptism is …"`: a sentence that opens with the subject and "is".
fn defines(text: &str, subject: &BTreeSet<String>) -> bool {
    if subject.is_empty() {
        return false;
    }
    let ws: Vec<String> = words(text).into_iter().take(6).collect();
    let Some(is) = ws
        .iter()
        .position(|w| ["is", "are", "means", "consists"].contains(&w.as_str()))
    else {
        return false;
    };
    is > 0 && ws[..is].iter().any(|w| subject.contains(&stem(w)))
}

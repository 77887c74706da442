//! Composing the extractive answer from the chosen sentences: the direct
//! answer first, then the rest in paragraphs by the hierarchy of sources,
//! each quotation introduced by its speaker and marked `[n]`.

use super::intro;
use super::sentences::{score, Sentence};
use crate::answer::defuse_markers;
use crate::lang::{detect, Lang};
use crate::passage::{Passage, SourceKind};
use crate::text::{squash, Excerpt};

/// The composed answer and, per passage, the excerpt it quotes.
pub struct Composed {
    /// The answer with `[n]` markers (1-based passage numbers).
    pub text: String,
    /// The quoted span of each passage (`None` where a passage is not quoted).
    pub excerpts: Vec<Option<Excerpt>>,
}

/// Most sentences from one passage (they must follow each other).
const PER_PASSAGE: usize = 2;
/// Most sentences in an answer.
const MAX_SENTENCES: usize = 9;

/// The paragraph a kind of source goes in, in the order of the hierarchy of sources.
fn paragraph_of(kind: SourceKind) -> usize {
    match kind {
        SourceKind::Scripture => 0,
        SourceKind::Magisterium | SourceKind::Catechism => 1,
        SourceKind::Fathers | SourceKind::Theology => 2,
        SourceKind::Commentary | SourceKind::Other => 3,
    }
}

fn n_words(p: &[Passage], s: &Sentence) -> usize {
    p[s.passage].text[s.start..s.end].split_whitespace().count()
}

/// True when `a` and `b` follow each other in their passage (only spaces between).
fn adjacent(text: &str, a: &Sentence, b: &Sentence) -> bool {
    let (x, y) = if a.start < b.start { (a, b) } else { (b, a) };
    y.start >= x.end && text[x.end..y.start].trim().is_empty()
}

fn redundant(a: &Sentence, b: &Sentence) -> bool {
    let common = a.terms.intersection(&b.terms).count() as f32;
    let smaller = a.terms.len().min(b.terms.len()).max(1) as f32;
    common / smaller > 0.7
}

/// Choose the sentences: the opening (a direct answer when a source gives
/// one), then the best sentence of each further passage in retrieval order
/// (so that every source that speaks to the question is heard), then second
/// sentences where the budget allows. `strict`: only sentences that share a
/// word with the question (off for questions whose words the glossary could
/// not render in English, where retrieval's order is the better guide).
fn choose(
    passages: &[Passage],
    ranked: &[Sentence],
    max_words: usize,
    strict: bool,
) -> Vec<Sentence> {
    let Some(top) = ranked.first() else {
        return Vec::new();
    };
    let best = top.score.max(f32::EPSILON);
    let opening = ranked
        .iter()
        .filter(|s| s.direct && s.score >= 0.6 * best)
        .max_by(|a, b| a.score.total_cmp(&b.score))
        .unwrap_or(top)
        .clone();
    let mut words = n_words(passages, &opening);
    let mut chosen = vec![opening];
    let relevant = |s: &Sentence, floor: f32| {
        !strict || s.score >= floor * best && s.score > 0.4 / (1.0 + s.passage as f32) + 0.01
    };
    // Breadth: one sentence from each passage that has a relevant one.
    for p in 0..passages.len() {
        if chosen.len() >= MAX_SENTENCES || chosen.iter().any(|c| c.passage == p) {
            continue;
        }
        let Some(s) = ranked
            .iter()
            .filter(|s| s.passage == p && relevant(s, 0.2))
            .find(|s| !chosen.iter().any(|c| redundant(c, s)))
        else {
            continue;
        };
        let w = n_words(passages, s);
        if words + w > max_words + 60 {
            continue;
        }
        words += w;
        chosen.push(s.clone());
    }
    // Depth: the next sentence of a passage already quoted, while under the budget.
    for s in ranked {
        if words >= max_words || chosen.len() >= MAX_SENTENCES {
            break;
        }
        if !relevant(s, 0.45)
            || chosen
                .iter()
                .any(|c| c.passage == s.passage && c.start == s.start)
        {
            continue;
        }
        let same: Vec<&Sentence> = chosen.iter().filter(|c| c.passage == s.passage).collect();
        let text = &passages[s.passage].text;
        if same.is_empty()
            || same.len() >= PER_PASSAGE
            || same.iter().any(|c| !adjacent(text, c, s))
        {
            continue;
        }
        if chosen.iter().any(|c| redundant(c, s)) {
            continue;
        }
        let w = n_words(passages, s);
        if words + w > max_words + 40 {
            continue;
        }
        words += w;
        chosen.push(s.clone());
    }
    chosen
}

/// Compose the answer to `question` from `passages`.
pub fn compose(question: &str, passages: &[Passage], max_words: usize) -> Composed {
    let lang = detect(question);
    let search = crate::translate::english_terms(question);
    let subject = crate::translate::english_terms(&crate::retrieve::topic_phrase(question));
    let mut ranked = score(passages, &search, &subject);
    ranked.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.passage.cmp(&b.passage)));
    // Words the glossary could not render leave the sentence scores blind.
    let strict = lang == Lang::En || search.trim() != question.trim();
    let chosen = choose(passages, &ranked, max_words, strict);
    let mut excerpts: Vec<Option<Excerpt>> = vec![None; passages.len()];
    if chosen.is_empty() {
        return Composed {
            text: String::new(),
            excerpts,
        };
    }
    // Quoted blocks: a passage's chosen sentences (adjacent) make one quotation.
    let mut blocks: Vec<(usize, usize, usize)> = Vec::new(); // (passage, start, end)
    for s in &chosen {
        match blocks.iter_mut().find(|b| b.0 == s.passage) {
            Some(b) => {
                b.1 = b.1.min(s.start);
                b.2 = b.2.max(s.end);
            }
            None => blocks.push((s.passage, s.start, s.end)),
        }
    }
    let opening = blocks.remove(0);
    blocks.sort_by_key(|b| (paragraph_of(passages[b.0].kind()), b.0, b.1));
    let mut paragraphs: Vec<String> = Vec::new();
    let mut introduced: Vec<String> = Vec::new();
    let mut quote = |b: &(usize, usize, usize), introduced: &mut Vec<String>| -> String {
        let p = &passages[b.0];
        let text = &p.text[b.1..b.2];
        excerpts[b.0] = Some(Excerpt {
            start: b.1,
            end: b.2,
            text: text.to_string(),
        });
        let who = intro::speaker(p);
        let lead = if introduced.contains(&who) {
            intro::again(lang, p)
        } else {
            introduced.push(who);
            intro::first(lang, p)
        };
        let (open, close) = quotes(lang);
        format!(
            "{lead} {open}{}{close} [{}]",
            defuse_markers(&squash(text)),
            b.0 + 1
        )
    };
    paragraphs.push(quote(&opening, &mut introduced));
    let mut current: Option<usize> = None;
    for b in &blocks {
        let para = paragraph_of(passages[b.0].kind());
        let q = quote(b, &mut introduced);
        if current == Some(para) {
            if let Some(last) = paragraphs.last_mut() {
                last.push(' ');
                last.push_str(&q);
            }
        } else {
            current = Some(para);
            paragraphs.push(q);
        }
    }
    Composed {
        text: paragraphs.join("\n\n"),
        excerpts,
    }
}

fn quotes(lang: Lang) -> (&'static str, &'static str) {
    match lang {
        Lang::It | Lang::Es | Lang::Pt => ("\u{ab}", "\u{bb}"),
        Lang::Fr => ("\u{ab}\u{a0}", "\u{a0}\u{bb}"),
        Lang::Cs => ("\u{201e}", "\u{201c}"),
        Lang::Zh => ("\u{201c}", "\u{201d}"),
        _ => ("\u{201c}", "\u{201d}"),
    }
}

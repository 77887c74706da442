//! Word order and nearness: a remembered line ("take up and read", "love and
//! do what you will") is a handful of common words, and bag-of-words BM25
//! ranks any passage that has them anywhere. Each pair of neighbouring query
//! words (and their archaic wordings: `you` → `thou`) is also asked for as a
//! sloppy phrase, so a passage with the words side by side, as in the line
//! itself, ranks above one that has them scattered (the ordered-window part
//! of the sequential dependence model).

use super::archaic;
use super::normalize::Normalized;
use tantivy::query::{BooleanQuery, BoostQuery, Occur, PhraseQuery, Query};
use tantivy::schema::Field;
use tantivy::{Index, Term};

/// Words of a query looked at (the rest are ignored: long queries are
/// topics, not remembered lines).
const MAX_WORDS: usize = 24;
/// Wordings of one word tried (the word first, then its archaic forms).
const MAX_WORDINGS: usize = 3;
/// Positions a pair's second word may move from where the query puts it
/// ("what has Athens" matches "what indeed has Athens").
const SLOP: u32 = 2;

/// Two neighbouring query words and their wordings; `gap` is how many
/// positions apart the query has them (stop words between them count).
#[derive(Debug, Clone, PartialEq)]
pub struct Pair {
    /// Wordings of the first word (the word itself first).
    pub first: Vec<String>,
    /// Wordings of the second word.
    pub second: Vec<String>,
    /// Positions between them in the query (1 for adjacent words).
    pub gap: usize,
}

fn wordings(w: &str) -> Vec<String> {
    let mut out = vec![w.to_string()];
    out.extend(archaic::word_variants(w));
    out.truncate(MAX_WORDINGS);
    out
}

/// The neighbouring pairs of `q`'s words, leaving out words for which
/// `keep` is false (stop words of the field they are looked up in).
pub fn pairs(q: &str, mut keep: impl FnMut(&str) -> bool) -> Vec<Pair> {
    let n = Normalized::new(q);
    let kept: Vec<(usize, &String)> = n
        .words
        .iter()
        .take(MAX_WORDS)
        .enumerate()
        .filter(|(_, w)| keep(w))
        .collect();
    kept.windows(2)
        .map(|w| Pair {
            first: wordings(w[0].1),
            second: wordings(w[1].1),
            gap: w[1].0 - w[0].0,
        })
        .collect()
}

/// The sloppy phrase queries on `field` for the neighbouring word pairs of
/// `q`, boosted by `boost`, as one disjunction; `None` when the query has
/// fewer than two words that the field indexes.
pub fn query(index: &Index, field: Field, q: &str, boost: f32) -> Option<Box<dyn Query>> {
    let clauses: Vec<(Occur, Box<dyn Query>)> = phrases(index, field, q)
        .into_iter()
        .map(|p| (Occur::Should, p))
        .collect();
    if clauses.is_empty() {
        return None;
    }
    Some(Box::new(BoostQuery::new(
        Box::new(BooleanQuery::new(clauses)),
        boost,
    )))
}

/// The sloppy phrase queries of [`query`] one by one (unboosted), for a
/// caller that scores them only on a few candidates.
pub fn phrases(index: &Index, field: Field, q: &str) -> Vec<Box<dyn Query>> {
    let Ok(mut analyzer) = index.tokenizer_for_field(field) else {
        return Vec::new();
    };
    let mut term = |w: &str| -> Option<Term> {
        let mut stream = analyzer.token_stream(w);
        let t = stream.next().map(|t| t.text.clone())?;
        Some(Term::from_field_text(field, &t))
    };
    let mut out: Vec<Box<dyn Query>> = Vec::new();
    let all_pairs = pairs(q, |w| term(w).is_some());
    for p in all_pairs {
        let firsts: Vec<Term> = p.first.iter().filter_map(|w| term(w)).collect();
        let seconds: Vec<Term> = p.second.iter().filter_map(|w| term(w)).collect();
        for a in &firsts {
            for b in &seconds {
                if a == b {
                    continue;
                }
                out.push(Box::new(PhraseQuery::new_with_offset_and_slop(
                    vec![(0, a.clone()), (p.gap, b.clone())],
                    SLOP,
                )));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const STOP: &[&str] = &["and", "the", "of", "is", "will", "to", "up"];

    fn keep(w: &str) -> bool {
        !STOP.contains(&w)
    }

    #[test]
    fn neighbours_with_gaps_and_wordings() {
        let p = pairs("Love and do what you will", keep);
        assert_eq!(p.len(), 3, "{p:?}");
        assert_eq!(p[0].first, vec!["love", "charity"]);
        assert_eq!(p[0].gap, 2, "'and' between love and do");
        assert!(p[2].second.contains(&"thou".to_string()), "{p:?}");
    }

    #[test]
    fn short_and_empty_queries() {
        assert!(pairs("grace", keep).is_empty());
        assert!(pairs("", keep).is_empty());
        assert!(pairs("the and of", keep).is_empty());
        assert_eq!(pairs("take up and read", keep).len(), 1);
    }
}

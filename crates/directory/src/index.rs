//! The in-memory name index: every name variant of every record, as canonical
//! tokens, with an inverted index, IDF weights and a typo-tolerant vocabulary.

use crate::epithet;
use crate::fold::{analyze, fold, Hints};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Which directory a record belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Saints, blesseds, venerables, servants of God.
    Saint,
    /// Popes.
    Pope,
    /// Clergy other than popes (cardinals, bishops, …).
    Person,
    /// Dioceses and other jurisdictions.
    Diocese,
}

impl Kind {
    /// The name used in the store (`saint`, `pope`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Saint => "saint",
            Kind::Pope => "pope",
            Kind::Person => "person",
            Kind::Diocese => "diocese",
        }
    }

    /// Parse [`as_str`](Self::as_str).
    pub fn parse(s: &str) -> Option<Kind> {
        Some(match s {
            "saint" => Kind::Saint,
            "pope" => Kind::Pope,
            "person" => Kind::Person,
            "diocese" => Kind::Diocese,
            _ => return None,
        })
    }
}

/// One record as the index knows it.
#[derive(Debug, Clone)]
pub struct IndexEntry {
    /// Canonical id (`benedict-xvi`).
    pub id: String,
    /// Directory.
    pub kind: Kind,
    /// Display name.
    pub name: String,
    /// What tells it apart from namesakes (dates, place, status).
    pub detail: String,
    /// Prominence in [0, 1], used to rank equally good matches.
    pub prior: f32,
}

struct Variant {
    entry: u32,
    tokens: Vec<u32>,
    weight: f32,
}

/// A scored match.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scored {
    /// Position of the entry in the index.
    pub entry: usize,
    /// Match quality, about 0..1.1 (1 and above: every word matched).
    pub score: f32,
    /// Every word of the query (numbers included) is one of the name's words,
    /// spelt as the name spells it ("Cardinal Tagle" for Luis Antonio Tagle).
    pub complete: bool,
}

/// Score below which a candidate is not a match at all (nor an alternate).
pub const MIN_SCORE: f32 = 0.6;

/// Score from which the best candidate is answered as the match; below it the
/// look-up is `not_found` with the candidates as `alternates`. Chosen on the
/// labelled name set `tests/fixtures/names.json` (see `tests/names.rs`).
pub const CONFIDENT: f32 = 0.8;

/// Name index over all directories.
#[derive(Default)]
pub struct NameIndex {
    entries: Vec<IndexEntry>,
    variants: Vec<Variant>,
    vocab: HashMap<String, u32>,
    words: Vec<String>,
    df: Vec<u32>,
    postings: Vec<Vec<u32>>,
    by_first: HashMap<char, Vec<u32>>,
    by_id: HashMap<(Kind, String), u32>,
}

impl NameIndex {
    /// Add a record with its names (name, weight ≤ 1; the primary name weighs 1).
    pub fn add(&mut self, entry: IndexEntry, names: &[(String, f32)]) {
        let e = self.entries.len() as u32;
        self.by_id.insert((entry.kind, entry.id.clone()), e);
        self.entries.push(entry);
        let mut seen: Vec<Vec<u32>> = Vec::new();
        for (name, weight) in names {
            let (toks, _) = analyze(name);
            if toks.is_empty() {
                continue;
            }
            let mut ids: Vec<u32> = toks.iter().map(|t| self.token_id(t)).collect();
            ids.dedup();
            let mut key = ids.clone();
            key.sort_unstable();
            if seen.contains(&key) {
                continue;
            }
            seen.push(key);
            let v = self.variants.len() as u32;
            let mut uniq = ids.clone();
            uniq.sort_unstable();
            uniq.dedup();
            for t in uniq {
                self.postings[t as usize].push(v);
                self.df[t as usize] += 1;
            }
            self.variants.push(Variant {
                entry: e,
                tokens: ids,
                weight: *weight,
            });
        }
    }

    fn token_id(&mut self, t: &str) -> u32 {
        if let Some(&id) = self.vocab.get(t) {
            return id;
        }
        let id = self.words.len() as u32;
        self.vocab.insert(t.to_string(), id);
        self.words.push(t.to_string());
        self.df.push(0);
        self.postings.push(Vec::new());
        if !t.starts_with('#') && t.chars().count() >= 3 {
            if let Some(c) = t.chars().next() {
                self.by_first.entry(c).or_default().push(id);
            }
        }
        id
    }

    /// Number of records.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entry at `i`.
    pub fn entry(&self, i: usize) -> &IndexEntry {
        &self.entries[i]
    }

    /// The entry with this canonical id.
    pub fn by_id(&self, kind: Kind, id: &str) -> Option<&IndexEntry> {
        self.by_id
            .get(&(kind, id.to_string()))
            .map(|&i| &self.entries[i as usize])
    }

    fn idf(&self, t: u32) -> f32 {
        let n = self.variants.len().max(1) as f32;
        let df = self.df.get(t as usize).copied().unwrap_or(0) as f32;
        (1.0 + n / (df + 1.0)).ln()
    }

    /// Candidate token ids for one query token, with their similarity.
    fn alternatives(&self, qt: &str) -> Vec<(u32, f32)> {
        let mut out = Vec::new();
        if let Some(&id) = self.vocab.get(qt) {
            out.push((id, 1.0));
            // a rare word may be a typo of a common one ("Jon" for "John")
            if self.df[id as usize] > 5 {
                return out;
            }
        }
        let n = qt.chars().count();
        if qt.starts_with('#') || n < 3 {
            return out;
        }
        let max_d = if n <= 5 { 1 } else { 2 };
        let mut firsts: Vec<char> = qt.chars().take(1).collect();
        // a typo in the first letter is rare but happens in transpositions ("Tereza"/"Treesa")
        if let Some(c) = qt.chars().nth(1) {
            firsts.push(c);
        }
        for c in firsts {
            let Some(bucket) = self.by_first.get(&c) else {
                continue;
            };
            for &id in bucket {
                let w = &self.words[id as usize];
                let wl = w.chars().count();
                if wl + 2 < n || wl > n + 2 {
                    continue;
                }
                let d = strsim::damerau_levenshtein(qt, w);
                if d <= max_d && !out.iter().any(|(o, _)| *o == id) {
                    // two edits are weaker evidence than one ("Atlantis" is not "Atlanta")
                    let sim = if d <= 1 { 1.0 - 0.12 * d as f32 } else { 0.7 };
                    out.push((id, sim));
                }
            }
        }
        out
    }

    /// Rank the records of the given kinds for a query. Returns the matches
    /// scoring at least `min`, best first (one per record), and the query's hints.
    pub fn search(&self, query: &str, kinds: &[Kind], min: f32) -> (Vec<Scored>, Hints) {
        let (per_kind, hints) = self.search_each(query, kinds, min);
        let mut out: Vec<Scored> = per_kind.into_iter().flatten().collect();
        self.sort_scored(&mut out);
        (out, hints)
    }

    /// [`search`](Self::search) in several directories at once: one ranking per kind of
    /// `kinds`, in that order, from one analysis of the query and one pass over its
    /// candidates (a variant's score does not depend on the directories asked).
    pub fn search_each(&self, query: &str, kinds: &[Kind], min: f32) -> (Vec<Vec<Scored>>, Hints) {
        let folded = fold(query);
        let rewritten = epithet::expand(&folded);
        let (qtokens, hints) = analyze(rewritten.as_deref().unwrap_or(query));
        let mut per_kind: Vec<Vec<Scored>> = vec![Vec::new(); kinds.len()];
        if qtokens.is_empty() {
            return (per_kind, hints);
        }
        let query = self.prepare(&qtokens);
        for (e, (score, complete)) in self.best_per_entry(&query, kinds) {
            let entry = &self.entries[e as usize];
            let Some(k) = kinds.iter().position(|k| *k == entry.kind) else {
                continue;
            };
            if score >= min {
                per_kind[k].push(Scored {
                    entry: e as usize,
                    score: score + 0.08 * entry.prior,
                    complete,
                });
            }
        }
        for list in &mut per_kind {
            self.sort_scored(list);
        }
        (per_kind, hints)
    }

    fn sort_scored(&self, out: &mut [Scored]) {
        out.sort_by(|a, b| {
            b.score
                .total_cmp(&a.score)
                .then_with(|| self.entries[a.entry].id.cmp(&self.entries[b.entry].id))
        });
    }

    /// The query's words with their alternatives (typos), weights and numbers.
    fn prepare(&self, qtokens: &[String]) -> Prepared {
        let alts: Vec<Vec<(u32, f32)>> = qtokens.iter().map(|t| self.alternatives(t)).collect();
        let max_idf = (1.0 + self.variants.len().max(1) as f32).ln();
        let weights: Vec<f32> = alts
            .iter()
            .map(|a| {
                a.iter()
                    .map(|(t, _)| self.idf(*t))
                    .fold(None, |m: Option<f32>, x| Some(m.map_or(x, |m| m.max(x))))
                    .unwrap_or(max_idf)
            })
            .collect();
        let total: f32 = weights.iter().sum::<f32>().max(1e-6);
        let numbers: Vec<u32> = alts
            .iter()
            .zip(qtokens)
            .filter(|(_, t)| t.starts_with('#'))
            .filter_map(|(a, _)| a.first().map(|x| x.0))
            .collect();
        let is_number: Vec<bool> = qtokens.iter().map(|t| t.starts_with('#')).collect();
        Prepared {
            has_number: is_number.iter().any(|n| *n),
            alts,
            weights,
            total,
            numbers,
            is_number,
        }
    }

    /// The best score of each entry of `kinds` that a variant of it earns, and whether
    /// some variant matched every word.
    fn best_per_entry(&self, q: &Prepared, kinds: &[Kind]) -> HashMap<u32, (f32, bool)> {
        let mut cand: Vec<u32> = Vec::new();
        for a in &q.alts {
            for (t, _) in a {
                if self.words[*t as usize].starts_with('#') {
                    continue;
                }
                cand.extend_from_slice(&self.postings[*t as usize]);
            }
        }
        cand.sort_unstable();
        cand.dedup();

        let mut best: HashMap<u32, (f32, bool)> = HashMap::new();
        let mut name_hit: Vec<bool> = Vec::new();
        for v in cand {
            let var = &self.variants[v as usize];
            if !kinds.contains(&self.entries[var.entry as usize].kind) {
                continue;
            }
            name_hit.clear();
            name_hit.resize(var.tokens.len(), false);
            let Some((score, complete)) = self.score_variant(q, var, &mut name_hit) else {
                continue;
            };
            let s = best.entry(var.entry).or_insert((0.0, false));
            if score > s.0 {
                s.0 = score;
            }
            s.1 |= complete;
        }
        best
    }

    /// The score of one name variant for the query (`None`: no word of the name matched);
    /// `name_hit` is scratch space, one flag per word of the variant, all false.
    fn score_variant(
        &self,
        q: &Prepared,
        var: &Variant,
        name_hit: &mut [bool],
    ) -> Option<(f32, bool)> {
        let mut got = 0.0f32;
        let mut word_hit = false;
        let mut exact_hit = false;
        let mut exact_words = 0usize;
        for (qi, a) in q.alts.iter().enumerate() {
            let mut m = 0.0f32;
            for (t, sim) in a {
                if let Some(pos) = var.tokens.iter().position(|x| x == t) {
                    if *sim > m {
                        m = *sim;
                    }
                    name_hit[pos] = true;
                }
            }
            if m > 0.0 && !q.is_number[qi] {
                word_hit = true;
                exact_hit |= m > 0.999;
            }
            if m > 0.999 {
                exact_words += 1;
            }
            got += m * q.weights[qi];
        }
        if !word_hit {
            return None;
        }
        let recall = got / q.total;
        let precision =
            name_hit.iter().filter(|h| **h).count() as f32 / var.tokens.len().max(1) as f32;
        let mut score = 0.62 * recall + 0.38 * precision;
        if recall > 0.999 && precision > 0.999 {
            score += 0.05;
        }
        // every word that matched is a misspelling of the name's: less sure
        if !exact_hit {
            score *= 0.9;
        }
        let mut v_has_number = false;
        let mut numbers_agree = false;
        for t in var
            .tokens
            .iter()
            .filter(|t| self.words[**t as usize].starts_with('#'))
        {
            v_has_number = true;
            numbers_agree |= q.numbers.contains(t);
        }
        if q.has_number && v_has_number && !numbers_agree {
            score *= 0.45;
        }
        score *= var.weight;
        Some((score, exact_words == q.alts.len()))
    }
}

/// A query analysed against the index: per word, its alternatives (vocabulary ids with a
/// similarity) and IDF weight; the numbers it names.
struct Prepared {
    alts: Vec<Vec<(u32, f32)>>,
    weights: Vec<f32>,
    total: f32,
    numbers: Vec<u32>,
    is_number: Vec<bool>,
    has_number: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn idx() -> NameIndex {
        let mut i = NameIndex::default();
        for (id, name, prior) in [
            ("john-paul-ii", "John Paul II", 0.9),
            ("john-paul-i", "John Paul I", 0.3),
            ("benedict-xvi", "Benedict XVI", 0.8),
            ("benedict-xv", "Benedict XV", 0.5),
        ] {
            i.add(
                IndexEntry {
                    id: id.into(),
                    kind: Kind::Pope,
                    name: name.into(),
                    detail: String::new(),
                    prior,
                },
                &[(name.to_string(), 1.0)],
            );
        }
        i
    }

    #[test]
    fn numbers_must_agree() {
        let i = idx();
        let (r, h) = i.search("Pope Benedict the Sixteenth", &[Kind::Pope], MIN_SCORE);
        assert!(h.pope);
        assert_eq!(i.entry(r[0].entry).id, "benedict-xvi");
        assert!(r.iter().all(|s| i.entry(s.entry).id != "benedict-xv"));
        let (r, _) = i.search("Giovanni Paolo II", &[Kind::Pope], MIN_SCORE);
        assert_eq!(i.entry(r[0].entry).id, "john-paul-ii");
    }

    #[test]
    fn typos_and_nicknames() {
        let i = idx();
        let (r, _) = i.search("Benedikt XVI", &[Kind::Pope], MIN_SCORE);
        assert_eq!(i.entry(r[0].entry).id, "benedict-xvi");
        let (r, _) = i.search("Bendict 16", &[Kind::Pope], MIN_SCORE);
        assert_eq!(i.entry(r[0].entry).id, "benedict-xvi");
        let (r, _) = i.search("JPII", &[Kind::Pope], MIN_SCORE);
        assert_eq!(i.entry(r[0].entry).id, "john-paul-ii");
        let (r, _) = i.search("zzzz qqqq", &[Kind::Pope], MIN_SCORE);
        assert!(r.is_empty());
    }
}

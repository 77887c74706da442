//! Fusing ranked lists: weighted reciprocal rank fusion of passage lists, a
//! document's score from its best passages, and the places of a rerank that
//! judges only some of the documents.

use std::collections::{HashMap, HashSet};

/// Reciprocal rank fusion constant.
pub const RRF_K: f32 = 60.0;

/// Passages of one document beyond its best that add to its score.
const FURTHER_PASSAGES: usize = 3;

/// A weighted ranked list of `(ordinal, score)`, best first.
pub type Weighted = (Vec<(u64, f32)>, f32);

/// Weighted reciprocal rank fusion of ranked lists of `(ordinal, score)`.
pub fn rrf(lists: &[Weighted]) -> Vec<(u64, f32)> {
    let mut acc: HashMap<u64, f32> = HashMap::new();
    // a list of weight 0 brings in no passages
    for (list, w) in lists.iter().filter(|l| l.1 > 0.0) {
        for (rank, (ord, _)) in list.iter().enumerate() {
            *acc.entry(*ord).or_insert(0.0) += w / (RRF_K + rank as f32 + 1.0);
        }
    }
    let mut out: Vec<(u64, f32)> = acc.into_iter().collect();
    out.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    out
}

/// The place of each of the `top` documents (in their fused order) in a
/// rerank by similarity: the documents in `similar` (best first, a subset of
/// `top`) take the places of `top` that they hold between them, in their
/// order; a document not in `similar` (no vector to judge it by) keeps its
/// own place, so partial vectors neither lift nor sink the documents they
/// do not cover.
pub fn rerank_slots(top: &[u32], similar: &[u32]) -> Vec<usize> {
    let judged: HashSet<u32> = similar.iter().copied().collect();
    let mut free = top
        .iter()
        .enumerate()
        .filter(|(_, d)| judged.contains(d))
        .map(|(i, _)| i);
    let mut slot_of: HashMap<u32, usize> = HashMap::new();
    for d in similar {
        if slot_of.contains_key(d) {
            continue;
        }
        match free.next() {
            Some(i) => slot_of.insert(*d, i),
            None => break,
        };
    }
    top.iter()
        .enumerate()
        .map(|(i, d)| slot_of.get(d).copied().unwrap_or(i))
        .collect()
}

/// A document's best passage scores, best first (the passages come best first).
#[derive(Debug, Default)]
pub struct DocScores {
    top: [f32; FURTHER_PASSAGES + 1],
    len: usize,
}

impl DocScores {
    /// Add the next passage's score (scores come best first).
    pub fn push(&mut self, score: f32) {
        if self.len < self.top.len() {
            self.top[self.len] = score;
            self.len += 1;
        }
    }

    /// The best passage's score plus `share` of the next one's, half that of
    /// the one after, and so on: a document with several matching passages
    /// ranks above one stray passage of the same strength, while a long work
    /// cannot win on its number of weak matches.
    pub fn total(&self, share: f32) -> f32 {
        let mut s = self.top[0];
        let mut w = share;
        for x in self.top.get(1..self.len).unwrap_or_default() {
            s += w * x;
            w /= 2.0;
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rrf_adds_the_lists_by_rank_and_weight() {
        let a = vec![(1, 9.0), (2, 8.0), (3, 7.0)];
        let b = vec![(3, 0.9), (1, 0.8)];
        let fused = rrf(&[(a, 1.0), (b, 1.0)]);
        let order: Vec<u64> = fused.iter().map(|x| x.0).collect();
        assert_eq!(order, vec![1, 3, 2]);
        let want = 1.0 / 61.0 + 1.0 / 62.0;
        assert!((fused[0].1 - want).abs() < 1e-6, "{fused:?}");
        // a list of weight zero brings in nothing
        let fused = rrf(&[(vec![(5, 1.0)], 0.0), (vec![(6, 1.0)], 1.0)]);
        assert_eq!(fused.len(), 1);
        assert_eq!(fused[0].0, 6);
    }

    #[test]
    fn a_rerank_moves_only_the_documents_it_judges() {
        // fused order 7, 8, 9, 10; vectors for 8 and 10 only, 10 the closer
        assert_eq!(rerank_slots(&[7, 8, 9, 10], &[10, 8]), vec![0, 3, 2, 1]);
        // every document judged: a plain rerank
        assert_eq!(rerank_slots(&[1, 2, 3], &[3, 1, 2]), vec![1, 2, 0]);
        // nothing judged, or a repeat: places unchanged
        assert_eq!(rerank_slots(&[1, 2], &[]), vec![0, 1]);
        assert_eq!(rerank_slots(&[1, 2], &[2, 2, 1]), vec![1, 0]);
    }

    #[test]
    fn a_document_adds_a_decaying_share_of_its_next_passages() {
        let mut s = DocScores::default();
        for x in [1.0, 0.5, 0.5, 0.5, 0.5] {
            s.push(x);
        }
        assert_eq!(s.total(0.0), 1.0);
        // 1 + 0.4·0.5 + 0.2·0.5 + 0.1·0.5; the fifth passage adds nothing
        assert!((s.total(0.4) - 1.35).abs() < 1e-6);
        assert_eq!(DocScores::default().total(0.5), 0.0);
    }
}

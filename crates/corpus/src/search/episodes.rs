//! Bible episodes described in a query ([`crate::query::episodes`]): the
//! episode's first verse in every Bible of the store, next after the best document.

use super::{Corpus, RankedDoc};
use crate::lexical::Filters;
use crate::query::episodes::Episodes;
use crate::CorpusError;
use rusqlite::params;
use std::collections::{BTreeMap, HashMap};

/// Most Bible documents an episode puts first (its accounts × the Bibles).
const MAX_EPISODE_DOCS: usize = 3;

/// The Bibles of a store: the version part of their ids (`dr` in
/// `bible-dr-luk`), English ones first.
pub(super) fn bible_versions(
    by_id: &HashMap<String, u32>,
    english: impl Fn(u32) -> bool,
) -> Vec<String> {
    let mut versions: BTreeMap<String, bool> = BTreeMap::new();
    for (id, &d) in by_id {
        if let Some(v) = id.strip_prefix("bible-").and_then(|r| r.split('-').next()) {
            versions.entry(v.to_string()).or_insert_with(|| english(d));
        }
    }
    let mut out: Vec<(bool, String)> = versions.into_iter().map(|(v, en)| (!en, v)).collect();
    // the Douay-Rheims, the translation of the tradition, before the other English ones
    out.sort_by(|a, b| {
        a.0.cmp(&b.0)
            .then((b.1 == "dr").cmp(&(a.1 == "dr")))
            .then(a.1.cmp(&b.1))
    });
    out.into_iter().map(|(_, v)| v).collect()
}

impl Corpus {
    /// With a Bible episode described in `query` (and no work named): the
    /// Bibles' documents holding it next after the best document, each shown
    /// at the episode's first verse.
    pub(super) fn put_episode_first(
        &self,
        query: &str,
        filters: &Filters,
        docs: &mut Vec<RankedDoc>,
    ) -> Result<(), CorpusError> {
        if !crate::query::enabled() || self.works.named(query).is_some() {
            return Ok(());
        }
        let Some(found) = Episodes::bundled().find(query) else {
            return Ok(());
        };
        let mut first: Vec<(u32, u64)> = Vec::new();
        // each account in the first Bible, then in the next, …
        'versions: for v in &self.bible_versions {
            for a in &found.accounts {
                if first.len() >= MAX_EPISODE_DOCS {
                    break 'versions;
                }
                let Some(&d) = self.by_id.get(&format!("bible-{v}-{}", a.book)) else {
                    continue;
                };
                if !self.docs[d as usize].passes(filters) {
                    continue;
                }
                if let Some(ord) = self.verse_ord(d, a.start)? {
                    first.push((d, ord));
                }
            }
        }
        if first.is_empty() {
            return Ok(());
        }
        // right after the best document found otherwise: an episode read
        // into a query that is not one costs one place, not the first page
        // (first, when the best document is already one of the episode's)
        let best_is_episode = docs
            .first()
            .is_some_and(|d| first.iter().any(|(x, _)| *x == d.0));
        docs.retain(|d| !first.iter().any(|(x, _)| *x == d.0));
        let at = if best_is_episode {
            0
        } else {
            docs.len().min(1)
        };
        let top = docs.first().map_or(1.0, |d| d.1);
        let count = first.len() as f32;
        let placed: Vec<RankedDoc> = first
            .into_iter()
            .enumerate()
            .map(|(i, (d, ord))| (d, top * (0.999 - 0.001 * i as f32 / count), ord))
            .collect();
        docs.splice(at..at, placed);
        Ok(())
    }

    /// The passages (ordinals) of the episode `query` describes, in the first
    /// Bible that passes `filters`, its first account, at most `k`.
    pub(super) fn episode_passages(
        &self,
        query: &str,
        filters: &Filters,
        k: usize,
    ) -> Result<Vec<u64>, CorpusError> {
        if !crate::query::enabled() || self.works.named(query).is_some() {
            return Ok(Vec::new());
        }
        let Some(found) = Episodes::bundled().find(query) else {
            return Ok(Vec::new());
        };
        let Some(a) = found.accounts.first() else {
            return Ok(Vec::new());
        };
        for v in &self.bible_versions {
            let Some(&d) = self.by_id.get(&format!("bible-{v}-{}", a.book)) else {
                continue;
            };
            if !self.docs[d as usize].passes(filters) {
                continue;
            }
            if let (Some(from), Some(to)) = (self.verse_ord(d, a.start)?, self.verse_ord(d, a.end)?)
            {
                return Ok((from..=to.max(from)).take(k).collect());
            }
        }
        Ok(Vec::new())
    }

    /// The ordinal of the passage `chapter:verse` of Bible document `d`.
    fn verse_ord(&self, d: u32, (chapter, verse): (u32, u32)) -> Result<Option<u64>, CorpusError> {
        let e = &self.docs[d as usize];
        let conn = self.lock();
        let mut st = conn.prepare_cached(
            "SELECT ord FROM passages WHERE ord>=?1 AND ord<?2 AND reference LIKE ?3 ORDER BY ord LIMIT 1",
        )?;
        let mut rows = st.query(params![
            e.first_ord as i64,
            (e.first_ord + e.count) as i64,
            format!("% {chapter}:{verse}")
        ])?;
        Ok(match rows.next()? {
            Some(r) => Some(r.get::<_, i64>(0)? as u64),
            None => None,
        })
    }
}

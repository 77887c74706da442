//! Works named in a query ([`crate::query::works`]) put first in the
//! document list, with the passage within them that fits the rest of the
//! query.

use super::{Corpus, RankedDoc};
use crate::lexical::{self, Filters, LexicalQuery};
use crate::query::works::{Documents, Works};
use crate::CorpusError;
use std::collections::{HashMap, HashSet};
use std::ops::Bound;
use tantivy::query::{BooleanQuery, Occur, Query, RangeQuery};
use tantivy::Term;

/// The store's documents as the works index resolves them: ids sorted, for
/// the prefix targets, and each document's author.
pub(super) struct DocIds<'a> {
    sorted: Vec<(&'a str, u32)>,
    authors: &'a [Option<String>],
    metadata_only: &'a [bool],
}

impl<'a> DocIds<'a> {
    pub(super) fn new(
        by_id: &'a HashMap<String, u32>,
        authors: &'a [Option<String>],
        metadata_only: &'a [bool],
    ) -> Self {
        let mut sorted: Vec<(&str, u32)> = by_id.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        sorted.sort_unstable();
        DocIds {
            sorted,
            authors,
            metadata_only,
        }
    }
}

impl Documents for DocIds<'_> {
    fn resolve(&self, target: &str) -> Vec<u32> {
        let (prefix, whole) = match target.strip_suffix('*') {
            Some(p) => (p, false),
            None => (target, true),
        };
        let from = self.sorted.partition_point(|(id, _)| *id < prefix);
        self.sorted[from..]
            .iter()
            .take_while(|(id, _)| id.starts_with(prefix))
            .filter(|(id, _)| !whole || *id == prefix)
            .map(|(_, d)| *d)
            .filter(|d| !self.metadata_only.get(*d as usize).copied().unwrap_or(true))
            .collect()
    }

    fn author(&self, doc: u32) -> Option<String> {
        self.authors.get(doc as usize).cloned().flatten()
    }
}

/// The bundled works index resolved against a store (its warnings logged).
pub(super) fn works_index(docs: &DocIds<'_>) -> Works {
    let (works, warnings) = Works::build(crate::query::works::DATA, docs);
    let works = works.with_authors(crate::query::works::AUTHORS);
    if !warnings.is_empty() {
        tracing::debug!(
            count = warnings.len(),
            first = %warnings[0],
            "works index: lines naming no document of this store"
        );
    }
    works
}

impl Corpus {
    /// With a work named in `query`: its documents first, those with a
    /// passage fitting the rest of the query before the others, each shown
    /// with that passage. `docs` is the fused list, best first.
    pub(super) fn put_named_work_first(
        &self,
        query: &str,
        n: usize,
        filters: &Filters,
        docs: &mut Vec<RankedDoc>,
    ) -> Result<(), CorpusError> {
        if !crate::query::enabled() {
            return Ok(());
        }
        let Some(named) = self.works.named(query) else {
            return Ok(());
        };
        let members = self.passing(&named.docs, filters);
        if members.is_empty() {
            return Ok(());
        }
        let mut first: Vec<(u32, u64)> = Vec::new();
        if !named.rest.is_empty() {
            for (ord, _) in self.lexical_within(&named.rest, &members, n)? {
                if let Some(d) = self.doc_of_ord(ord) {
                    if !first.iter().any(|(x, _)| *x == d) {
                        first.push((d, ord));
                    }
                }
            }
        }
        if first.is_empty() {
            // the work as a whole: its documents in the fused order, then in
            // their own order (book 1 first)
            first.extend(
                docs.iter()
                    .filter(|d| members.contains(&d.0))
                    .map(|d| (d.0, d.2)),
            );
            let mut rest: Vec<u32> = members
                .iter()
                .copied()
                .filter(|d| !first.iter().any(|(x, _)| x == d))
                .collect();
            rest.sort_unstable();
            first.extend(
                rest.into_iter()
                    .map(|d| (d, self.docs[d as usize].first_ord)),
            );
        }
        let placed: HashSet<u32> = first.iter().map(|(d, _)| *d).collect();
        docs.retain(|d| !placed.contains(&d.0));
        let top = docs.first().map_or(0.0, |d| d.1);
        let count = first.len() as f32;
        let named_docs: Vec<RankedDoc> = first
            .into_iter()
            .enumerate()
            .map(|(i, (d, ord))| (d, top + 1.0 + (count - i as f32) / count, ord))
            .collect();
        docs.splice(0..0, named_docs);
        Ok(())
    }

    /// The passages (ordinals) of a work named in `query` that fit the rest
    /// of it, best first, at most `n`; none when no work is named or the
    /// query asks nothing more of it.
    pub(super) fn named_work_passages(
        &self,
        query: &str,
        n: usize,
        filters: &Filters,
    ) -> Result<Vec<u64>, CorpusError> {
        if !crate::query::enabled() {
            return Ok(Vec::new());
        }
        let Some(named) = self.works.named(query).filter(|w| !w.rest.is_empty()) else {
            return Ok(Vec::new());
        };
        let members = self.passing(&named.docs, filters);
        Ok(self
            .lexical_within(&named.rest, &members, n)?
            .into_iter()
            .map(|(ord, _)| ord)
            .collect())
    }

    /// The documents of `docs` that pass `filters`.
    fn passing(&self, docs: &[u32], filters: &Filters) -> HashSet<u32> {
        docs.iter()
            .copied()
            .filter(|d| self.docs[*d as usize].passes(filters))
            .collect()
    }

    /// Lexical passages for `query` within the documents `within`, best first.
    pub(super) fn lexical_within(
        &self,
        query: &str,
        within: &HashSet<u32>,
        n: usize,
    ) -> Result<Vec<(u64, f32)>, CorpusError> {
        let mut spans: Vec<(u64, u64)> = within
            .iter()
            .map(|d| {
                let e = &self.docs[*d as usize];
                (e.first_ord, e.first_ord + e.count)
            })
            .filter(|(a, b)| a < b)
            .collect();
        if spans.is_empty() {
            return Ok(Vec::new());
        }
        spans.sort_unstable();
        let mut merged: Vec<(u64, u64)> = Vec::with_capacity(spans.len());
        for (a, b) in spans {
            match merged.last_mut() {
                Some(last) if last.1 >= a => last.1 = last.1.max(b),
                _ => merged.push((a, b)),
            }
        }
        let ord = self.fields.ord;
        let ranges: Vec<(Occur, Box<dyn Query>)> = merged
            .into_iter()
            .map(|(a, b)| {
                let q: Box<dyn Query> = Box::new(RangeQuery::new(
                    Bound::Included(Term::from_field_u64(ord, a)),
                    Bound::Excluded(Term::from_field_u64(ord, b)),
                ));
                (Occur::Should, q)
            })
            .collect();
        let within_clause: Box<dyn Query> = Box::new(BooleanQuery::new(ranges));
        let q = lexical::build_query(
            &self.index,
            &self.fields,
            query,
            &Filters::default(),
            (self.tuning.title_boost, self.tuning.author_boost),
        )?;
        let q = match q {
            LexicalQuery::Whole(q) => LexicalQuery::Whole(Box::new(BooleanQuery::new(vec![
                (Occur::Must, q),
                (Occur::Must, within_clause),
            ]))),
            LexicalQuery::Split {
                terms,
                phrases,
                mut filters,
                rescore,
            } => {
                filters.push((Occur::Must, within_clause));
                LexicalQuery::Split {
                    terms,
                    phrases,
                    filters,
                    rescore,
                }
            }
        };
        self.ords_of(&q, n)
    }
}

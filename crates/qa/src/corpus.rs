//! [`CorpusRetriever`]: the corpus store (`ecclesia-corpus`) seen through the
//! [`Retriever`] trait (feature `corpus`). Passages are searched in one
//! language by default and never include catalogue entries without text;
//! verses are fetched by reference from the Douay-Rheims, the CPDV and Haydock.

use crate::error::QaError;
use crate::lang::Lang;
use crate::passage::{CatalogueEntry, Passage, Retriever, SourceKind};
use crate::refs::verse_refs;
use ecclesia_corpus::{Corpus, Filters, PassageHit, SearchMode, SearchRequest};
use std::sync::Arc;

/// [`Retriever`] over the corpus store: English passages of texts (no
/// catalogue entries), verses fetched from the Douay-Rheims, the CPDV and
/// Haydock by reference.
pub struct CorpusRetriever {
    corpus: Arc<Corpus>,
    filters: Filters,
}

impl CorpusRetriever {
    /// Search `corpus` in `language` (`None`: every language).
    pub fn new(corpus: Arc<Corpus>, language: Option<String>) -> Self {
        CorpusRetriever {
            corpus,
            filters: Filters {
                language,
                exclude_metadata_only: true,
                ..Filters::default()
            },
        }
    }

    /// The filters for `query`: a question in a language the corpus holds
    /// texts in (Latin, Italian, French, Spanish, Portuguese) is searched in
    /// that language beside the configured one, so that a papal letter that
    /// exists only in Italian can answer an Italian question.
    fn filters_for(&self, query: &str) -> Filters {
        let Some(configured) = &self.filters.language else {
            return self.filters.clone();
        };
        let own = crate::lang::detect(query);
        let code = own.code();
        if !matches!(own, Lang::La | Lang::It | Lang::Fr | Lang::Es | Lang::Pt)
            || configured.split(',').any(|l| l == code)
        {
            return self.filters.clone();
        }
        Filters {
            language: Some(format!("{configured},{code}")),
            ..self.filters.clone()
        }
    }

    fn meta_passage(
        &self,
        doc_id: &str,
        p: ecclesia_corpus::Passage,
    ) -> Result<Option<Passage>, QaError> {
        let Some(meta) = self.corpus.document(doc_id).map_err(QaError::retrieval)? else {
            return Ok(None);
        };
        Ok(Some(Passage {
            doc_id: meta.id,
            doc_title: meta.title,
            author: meta.author,
            year: meta.year,
            doc_type: meta.doc_type,
            reference: Some(p.reference).filter(|r| !r.is_empty()),
            heading: p.heading,
            text: p.text,
            source_url: p.url.or(meta.source_url),
            score: 0.0,
            magisterial: meta.magisterial,
            machine_translated: meta.machine_translated,
            index: Some(p.index),
        }))
    }
}

fn from_hit(h: PassageHit) -> Passage {
    Passage {
        doc_id: h.doc_id,
        doc_title: h.title,
        author: h.author,
        year: h.year,
        doc_type: h.doc_type,
        reference: Some(h.reference).filter(|r| !r.is_empty()),
        heading: h.heading,
        text: h.text,
        source_url: h.source_url,
        score: h.score,
        magisterial: h.magisterial,
        machine_translated: h.machine_translated,
        index: Some(h.passage_index),
    }
}

impl Retriever for CorpusRetriever {
    fn search(&self, query: &str, k: usize) -> Result<Vec<Passage>, QaError> {
        let hits = self
            .corpus
            .passages(query, k, &self.filters_for(query))
            .map_err(QaError::retrieval)?;
        Ok(hits.into_iter().map(from_hit).collect())
    }

    fn words_anywhere(&self, query: &str, k: usize) -> Result<Vec<Passage>, QaError> {
        let filters = Filters {
            language: None,
            ..self.filters.clone()
        };
        let hits = self
            .corpus
            .passages_literal(query, k, &filters)
            .map_err(QaError::retrieval)?;
        Ok(hits.into_iter().map(from_hit).collect())
    }

    fn search_kind(
        &self,
        query: &str,
        kind: SourceKind,
        k: usize,
    ) -> Result<Vec<Passage>, QaError> {
        let filters = match kind {
            SourceKind::Magisterium => Filters {
                magisterial_only: true,
                ..self.filters_for(query)
            },
            SourceKind::Scripture => Filters {
                doc_type: Some("scripture".into()),
                ..self.filters_for(query)
            },
            SourceKind::Catechism => Filters {
                doc_type: Some("catechism".into()),
                ..self.filters_for(query)
            },
            SourceKind::Commentary => Filters {
                doc_type: Some("commentary".into()),
                ..self.filters_for(query)
            },
            SourceKind::Fathers => Filters {
                doc_type: Some("patristic".into()),
                ..self.filters_for(query)
            },
            SourceKind::Theology => Filters {
                doc_type: Some("theology".into()),
                ..self.filters_for(query)
            },
            SourceKind::Other => return Ok(Vec::new()),
        };
        let hits = self
            .corpus
            .passages(query, k, &filters)
            .map_err(QaError::retrieval)?;
        Ok(hits.into_iter().map(from_hit).collect())
    }

    fn search_in_document(
        &self,
        doc_id: &str,
        query: &str,
        k: usize,
    ) -> Result<Vec<Passage>, QaError> {
        // The corpus filters by type/author, not by id: search wider and keep this document.
        let hits = self
            .corpus
            .passages(query, (k * 25).max(100), &self.filters_for(query))
            .map_err(QaError::retrieval)?;
        let mut out: Vec<Passage> = hits
            .into_iter()
            .filter(|h| h.doc_id == doc_id)
            .map(from_hit)
            .collect();
        out.truncate(k);
        Ok(out)
    }

    fn neighbours(&self, passage: &Passage, radius: usize) -> Result<Vec<Passage>, QaError> {
        let Some(index) = passage.index else {
            return Ok(Vec::new());
        };
        let around = self
            .corpus
            .neighbours(&passage.doc_id, index, radius)
            .map_err(QaError::retrieval)?;
        Ok(around
            .into_iter()
            .filter(|p| p.index != index)
            .map(|p| Passage {
                reference: Some(p.reference).filter(|r| !r.is_empty()),
                heading: p.heading,
                text: p.text,
                source_url: p.url.or_else(|| passage.source_url.clone()),
                index: Some(p.index),
                score: 0.0,
                ..passage.clone()
            })
            .collect())
    }

    fn by_reference(&self, reference: &str, doc_id: Option<&str>) -> Result<Vec<Passage>, QaError> {
        let ids: Vec<String> = match doc_id {
            Some(id) => vec![id.to_string()],
            None => match verse_refs(reference).first() {
                Some(v) => {
                    let code = v.code.to_lowercase();
                    vec![
                        format!("bible-dr-{code}"),
                        format!("bible-cpdv-{code}"),
                        format!("haydock-{code}"),
                    ]
                }
                None => Vec::new(),
            },
        };
        let mut out = Vec::new();
        for id in ids {
            if let Some(p) = self
                .corpus
                .passage(&id, reference)
                .map_err(QaError::retrieval)?
            {
                if let Some(p) = self.meta_passage(&id, p)? {
                    out.push(p);
                }
            }
        }
        Ok(out)
    }

    fn documents_named_in(&self, question: &str) -> Result<Vec<(String, String)>, QaError> {
        let q = question.to_lowercase();
        let hits = self
            .corpus
            .passages_with_mode(
                question,
                30,
                &self.filters_for(question),
                SearchMode::Lexical,
            )
            .map_err(QaError::retrieval)?;
        let mut out: Vec<(String, String)> = Vec::new();
        for h in hits {
            let title = h.title.trim().to_lowercase();
            let named = title.chars().count() >= 8
                && title.contains(' ')
                && q.contains(&title)
                && !matches!(
                    from_hit(h.clone()).kind(),
                    SourceKind::Scripture | SourceKind::Commentary
                );
            if named && !out.iter().any(|(id, _)| id == &h.doc_id) {
                out.push((h.doc_id, h.title));
            }
        }
        Ok(out)
    }

    fn catalogue(&self, query: &str, k: usize) -> Result<Vec<CatalogueEntry>, QaError> {
        let req = SearchRequest {
            query: query.to_string(),
            limit: (k * 4).clamp(1, 100),
            offset: 0,
            filters: Filters::default(),
            mode: SearchMode::Lexical,
        };
        let results = self.corpus.search(&req).map_err(QaError::retrieval)?;
        Ok(results
            .hits
            .into_iter()
            .filter(|h| h.doc.metadata_only)
            .take(k)
            .map(|h| CatalogueEntry {
                doc_id: h.doc.id,
                title: h.doc.title,
                author: h.doc.author,
                year: h.doc.year,
                doc_type: h.doc.doc_type,
                url: h.doc.source_url,
            })
            .collect())
    }
}

//! Reading a built store: hybrid search (BM25 + static dense vectors fused
//! by reciprocal rank, grouped per document), passage retrieval for question
//! answering, and fetching documents whole, by section or in parts.

use crate::dense::{self, Dense, Rows, Scan, Span};
use crate::fusion::{self, DocScores, Weighted};
use crate::lexical::{self, Fields, Filters};
use crate::model::{DocumentMeta, Passage, PassageKind};
use crate::query::catalogue::{Catalogue, Entry};
use crate::query::works::Works;
use crate::semantic::{SemanticIndex, SemanticStatus};
use crate::store::{self, DB_FILE, INDEX_DIR};
use crate::text;
use crate::CorpusError;
use named::DocIds;
use rusqlite::{params, Connection, OpenFlags};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use tantivy::{Index, IndexReader};

/// Bodies longer than this many characters are fetched in parts.
pub const PART_CHARS: usize = 200_000;
pub use crate::fusion::{rrf, RRF_K};
/// Score factor of catalogue entries without text.
pub const METADATA_ONLY_WEIGHT: f32 = 0.95;
/// Folder of the dense model copied into the store.
pub const MODEL_DIR: &str = "model";
/// Rows rescored exactly per result wanted after the binary first pass.
pub const RESCORE_FACTOR: usize = 10;
/// Fewest rows rescored exactly after the binary first pass.
pub const MIN_RESCORE: usize = 1000;

/// Which retrieval paths to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum SearchMode {
    /// BM25 and dense vectors fused (falls back to lexical with no model).
    #[default]
    Hybrid,
    /// BM25 only.
    Lexical,
    /// Dense vectors only (empty with no model).
    Dense,
}

/// Ranking knobs (defaults chosen on the development query set).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SearchTuning {
    /// BM25 boost of the title field.
    pub title_boost: f32,
    /// BM25 boost of the author field.
    pub author_boost: f32,
    /// Weight of the lexical list in the fusion.
    pub lexical_weight: f32,
    /// Weight of the dense list in the fusion.
    pub dense_weight: f32,
    /// Weight of the transformer (semantic) list in the fusion.
    #[serde(default = "default_semantic_weight")]
    pub semantic_weight: f32,
    /// Share of a document's second-best passage added to its score.
    pub second_passage: f32,
    /// Weight of the document list ranked by title, header and author
    /// ([`crate::query::catalogue`]) in the document fusion.
    #[serde(default = "default_catalogue_weight")]
    pub catalogue_weight: f32,
    /// Least share of the query's weight a document's describing fields must
    /// match to enter that list.
    #[serde(default = "default_catalogue_share")]
    pub catalogue_share: f32,
    /// That list's contribution is scaled by the matched share to this power.
    #[serde(default = "default_catalogue_power")]
    pub catalogue_power: f32,
    /// Share of that list's contribution added to the passages of the
    /// documents in it when passages are asked for (question answering).
    #[serde(default = "default_catalogue_passages")]
    pub catalogue_passages: f32,
    /// Vector search: rows kept from the binary first pass per result wanted,
    /// rescored exactly (0: exact scan of every row).
    #[serde(default = "default_rescore")]
    pub rescore_factor: usize,
    /// Share of the static rows a search reads through their inverted file
    /// (the lists whose centres are nearest the query, every row of them
    /// scored exactly; `static_index.rs`). On search_dev 0.05 keeps 0.87 of
    /// the exact top 100, 0.1 0.94, 0.2 0.97. 0 (or `rescore_factor` 0):
    /// every row, exactly.
    #[serde(default = "default_static_probe_share")]
    pub static_probe_share: f32,
    /// With transformer vectors: the first this many documents of the fused
    /// ranking have all their passages scored against the query's vector,
    /// exactly, and are reranked by their best one, as one more list in the
    /// fusion (a document without vectors keeps its place in that list; 0: no
    /// rerank).
    #[serde(default = "default_rerank_docs")]
    pub rerank_docs: usize,
    /// Weight of that rerank in the fusion.
    #[serde(default = "default_rerank_weight")]
    pub rerank_weight: f32,
    /// A commentary's score is multiplied by this: a famous line is quoted,
    /// verse by verse, in many commentaries, and the work it comes from
    /// should come before them (0.6-0.85 on dev: no better; left at 1).
    #[serde(default = "default_commentary_weight")]
    pub commentary_weight: f32,
    /// A document of the priority set's score is multiplied by this (1.1-1.2
    /// raised dev's MRR by 0.02 and lost two documents from the first 10;
    /// left at 1: the dev set is almost all priority set).
    #[serde(default = "default_priority_weight")]
    pub priority_weight: f32,
    /// Least number of passages each list gives the fusion. 300 raised dev
    /// (with the priority set's vectors 0.914/0.740 -> 0.927/0.761 recall@10/MRR)
    /// but not the held-out sets (within a query each way), and cost a quarter of
    /// the throughput at 16 connections (BM25 collects 4 x this many): 100.
    #[serde(default = "default_candidates")]
    pub candidates: usize,
    /// The transformer list gives the fusion this many times the passages of
    /// the other lists, from the same rows rescored exactly (so a deeper list
    /// costs only its length; the BM25 list's depth is what costs CPU).
    #[serde(default = "default_semantic_depth")]
    pub semantic_depth: usize,
    /// The transformer list's share of its weight grows with its coverage
    /// (a description's from its floor) up to this. Chosen at full coverage on
    /// the dev set: 1.0 (no cap) 0.794 / 0.668 recall@10 / MRR, 0.4 0.864 / 0.695,
    /// 0.3 and 0.5 within two queries; it lowers a description's floor too.
    #[serde(default = "default_semantic_cap")]
    pub semantic_cap: f32,
    /// A query of at least this many words, with no quoted phrase and no
    /// Summa reference, is a description of a passage in one's own words
    /// ([`crate::query::shape`]), whose lists are weighed by the
    /// `description_*` factors below (0: no query is).
    #[serde(default = "default_description_words")]
    pub description_words: usize,
    /// For a description: the transformer list keeps at least this share of
    /// its weight however little of the corpus it covers (it is otherwise
    /// scaled by its coverage of the candidates; 0: no floor).
    #[serde(default = "default_description_semantic")]
    pub description_semantic: f32,
    /// For a description: the BM25 list's weight is multiplied by this.
    #[serde(default = "default_one")]
    pub description_lexical: f32,
    /// For a description: the share of a document's second-best passage
    /// added to its score (a description may span several passages; the
    /// others get [`second_passage`](Self::second_passage)).
    #[serde(default)]
    pub description_second_passage: f32,
    /// For a description: the rerank's weight is multiplied by this.
    #[serde(default = "default_one")]
    pub description_rerank: f32,
    /// The documents of the transformer list's first passages, up to this
    /// many, join the first `rerank_docs` fused documents in the rerank (a
    /// document the meaning finds but the words miss can then rise).
    #[serde(default = "default_rerank_semantic_docs")]
    pub rerank_semantic_docs: usize,
    /// Subtracted from the transformer cosine of a passage outside the
    /// priority set, in the transformer list and in the rerank: over the
    /// whole corpus the model finds every commentary's, catena's and minor
    /// work's retelling of a passage, and the work itself should come first
    /// (0: no preference). Chosen on dev with 45% of the vectors (the priority
    /// set and the first other works): 0 / 0.03 / 0.06 / 0.1 / 0.15 gave
    /// recall@10 / MRR 0.864 / 0.714, 0.879 / 0.723, 0.884 / 0.726, 0.884 / 0.729,
    /// 0.889 / 0.729; 0.06, as dev is almost all priority set.
    #[serde(default = "default_rest_margin")]
    pub rest_margin: f32,
}

impl Default for SearchTuning {
    fn default() -> Self {
        SearchTuning {
            // Titles and authors repeat on every passage of a document, so a
            // weight below 1 keeps long works from flooding the results.
            title_boost: 0.3,
            author_boost: 0.5,
            lexical_weight: 1.0,
            dense_weight: 0.8,
            semantic_weight: default_semantic_weight(),
            second_passage: 0.0,
            catalogue_weight: default_catalogue_weight(),
            catalogue_share: default_catalogue_share(),
            catalogue_power: default_catalogue_power(),
            catalogue_passages: 1.0,
            rescore_factor: default_rescore(),
            static_probe_share: default_static_probe_share(),
            rerank_docs: default_rerank_docs(),
            rerank_weight: default_rerank_weight(),
            commentary_weight: default_commentary_weight(),
            priority_weight: default_priority_weight(),
            candidates: default_candidates(),
            semantic_depth: default_semantic_depth(),
            semantic_cap: default_semantic_cap(),
            description_words: default_description_words(),
            description_semantic: default_description_semantic(),
            description_lexical: 1.0,
            description_second_passage: 0.0,
            description_rerank: 1.0,
            rerank_semantic_docs: default_rerank_semantic_docs(),
            rest_margin: default_rest_margin(),
        }
    }
}

fn default_semantic_weight() -> f32 {
    1.0
}

fn default_catalogue_weight() -> f32 {
    1.5
}

fn default_catalogue_share() -> f32 {
    0.3
}

fn default_catalogue_power() -> f32 {
    1.0
}

fn default_catalogue_passages() -> f32 {
    1.0
}

fn default_rescore() -> usize {
    RESCORE_FACTOR
}

fn default_static_probe_share() -> f32 {
    crate::static_index::PROBE_SHARE
}

fn default_rerank_docs() -> usize {
    20
}

fn default_rerank_weight() -> f32 {
    1.0
}

fn default_commentary_weight() -> f32 {
    1.0
}

fn default_priority_weight() -> f32 {
    1.0
}

fn default_candidates() -> usize {
    100
}

fn default_semantic_cap() -> f32 {
    0.4
}

fn default_semantic_depth() -> usize {
    1
}

fn default_description_words() -> usize {
    8
}

fn default_description_semantic() -> f32 {
    0.8
}

fn default_one() -> f32 {
    1.0
}

fn default_rest_margin() -> f32 {
    0.06
}

fn default_rerank_semantic_docs() -> usize {
    0
}

/// A document search.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchRequest {
    /// The query (phrases in double quotes are phrase queries on the lexical path).
    pub query: String,
    /// Documents per page (1–100).
    pub limit: usize,
    /// Documents to skip (pagination).
    #[serde(default)]
    pub offset: usize,
    /// Filters.
    #[serde(default)]
    pub filters: Filters,
    /// Retrieval paths.
    #[serde(default)]
    pub mode: SearchMode,
}

impl SearchRequest {
    /// A hybrid search for `query`, 10 results, no filters.
    pub fn new(query: impl Into<String>) -> Self {
        SearchRequest {
            query: query.into(),
            limit: 10,
            offset: 0,
            filters: Filters::default(),
            mode: SearchMode::Hybrid,
        }
    }
}

/// One document found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SearchHit {
    /// The document.
    pub doc: DocumentMeta,
    /// Its best passage.
    pub passage: Passage,
    /// The best passage around the query terms, matches marked `**so**`.
    pub snippet: String,
    /// Fused score (reciprocal-rank sum; higher is better).
    pub score: f32,
}

/// A page of search results.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SearchResults {
    /// Documents, best first.
    pub hits: Vec<SearchHit>,
    /// The paths actually used.
    pub mode: SearchMode,
    /// Why the search was degraded (no dense model …), when it was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notice: Option<String>,
    /// True when more results follow this page.
    pub more: bool,
}

/// One passage found, with what a citation needs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PassageHit {
    /// Document id (what `document_fetch` takes).
    pub doc_id: String,
    /// Document title.
    pub title: String,
    /// Author.
    pub author: Option<String>,
    /// Year.
    pub year: Option<i32>,
    /// Document type.
    #[serde(rename = "type")]
    pub doc_type: String,
    /// Language.
    pub language: String,
    /// Passage index in the document (for [`Corpus::neighbours`]).
    pub passage_index: usize,
    /// Citation reference (`"34"`, `"John 6:51"`, `"I, q. 2, a. 3, co."`).
    pub reference: String,
    /// Heading the passage stands under.
    pub heading: Option<String>,
    /// The full passage text.
    pub text: String,
    /// Where to read it.
    pub source_url: Option<String>,
    /// Fused score.
    pub score: f32,
    /// Magisterial document.
    pub magisterial: bool,
    /// Machine-translated source.
    pub machine_translated: bool,
}

/// A fetched body: whole, one section, or one part.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fetched {
    /// The document.
    pub meta: DocumentMeta,
    /// The reference asked for (a section, or `part:N`), if any.
    pub reference: Option<String>,
    /// The text.
    pub text: String,
    /// `(part, parts)` when the body is served in parts.
    pub part: Option<(usize, usize)>,
    /// The `ref` that fetches the next part.
    pub next_ref: Option<String>,
    /// Passages included.
    pub passages: Vec<Passage>,
}

#[derive(Debug, Clone)]
struct DocEntry {
    doc_type: String,
    language: String,
    year: Option<i32>,
    author_folded: String,
    magisterial: bool,
    metadata_only: bool,
    /// In the priority set ([`crate::coverage::is_priority`]).
    priority: bool,
    first_ord: u64,
    count: u64,
    /// A book of a Bible (`bible-…`).
    is_bible: bool,
}

impl DocEntry {
    fn passes(&self, f: &Filters) -> bool {
        if f.doc_type
            .as_ref()
            .is_some_and(|t| !t.eq_ignore_ascii_case(&self.doc_type))
        {
            return false;
        }
        if f.language.as_ref().is_some_and(|l| {
            !l.split(',')
                .any(|l| l.trim().eq_ignore_ascii_case(&self.language))
        }) {
            return false;
        }
        if let Some(a) = &f.author {
            let words: Vec<&str> = self
                .author_folded
                .split(|c: char| !c.is_alphanumeric())
                .collect();
            let want = text::fold(a);
            if !want
                .split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty())
                .all(|w| words.contains(&w))
            {
                return false;
            }
        }
        if f.year_from.is_some() || f.year_to.is_some() {
            let Some(y) = self.year else { return false };
            if f.year_from.is_some_and(|lo| y < lo) || f.year_to.is_some_and(|hi| y > hi) {
                return false;
            }
        }
        if f.magisterial_only && !self.magisterial {
            return false;
        }
        if f.exclude_magisterial && self.magisterial {
            return false;
        }
        if f.exclude_metadata_only && self.metadata_only {
            return false;
        }
        true
    }
}

mod across;
mod episodes;
mod named;

/// A built corpus store, open for reading. `Send + Sync`: share it in an `Arc`.
pub struct Corpus {
    dir: PathBuf,
    conn: Mutex<Connection>,
    index: Index,
    reader: IndexReader,
    fields: Fields,
    docs: Vec<DocEntry>,
    by_id: HashMap<String, u32>,
    dense: Option<Dense>,
    dense_notice: Option<String>,
    semantic: Option<Arc<SemanticIndex>>,
    semantic_off: Option<String>,
    catalogue: Catalogue,
    works: Works,
    crosslingual: Option<Arc<crate::crosslingual::CrossLingual>>,
    /// The Bibles' version ids, English first ([`episodes::bible_versions`]).
    bible_versions: Vec<String>,
    tuning: SearchTuning,
}

impl std::fmt::Debug for Corpus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Corpus")
            .field("dir", &self.dir)
            .field("documents", &self.docs.len())
            .field("dense", &self.dense.is_some())
            .finish()
    }
}

/// Sizes of an open store.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CorpusStats {
    /// Documents.
    pub documents: usize,
    /// Passages.
    pub passages: u64,
    /// Whether dense search is available.
    pub dense: bool,
    /// The dense model's name.
    pub dense_model: Option<String>,
    /// Progress of the transformer vectors, when a model is attached.
    pub semantic: Option<SemanticStatus>,
}

impl Corpus {
    /// Open the store built in `dir` by the corpus ingester.
    pub fn open(dir: &Path) -> Result<Corpus, CorpusError> {
        let db = dir.join(DB_FILE);
        if !db.is_file() {
            return Err(CorpusError::NotBuilt(dir.to_path_buf()));
        }
        let conn = Connection::open_with_flags(
            &db,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        let mut docs = Vec::new();
        let mut by_id = HashMap::new();
        let mut described: Vec<(String, Option<String>, Option<String>)> = Vec::new();
        {
            let mut st = conn.prepare(
                "SELECT idx,id,type,language,year,author,magisterial,metadata_only,first_ord,passage_count,title,json_extract(extra,'$.header') FROM documents ORDER BY idx",
            )?;
            let mut rows = st.query([])?;
            while let Some(r) = rows.next()? {
                let id: String = r.get(1)?;
                let author: Option<String> = r.get(5)?;
                described.push((r.get(10)?, author.clone(), r.get(11).ok().flatten()));
                let doc_type: String = r.get(2)?;
                let magisterial: bool = r.get(6)?;
                let priority = crate::coverage::is_priority(crate::coverage::rank(
                    &id,
                    &doc_type,
                    magisterial,
                ));
                let is_bible = id.starts_with("bible-");
                by_id.insert(id, docs.len() as u32);
                docs.push(DocEntry {
                    doc_type,
                    language: r.get(3)?,
                    year: r.get(4)?,
                    author_folded: text::fold(author.as_deref().unwrap_or("")),
                    magisterial,
                    metadata_only: r.get(7)?,
                    priority,
                    first_ord: r.get::<_, i64>(8)? as u64,
                    count: r.get::<_, i64>(9)? as u64,
                    is_bible,
                });
            }
        }
        let catalogue = Catalogue::build(described.iter().map(|(title, author, header)| Entry {
            title,
            author: author.as_deref(),
            header: header.as_deref(),
        }));
        let authors: Vec<Option<String>> = described.iter().map(|d| d.1.clone()).collect();
        let metadata_only: Vec<bool> = docs.iter().map(|d| d.metadata_only).collect();
        let works = named::works_index(&DocIds::new(&by_id, &authors, &metadata_only));
        let bible_versions =
            episodes::bible_versions(&by_id, |d| docs[d as usize].language == "en");
        let index = Index::open_in_dir(dir.join(INDEX_DIR))?;
        lexical::register_tokenizers(&index);
        let reader = index.reader()?;
        let (_, fields) = lexical::schema();
        let total_passages = docs.last().map(|d| d.first_ord + d.count).unwrap_or(0);
        let (dense, dense_notice) = match Dense::open(dir, total_passages) {
            Ok(d) => (Some(d), None),
            Err(why) => {
                tracing::warn!("corpus: dense search unavailable, lexical only: {why}");
                (
                    None,
                    Some(format!(
                        "semantic (dense) search unavailable: {why}; results are lexical only"
                    )),
                )
            }
        };
        Ok(Corpus {
            dir: dir.to_path_buf(),
            conn: Mutex::new(conn),
            index,
            reader,
            fields,
            docs,
            by_id,
            dense,
            dense_notice,
            semantic: None,
            semantic_off: None,
            catalogue,
            works,
            crosslingual: None,
            bible_versions,
            tuning: SearchTuning::default(),
        })
    }

    /// Attach transformer vectors (filled by [`crate::semantic::spawn_worker`]);
    /// search uses the rows present.
    pub fn attach_semantic(&mut self, index: Arc<SemanticIndex>) {
        self.semantic = Some(index);
    }

    /// Record why no transformer vectors are attached (shown by the status).
    pub fn set_semantic_off(&mut self, why: String) {
        self.semantic_off = Some(why);
    }

    /// Why no transformer vectors are attached, when that was recorded.
    pub fn semantic_off(&self) -> Option<&str> {
        self.semantic_off.as_deref()
    }

    /// Detach the transformer vectors (search goes back to BM25 + static).
    pub fn detach_semantic(&mut self) -> Option<Arc<SemanticIndex>> {
        self.semantic.take()
    }

    /// The transformer vectors, when attached.
    pub fn semantic(&self) -> Option<&Arc<SemanticIndex>> {
        self.semantic.as_ref()
    }

    /// Passages in the store (passage ordinals run from 0 to this).
    pub fn passage_count(&self) -> u64 {
        self.docs.last().map(|d| d.first_ord + d.count).unwrap_or(0)
    }

    /// The store's SQLite file (the background worker reads passages from it).
    pub fn database_path(&self) -> PathBuf {
        self.dir.join(DB_FILE)
    }

    /// Change the ranking knobs.
    pub fn set_tuning(&mut self, tuning: SearchTuning) {
        self.tuning = tuning;
    }

    /// The ranking knobs in use.
    pub fn tuning(&self) -> SearchTuning {
        self.tuning
    }

    /// The static vectors' inverted file: `(lists, rows, seconds to build)`,
    /// when the store is large enough to have one.
    pub fn static_index_info(&self) -> Option<(usize, usize, f64)> {
        let ix = self.dense.as_ref()?.index.get()?;
        Some((ix.lists(), ix.rows(), ix.seconds))
    }

    /// Wait until the static vectors' inverted file is built: it is built
    /// in the background when the store is opened (about 1.5 s for the full
    /// corpus), and searches scan every row exactly until then. For
    /// measurements and tests; returns at once when there is none to build.
    pub fn wait_for_static_index(&self) {
        if let Some(d) = &self.dense {
            d.wait_for_index();
        }
    }

    /// The store directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// True when dense (semantic) search is available.
    pub fn dense_available(&self) -> bool {
        self.dense.is_some()
    }

    /// Why dense search is unavailable, when it is.
    pub fn dense_notice(&self) -> Option<&str> {
        self.dense_notice.as_deref()
    }

    /// Sizes.
    pub fn stats(&self) -> CorpusStats {
        CorpusStats {
            documents: self.docs.len(),
            passages: self.docs.last().map(|d| d.first_ord + d.count).unwrap_or(0),
            dense: self.dense.is_some(),
            dense_model: self.dense.as_ref().map(|d| d.embedder.name().to_string()),
            semantic: self.semantic.as_ref().map(|s| s.status()),
        }
    }

    fn doc_of_ord(&self, ord: u64) -> Option<u32> {
        let i = self.docs.partition_point(|d| d.first_ord <= ord);
        let i = i.checked_sub(1)?;
        let d = &self.docs[i];
        (ord < d.first_ord + d.count).then_some(i as u32)
    }

    /// BM25 passage ranking: `(ordinal, score)`, best first.
    pub fn lexical_passages(
        &self,
        query: &str,
        n: usize,
        filters: &Filters,
    ) -> Result<Vec<(u64, f32)>, CorpusError> {
        if query.trim().is_empty() {
            return Ok(Vec::new());
        }
        let q = lexical::build_query(
            &self.index,
            &self.fields,
            query,
            filters,
            (self.tuning.title_boost, self.tuning.author_boost),
        )?;
        let found = self.ords_of(&q, n)?;
        if !filters.exclude_metadata_only {
            return Ok(found);
        }
        Ok(found
            .into_iter()
            .filter(|(ord, _)| {
                !self
                    .doc_of_ord(*ord)
                    .is_some_and(|d| self.docs[d as usize].metadata_only)
            })
            .collect())
    }

    /// The passages (ordinal, score) a lexical query finds, best first.
    fn ords_of(&self, q: &lexical::LexicalQuery, n: usize) -> Result<Vec<(u64, f32)>, CorpusError> {
        let searcher = self.reader.searcher();
        let top = lexical::top_docs(&searcher, q, n)?;
        let mut out = Vec::with_capacity(top.len());
        let mut cols: HashMap<u32, tantivy::columnar::Column<u64>> = HashMap::new();
        for (score, addr) in top {
            let col = match cols.get(&addr.segment_ord) {
                Some(c) => c,
                None => {
                    let c = searcher
                        .segment_reader(addr.segment_ord)
                        .fast_fields()
                        .u64("ord")?;
                    cols.entry(addr.segment_ord).or_insert(c)
                }
            };
            if let Some(ord) = col.first(addr.doc_id) {
                out.push((ord, score));
            }
        }
        Ok(out)
    }

    /// Dense passage ranking (exact cosine over all passages passing the
    /// filters; static model): `(ordinal, cosine)`, best first. Empty without a model.
    pub fn dense_passages(&self, query: &str, n: usize, filters: &Filters) -> Vec<(u64, f32)> {
        let Some(d) = &self.dense else {
            return Vec::new();
        };
        let qv = d.embedder.embed(query);
        let rows = Rows {
            vectors: &d.vectors[..],
            scales: &d.scales,
            dim: d.dim,
            codes: None,
            index: None,
        };
        // The lists nearest the query, every row of them scored exactly
        // (`static_index.rs`): reading every row took 17-20 ms of a 28 ms
        // search on the full corpus. Sign codes rank these rows poorly (the
        // dimensions are principal components of very unequal variance:
        // recall@10 0.76 with 1,000 rows rescored); the lists keep 0.97 of the
        // exact top 100 at a fifth of the rows, in a third of the time
        // ([`SearchTuning::static_probe_share`]; `corpus_tool recall`, `STATIC=1`).
        // `rescore_factor` 0, a zero share, a small store or the first
        // seconds after opening (the lists are built in the background):
        // every row, exactly. At full transformer coverage this list is not computed.
        let share = self.tuning.static_probe_share;
        if let Some(ix) = d
            .index
            .get()
            .filter(|_| self.tuning.rescore_factor > 0 && share > 0.0)
            .filter(|_| qv.len() == d.dim && qv.iter().any(|x| *x != 0.0))
        {
            let (q8, qs) = crate::embed::quantize(&qv);
            let q16: Vec<i16> = q8.iter().map(|x| *x as i16).collect();
            if let Some(hits) = ix.top(&rows, (&q16, qs), n, share, self.spans(filters)) {
                return hits;
            }
        }
        self.top_cosine(&rows, &qv, n, 0, filters).hits
    }

    /// Transformer passage ranking (cosine over the passages that have a
    /// vector so far: the nearest lists of the inverted file once it is
    /// built, else the sign codes' candidates, rescored exactly):
    /// `(ordinal, cosine)`, best first. Empty without vectors.
    pub fn semantic_passages(&self, query: &str, n: usize, filters: &Filters) -> Vec<(u64, f32)> {
        self.semantic_ranked(query, n, filters).0
    }

    /// [`semantic_passages`](Self::semantic_passages) and the share of the
    /// English passages passing `filters` that have a vector so far (0…1).
    pub fn semantic_ranked(
        &self,
        query: &str,
        n: usize,
        filters: &Filters,
    ) -> (Vec<(u64, f32)>, f32) {
        self.semantic_ranked_with(query, n, self.tuning.rescore_factor, filters)
    }

    /// [`semantic_ranked`](Self::semantic_ranked) keeping `rescore_factor × n`
    /// rows (at least [`MIN_RESCORE`]) of the first pass.
    fn semantic_ranked_with(
        &self,
        query: &str,
        n: usize,
        rescore_factor: usize,
        filters: &Filters,
    ) -> (Vec<(u64, f32)>, f32) {
        let Some(s) = &self.semantic else {
            return (Vec::new(), 0.0);
        };
        let Some(qv) = s.query_vector(query) else {
            return (Vec::new(), 0.0);
        };
        let scan = s.scan(|rows| self.top_cosine(rows, &qv, n, rescore_factor, filters));
        let coverage = if scan.english == 0 {
            0.0
        } else {
            (scan.present as f64 / scan.english as f64).min(1.0) as f32
        };
        (scan.hits, coverage)
    }

    /// The `n` rows most similar to `qv` among the documents passing `filters`
    /// ([`dense::top_cosine`]).
    fn top_cosine(
        &self,
        rows: &Rows<'_>,
        qv: &[f32],
        n: usize,
        rescore_factor: usize,
        filters: &Filters,
    ) -> Scan {
        dense::top_cosine(rows, qv, n, rescore_factor, self.spans(filters))
    }

    /// The passages of the documents passing `filters`, a run per document.
    fn spans<'a>(&'a self, filters: &'a Filters) -> impl Iterator<Item = Span> + 'a {
        let all = filters.is_empty();
        self.docs
            .iter()
            .filter(move |d| all || d.passes(filters))
            .map(|d| Span {
                first_ord: d.first_ord,
                count: d.count,
                english: d.language == "en",
            })
    }

    /// Says how far the transformer vectors have got while they are partial.
    fn semantic_notice(&self) -> Option<String> {
        let st = self.semantic.as_ref()?.status();
        (st.passages > 0 && st.embedded < st.passages).then(|| {
            format!(
                "transformer vectors cover {:.0}% of passages so far ({} of {}, computed in the background); the rest are matched by BM25 and static vectors",
                st.coverage * 100.0,
                st.embedded,
                st.passages
            )
        })
    }

    fn has_semantic(&self) -> bool {
        self.semantic.as_ref().is_some_and(|s| s.embedded() > 0)
    }

    /// Fused passage ranking `(ordinal, score)` for a mode; returns the mode used.
    fn ranked(
        &self,
        query: &str,
        n: usize,
        filters: &Filters,
        mode: SearchMode,
    ) -> Result<(Vec<(u64, f32)>, SearchMode), CorpusError> {
        let lists = self.lists(query, n, filters, mode)?;
        Ok((fusion::rrf(&lists.weighted), lists.mode))
    }

    /// True when `query` describes a passage in plain words
    /// ([`SearchTuning::description_words`]).
    fn is_description(&self, query: &str) -> bool {
        crate::query::enabled()
            && crate::query::shape::shape(query, self.tuning.description_words)
                == crate::query::shape::Shape::Description
    }

    /// The weighted passage lists of a mode (lexical, transformer, static
    /// vectors), best first, and the mode used.
    fn lists(
        &self,
        query: &str,
        n: usize,
        filters: &Filters,
        mode: SearchMode,
    ) -> Result<Lists, CorpusError> {
        let t = self.tuning;
        let dense = self.dense.is_some() || self.has_semantic();
        let mode = if !dense && mode == SearchMode::Hybrid {
            SearchMode::Lexical
        } else {
            mode
        };
        let lexical = match mode {
            SearchMode::Dense => None,
            SearchMode::Lexical | SearchMode::Hybrid => {
                Some(self.lexical_passages(query, n, filters)?)
            }
        };
        if mode == SearchMode::Lexical {
            return Ok(Lists {
                weighted: vec![(lexical.unwrap_or_default(), 1.0)],
                mode,
                semantic: None,
            });
        }
        // A description in plain words leans on the meaning, a short topic or
        // a quotation on the words.
        let description = self.is_description(query);
        let lexical_weight = if description {
            t.lexical_weight * t.description_lexical
        } else {
            t.lexical_weight
        };
        // The vector models are English: a question in another language is embedded with
        // the glossary's English renderings of its terms beside it.
        let vector_query = crate::query::english(query);
        let share = vector_share(query);
        // A transformer list that can rank only part of the candidates gets
        // that share of its weight (while the background vectors cover the
        // magisterial documents only, they must not crowd out the rest), and
        // the static list — a distillation of the same model, much weaker —
        // gives way as the transformer covers more. The transformer list is
        // `semantic_depth` times as long, from as many rows rescored.
        let depth = t.semantic_depth.max(1);
        let rescore = match t.rescore_factor {
            0 => 0,
            f => (f / depth).max(1),
        };
        let semantic = self.has_semantic().then(|| {
            let keep = n * depth;
            let asked = if t.rest_margin > 0.0 { keep * 2 } else { keep };
            let (hits, coverage) =
                self.semantic_ranked_with(&vector_query, asked, rescore, filters);
            (self.prefer_priority(hits, keep), coverage)
        });
        let coverage = semantic.as_ref().map_or(0.0, |s| s.1);
        // the documents a description is about are mostly those with vectors
        // … and at full coverage the list would outweigh the others (every
        // commentary's paraphrase of a famous line is in it): capped
        let semantic_share = if description {
            coverage.max(t.description_semantic.min(1.0))
        } else {
            coverage
        }
        .min(t.semantic_cap);
        let stat = (self.dense.is_some() && coverage < 1.0)
            .then(|| self.dense_passages(&vector_query, n, filters));
        let mut weighted = Vec::with_capacity(3);
        if let Some(l) = lexical {
            weighted.push((l, lexical_weight));
        }
        let mut semantic_at = None;
        if let Some((l, _)) = semantic {
            semantic_at = Some(weighted.len());
            weighted.push((l, share * t.semantic_weight * semantic_share));
        }
        if let Some(l) = stat {
            weighted.push((l, share * t.dense_weight * (1.0 - coverage)));
        }
        Ok(Lists {
            weighted,
            mode,
            semantic: semantic_at,
        })
    }

    /// Transformer hits `(ordinal, cosine)` with [`SearchTuning::rest_margin`]
    /// taken from those outside the priority set, best first, the first `keep`.
    fn prefer_priority(&self, mut hits: Vec<(u64, f32)>, keep: usize) -> Vec<(u64, f32)> {
        let margin = self.tuning.rest_margin;
        if margin > 0.0 {
            for (ord, cos) in hits.iter_mut() {
                let priority = self
                    .doc_of_ord(*ord)
                    .is_some_and(|d| self.docs[d as usize].priority);
                if !priority {
                    *cos -= margin;
                }
            }
        }
        hits.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        hits.truncate(keep);
        hits
    }

    /// The documents `docs` ranked by their passage most similar to the
    /// query's transformer vector (every passage of theirs with a vector,
    /// scored exactly): one more document list for the fusion. Empty without
    /// transformer vectors.
    fn semantic_rerank(&self, query: &str, docs: &[u32]) -> Vec<(u64, f32)> {
        let Some(s) = self.semantic.as_ref().filter(|_| self.has_semantic()) else {
            return Vec::new();
        };
        let Some(qv) = s.query_vector(&crate::query::english(query)) else {
            return Vec::new();
        };
        let best: Vec<(u64, f32)> = s.with_rows(|vectors, scales, _| {
            let rows = Rows {
                vectors,
                scales,
                dim: s.dim(),
                codes: None,
                index: None,
            };
            docs.iter()
                .filter_map(|d| self.docs.get(*d as usize))
                .filter_map(|d| {
                    let span = Span {
                        first_ord: d.first_ord,
                        count: d.count.min(RERANK_PASSAGES),
                        english: d.language == "en",
                    };
                    // exact (no first pass): the document's best passage
                    dense::top_cosine(&rows, &qv, 1, 0, std::iter::once(span))
                        .hits
                        .into_iter()
                        .next()
                })
                .collect()
        });
        let keep = best.len();
        self.prefer_priority(best, keep)
    }

    /// The documents whose title, header or author match `query`
    /// ([`Catalogue::rank`]), with their reciprocal-rank share of the fusion.
    fn described(&self, query: &str, n: usize, filters: &Filters) -> HashMap<u32, f32> {
        let t = self.tuning;
        if !crate::query::enabled() || t.catalogue_weight <= 0.0 {
            return HashMap::new();
        }
        let all = filters.is_empty();
        let searcher = self.reader.searcher();
        let body = lexical::body_field(&self.fields, "en");
        let passages = searcher.num_docs() as f32;
        let text_idf = |term: &str| {
            let df = searcher
                .doc_freq(&tantivy::Term::from_field_text(body, term))
                .unwrap_or(0) as f32;
            ((passages - df + 0.5) / (df + 0.5) + 1.0).ln()
        };
        self.catalogue
            .rank(query, n, t.catalogue_share, text_idf)
            .into_iter()
            .filter(|(d, _)| all || self.docs[*d as usize].passes(filters))
            .enumerate()
            .map(|(rank, (d, share))| {
                (
                    d,
                    t.catalogue_weight * share.powf(t.catalogue_power)
                        / (RRF_K + rank as f32 + 1.0),
                )
            })
            .collect()
    }

    /// Documents ranked for a query, best first: `(document, score, the
    /// passage to show)`, and the mode used. A document scores its best fused
    /// passages, what describes it ([`Self::described`]) and, with
    /// transformer vectors, its passage closest to the query
    /// ([`SearchTuning::rerank_docs`]).
    fn ranked_documents(
        &self,
        query: &str,
        n: usize,
        filters: &Filters,
        mode: SearchMode,
    ) -> Result<(Vec<RankedDoc>, SearchMode), CorpusError> {
        let t = self.tuning;
        let lists = self.lists(query, n, filters, mode)?;
        let mode = lists.mode;
        let ranked = fusion::rrf(&lists.weighted);
        // Per document: its best passages' scores (best first) and the best one.
        let mut groups: HashMap<u32, (DocScores, u64)> = HashMap::new();
        for (ord, score) in &ranked {
            let Some(d) = self.doc_of_ord(*ord) else {
                continue;
            };
            // `ranked` is best first: the first passage seen is the best one.
            let e = groups.entry(d).or_insert((DocScores::default(), *ord));
            e.0.push(*score);
        }
        let described = self.described(query, n, filters);
        let second = if self.is_description(query) {
            t.description_second_passage
        } else {
            t.second_passage
        };
        // Catalogue entries (no text) rank behind documents with text of similar rank.
        let mut docs: Vec<RankedDoc> = groups
            .into_iter()
            .map(|(d, (scores, ord))| {
                let s = scores.total(second) + described.get(&d).unwrap_or(&0.0);
                (d, s * self.source_weight(d), ord)
            })
            .collect();
        self.add_across(query, filters, &mut docs);
        // Documents found by their description alone, shown with their first passage.
        let found: std::collections::HashSet<u32> = docs.iter().map(|d| d.0).collect();
        for (&d, &s) in &described {
            let e = &self.docs[d as usize];
            if !found.contains(&d) && e.count > 0 {
                docs.push((d, s, e.first_ord));
            }
        }
        docs.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        if t.rerank_docs > 0
            && t.rerank_weight > 0.0
            && mode != SearchMode::Lexical
            && self.has_semantic()
        {
            // The first fused documents, then those of the transformer
            // list's first passages that are not among them.
            let mut pool: Vec<u32> = docs.iter().take(t.rerank_docs).map(|d| d.0).collect();
            if let Some(list) = lists.semantic.and_then(|i| lists.weighted.get(i)) {
                let first = pool.len();
                for (ord, _) in &list.0 {
                    if pool.len() >= first + t.rerank_semantic_docs {
                        break;
                    }
                    if let Some(d) = self.doc_of_ord(*ord).filter(|d| !pool.contains(d)) {
                        pool.push(d);
                    }
                }
            }
            let similar: Vec<u32> = self
                .semantic_rerank(query, &pool)
                .into_iter()
                .filter_map(|(ord, _)| self.doc_of_ord(ord))
                .collect();
            let slots: HashMap<u32, usize> = pool
                .iter()
                .copied()
                .zip(fusion::rerank_slots(&pool, &similar))
                .collect();
            let mut w = t.rerank_weight * vector_share(query);
            if self.is_description(query) {
                w *= t.description_rerank;
            }
            for d in docs.iter_mut() {
                if let Some(slot) = slots.get(&d.0) {
                    d.1 += w / (RRF_K + *slot as f32 + 1.0);
                }
            }
            docs.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        }
        self.put_episode_first(query, filters, &mut docs)?;
        self.put_named_work_first(query, n, filters, &mut docs)?;
        Ok((docs, mode))
    }

    /// What a document's fused score is multiplied by for its kind of source.
    fn source_weight(&self, d: u32) -> f32 {
        let t = &self.tuning;
        let e = &self.docs[d as usize];
        let mut w = 1.0;
        if e.metadata_only {
            w *= METADATA_ONLY_WEIGHT;
        }
        if e.doc_type == "commentary" {
            w *= t.commentary_weight;
        }
        if e.priority {
            w *= t.priority_weight;
        }
        w
    }

    /// Search documents: passages ranked, grouped per document (a document
    /// scores its best passage plus a little for further matching passages).
    pub fn search(&self, req: &SearchRequest) -> Result<SearchResults, CorpusError> {
        let limit = req.limit.clamp(1, 100);
        let want = req.offset + limit;
        let n = (want * 10).clamp(self.tuning.candidates.clamp(1, 2000), 2000);
        let (docs, mode) = self.ranked_documents(&req.query, n, &req.filters, req.mode)?;
        let more = docs.len() > want;
        let terms = text::query_terms(&req.query);
        let mut hits = Vec::new();
        for (d, score, ord) in docs.into_iter().skip(req.offset).take(limit) {
            let Some(doc) = self.meta_by_idx(d)? else {
                continue;
            };
            let Some(passage) = self.passage_by_ord(ord)? else {
                continue;
            };
            let snippet = text::snippet(&passage.text, &terms, 300);
            hits.push(SearchHit {
                doc,
                passage,
                snippet,
                score,
            });
        }
        let notice = match (req.mode, mode) {
            (SearchMode::Hybrid, SearchMode::Lexical) | (SearchMode::Dense, _)
                if self.dense.is_none() && !self.has_semantic() =>
            {
                self.dense_notice.clone()
            }
            (_, SearchMode::Hybrid | SearchMode::Dense) => self.semantic_notice(),
            _ => None,
        };
        Ok(SearchResults {
            hits,
            mode,
            notice,
            more,
        })
    }

    /// The `k` best passages for `query` (hybrid when a model is present),
    /// with full text and citation metadata. Metadata-only catalogue entries
    /// are left out.
    pub fn passages(
        &self,
        query: &str,
        k: usize,
        filters: &Filters,
    ) -> Result<Vec<PassageHit>, CorpusError> {
        self.passages_with_mode(query, k, filters, SearchMode::Hybrid)
    }

    /// [`passages`](Self::passages) with an explicit mode.
    pub fn passages_with_mode(
        &self,
        query: &str,
        k: usize,
        filters: &Filters,
        mode: SearchMode,
    ) -> Result<Vec<PassageHit>, CorpusError> {
        let mut f = filters.clone();
        f.exclude_metadata_only = true;
        let n = (k * 5).clamp(50, 1000);
        let (mut ranked, _) = self.ranked(query, n, &f, mode)?;
        // A question that names a document's subject: that document's passages first.
        if self.tuning.catalogue_passages > 0.0 {
            let described = self.described(query, n, &f);
            if !described.is_empty() {
                for (ord, score) in ranked.iter_mut() {
                    if let Some(b) = self.doc_of_ord(*ord).and_then(|d| described.get(&d)) {
                        *score += self.tuning.catalogue_passages * b;
                    }
                }
                ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            }
        }
        // A work named with a question about it, or a Bible episode: those passages first.
        let mut first = self.named_work_passages(query, k, &f)?;
        if first.is_empty() {
            first = self.episode_passages(query, &f, k)?;
        }
        if !first.is_empty() {
            let top = ranked.first().map_or(0.0, |r| r.1);
            ranked.retain(|(ord, _)| !first.contains(ord));
            let count = first.len() as f32;
            ranked.splice(
                0..0,
                first
                    .iter()
                    .enumerate()
                    .map(|(i, ord)| (*ord, top + 1.0 + (count - i as f32) / count)),
            );
        }
        self.hits_of(ranked, k)
    }

    /// The passages whose words match `query` (the lexical list alone, in the store's every
    /// language unless `filters` says otherwise), best first: no named work, Bible episode
    /// or described document put first. Whether the library speaks of something at all.
    pub fn passages_literal(
        &self,
        query: &str,
        k: usize,
        filters: &Filters,
    ) -> Result<Vec<PassageHit>, CorpusError> {
        let mut f = filters.clone();
        f.exclude_metadata_only = true;
        let (ranked, _) = self.ranked(query, k.clamp(1, 1000), &f, SearchMode::Lexical)?;
        self.hits_of(ranked, k)
    }

    /// The first `k` of `ranked` as passage hits.
    fn hits_of(&self, ranked: Vec<(u64, f32)>, k: usize) -> Result<Vec<PassageHit>, CorpusError> {
        let mut out = Vec::new();
        for (ord, score) in ranked.into_iter().take(k) {
            let Some(d) = self.doc_of_ord(ord) else {
                continue;
            };
            let (Some(meta), Some(p)) = (self.meta_by_idx(d)?, self.passage_by_ord(ord)?) else {
                continue;
            };
            out.push(PassageHit {
                doc_id: meta.id,
                title: meta.title,
                author: meta.author,
                year: meta.year,
                doc_type: meta.doc_type,
                language: meta.language,
                passage_index: p.index,
                reference: p.reference,
                heading: p.heading,
                text: p.text,
                source_url: p.url.or(meta.source_url),
                score,
                magisterial: meta.magisterial,
                machine_translated: meta.machine_translated,
            });
        }
        Ok(out)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn meta_by_idx(&self, idx: u32) -> Result<Option<DocumentMeta>, CorpusError> {
        let conn = self.lock();
        let mut st = conn.prepare_cached("SELECT * FROM documents WHERE idx=?1")?;
        let mut rows = st.query(params![idx as i64])?;
        Ok(match rows.next()? {
            Some(r) => Some(store::meta_from_row(r)?.0),
            None => None,
        })
    }

    fn passage_by_ord(&self, ord: u64) -> Result<Option<Passage>, CorpusError> {
        Ok(self.passages_in(ord, ord + 1)?.pop())
    }

    fn passages_in(&self, from: u64, to: u64) -> Result<Vec<Passage>, CorpusError> {
        let conn = self.lock();
        let mut st = conn.prepare_cached(
            "SELECT idx,reference,heading,kind,text,url FROM passages WHERE ord>=?1 AND ord<?2 ORDER BY ord",
        )?;
        let rows = st.query_map(params![from as i64, to as i64], |r| {
            Ok(Passage {
                index: r.get::<_, i64>(0)? as usize,
                reference: r.get(1)?,
                heading: r.get(2)?,
                kind: PassageKind::parse(&r.get::<_, String>(3)?),
                text: r.get(4)?,
                url: r.get(5)?,
            })
        })?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    /// A document's metadata.
    pub fn document(&self, id: &str) -> Result<Option<DocumentMeta>, CorpusError> {
        match self.by_id.get(id) {
            Some(&i) => self.meta_by_idx(i),
            None => Ok(None),
        }
    }

    /// All passages of a document, in order.
    pub fn document_passages(&self, id: &str) -> Result<Option<Vec<Passage>>, CorpusError> {
        let Some(&i) = self.by_id.get(id) else {
            return Ok(None);
        };
        let d = &self.docs[i as usize];
        Ok(Some(self.passages_in(d.first_ord, d.first_ord + d.count)?))
    }

    /// The passage (or section) cited as `reference` in a document: an exact
    /// reference (`"34"`, `"John 6:51"`), or a section prefix that gathers the
    /// passages under it (`"I, q. 2, a. 3"` → its objections, body and replies;
    /// `"John 6"` → the chapter), joined into one passage. Case-insensitive.
    pub fn passage(&self, doc_id: &str, reference: &str) -> Result<Option<Passage>, CorpusError> {
        let Some(ps) = self.section(doc_id, reference)? else {
            return Ok(None);
        };
        let mut it = ps.into_iter();
        let Some(mut first) = it.next() else {
            return Ok(None);
        };
        let mut joined = false;
        for p in it {
            first.text.push_str("\n\n");
            first.text.push_str(&p.text);
            joined = true;
        }
        if joined {
            first.reference = reference.trim().to_string();
        }
        Ok(Some(first))
    }

    /// The passages a reference names (see [`passage`](Self::passage)); `None`
    /// for an unknown document, an empty list for an unknown reference.
    pub fn section(
        &self,
        doc_id: &str,
        reference: &str,
    ) -> Result<Option<Vec<Passage>>, CorpusError> {
        let Some(all) = self.document_passages(doc_id)? else {
            return Ok(None);
        };
        let want = norm_ref(reference);
        let exact: Vec<Passage> = all
            .iter()
            .filter(|p| norm_ref(&p.reference) == want)
            .cloned()
            .collect();
        if !exact.is_empty() {
            return Ok(Some(exact));
        }
        let prefixed: Vec<Passage> = all
            .into_iter()
            .filter(|p| {
                let r = norm_ref(&p.reference);
                r.strip_prefix(want.as_str()).is_some_and(|rest| {
                    rest.starts_with(',') || rest.starts_with(':') || rest.starts_with(' ')
                })
            })
            .collect();
        Ok(Some(prefixed))
    }

    /// The passages around `passage_index` (`n` on each side), in order.
    pub fn neighbours(
        &self,
        doc_id: &str,
        passage_index: usize,
        n: usize,
    ) -> Result<Vec<Passage>, CorpusError> {
        let Some(&i) = self.by_id.get(doc_id) else {
            return Ok(Vec::new());
        };
        let d = &self.docs[i as usize];
        let lo = d.first_ord + passage_index.saturating_sub(n) as u64;
        let hi = (d.first_ord + passage_index as u64 + n as u64 + 1).min(d.first_ord + d.count);
        if lo >= hi {
            return Ok(Vec::new());
        }
        self.passages_in(lo, hi)
    }

    /// Fetch a document's text: whole (in parts of at most [`PART_CHARS`]
    /// characters, `reference = "part:N"` for part N), or one section by
    /// reference. `Ok(None)` for an unknown id; an unknown reference is
    /// [`CorpusError::NoSuchReference`].
    pub fn fetch(&self, id: &str, reference: Option<&str>) -> Result<Option<Fetched>, CorpusError> {
        let Some(meta) = self.document(id)? else {
            return Ok(None);
        };
        let reference = reference.map(str::trim).filter(|r| !r.is_empty());
        let part_no = reference.and_then(|r| {
            let r = r.to_ascii_lowercase();
            r.strip_prefix("part:")
                .or_else(|| r.strip_prefix("part "))
                .and_then(|n| n.trim().parse::<usize>().ok())
        });
        let passages = match reference {
            Some(r) if part_no.is_none() => {
                let ps = self.section(id, r)?.unwrap_or_default();
                if ps.is_empty() {
                    return Err(CorpusError::NoSuchReference {
                        id: id.to_string(),
                        reference: r.to_string(),
                        example: self
                            .document_passages(id)?
                            .and_then(|p| p.into_iter().next())
                            .map(|p| p.reference),
                    });
                }
                let text = render(&meta, &ps);
                return Ok(Some(Fetched {
                    meta,
                    reference: Some(r.to_string()),
                    text,
                    part: None,
                    next_ref: None,
                    passages: ps,
                }));
            }
            _ => self.document_passages(id)?.unwrap_or_default(),
        };
        // Parts at passage boundaries.
        let mut parts: Vec<Vec<Passage>> = vec![Vec::new()];
        let mut size = 0;
        for p in passages {
            let n = p.text.chars().count() + p.heading.as_ref().map_or(0, |h| h.len() + 2) + 2;
            if size + n > PART_CHARS && parts.last().is_some_and(|v| !v.is_empty()) {
                parts.push(Vec::new());
                size = 0;
            }
            size += n;
            if let Some(last) = parts.last_mut() {
                last.push(p);
            }
        }
        let total = parts.len();
        let k = part_no.unwrap_or(1);
        if k == 0 || k > total {
            return Err(CorpusError::NoSuchReference {
                id: id.to_string(),
                reference: reference.unwrap_or("").to_string(),
                example: Some(format!("part:1 … part:{total}")),
            });
        }
        let ps = parts.swap_remove(k - 1);
        let text = render(&meta, &ps);
        Ok(Some(Fetched {
            meta,
            reference: reference.map(str::to_string),
            text,
            part: (total > 1).then_some((k, total)),
            next_ref: (k < total).then(|| format!("part:{}", k + 1)),
            passages: ps,
        }))
    }
}

fn norm_ref(r: &str) -> String {
    text::squash(&r.to_lowercase())
}

/// Body text of passages: headings on their own lines when they change; verse
/// numbers before Scripture verses, references before commentary notes.
pub fn render(meta: &DocumentMeta, passages: &[Passage]) -> String {
    let mut out = String::new();
    let mut heading: Option<&str> = None;
    let mut in_notes = false;
    for p in passages {
        if p.kind == PassageKind::Note && !in_notes {
            in_notes = true;
            out.push_str("Notes\n\n");
        }
        if p.kind != PassageKind::Note && p.heading.as_deref() != heading {
            if let Some(h) = &p.heading {
                out.push_str(h);
                out.push_str("\n\n");
            }
            heading = p.heading.as_deref();
        }
        match meta.doc_type.as_str() {
            "scripture" => {
                let verse = p.reference.rsplit(':').next().unwrap_or("");
                out.push_str(verse);
                out.push(' ');
            }
            "commentary" => {
                out.push('[');
                out.push_str(&p.reference);
                out.push_str("] ");
            }
            _ => {}
        }
        out.push_str(&p.text);
        out.push_str("\n\n");
    }
    out.truncate(out.trim_end().len());
    out
}

/// A ranked document: its index, its score and the passage to show.
type RankedDoc = (u32, f32, u64);

/// The weighted passage lists of a search, the mode used, and which list is
/// the transformer's (for the rerank's pool).
struct Lists {
    weighted: Vec<Weighted>,
    mode: SearchMode,
    semantic: Option<usize>,
}

/// Share of the vector lists' weight for a query that names a Summa article.
const SUMMA_DENSE_SHARE: f32 = 0.1;

/// The share of their weight the vector lists keep for `query`. A Summa
/// article reference is answered by the reference: the vector lists, which
/// know only the article's topic, weigh little beside it (dev set: the
/// article at rank 1 for 20 of 20; titles and incipits lost recall so).
fn vector_share(query: &str) -> f32 {
    if crate::query::enabled() && crate::query::summa::parse(query).is_some() {
        SUMMA_DENSE_SHARE
    } else {
        1.0
    }
}

/// Passages of a document scored by [`Corpus::semantic_rerank`] (its first ones).
const RERANK_PASSAGES: u64 = 2000;

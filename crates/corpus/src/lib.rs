//! The document corpus behind `document_search`, `document_fetch` and
//! `catholic_qa`: importers for the shared datasets (papal documents as
//! vatican.va HTML, the papal catalogue, Scripture, Haydock, the Baltimore
//! Catechism, the Church Fathers) and for an operator's own corpus; a store of
//! documents split into citable [`Passage`]s (SQLite); a BM25 index (tantivy)
//! and static dense vectors (model2vec, exact cosine); hybrid search fused by
//! reciprocal rank and grouped per document; transformer vectors
//! (all-MiniLM-L6-v2 through candle, or a remote `/v1/embeddings`) computed
//! in the background and fused in as they arrive ([`semantic`]).
//!
//! Central types: [`CorpusIngester`] builds a store (`ecclesia ingest`);
//! [`Corpus`] opens one and answers [`Corpus::search`], [`Corpus::passages`],
//! [`Corpus::passage`], [`Corpus::neighbours`], [`Corpus::document`] and
//! [`Corpus::fetch`].
//!
//! ```no_run
//! use ecclesia_corpus::{Corpus, SearchRequest, Filters};
//! # fn main() -> Result<(), ecclesia_corpus::CorpusError> {
//! let corpus = Corpus::open(std::path::Path::new("store/gen-1/corpus"))?;
//! let page = corpus.search(&SearchRequest::new("the real presence in the Eucharist"))?;
//! for hit in &page.hits {
//!     println!("{} [{}] {}", hit.doc.title, hit.passage.reference, hit.snippet);
//! }
//! let passages = corpus.passages("why did God make us", 8, &Filters::default())?;
//! # let _ = passages;
//! # Ok(()) }
//! ```
#![deny(missing_docs)]

pub mod binary;
pub mod coverage;
pub mod crosslingual;
mod dense;
pub mod embed;
mod fusion;
pub mod html;
pub mod import;
pub mod ingest;
pub mod ivf;
pub mod lexical;
pub mod model;
#[cfg(feature = "ort")]
pub mod onnx;
pub mod portable;
pub mod query;
pub mod remote;
pub mod search;
pub mod semantic;
pub mod setup;
mod static_index;
pub mod store;
pub mod text;
#[cfg(feature = "transformer")]
pub mod transformer;

pub use embed::{StaticEmbedder, WordPiece};
pub use ingest::{CorpusIngester, IngestOptions};
pub use lexical::Filters;
pub use model::{Document, DocumentMeta, Passage, PassageKind};
#[cfg(feature = "ort")]
pub use onnx::{OnnxConfig, OnnxEmbedder};
pub use remote::{RemoteConfig, RemoteEmbedder};
pub use search::{
    Corpus, CorpusStats, Fetched, PassageHit, SearchHit, SearchMode, SearchRequest, SearchResults,
    SearchTuning, PART_CHARS,
};
pub use semantic::{
    spawn_worker, EmbeddingCache, PassageEmbedder, SemanticIndex, SemanticState, SemanticStatus,
    WorkerOptions,
};
#[cfg(feature = "transformer")]
pub use transformer::{DeviceChoice, TransformerEmbedder};

use std::path::PathBuf;

/// Why a corpus operation failed.
#[derive(Debug, thiserror::Error)]
pub enum CorpusError {
    /// The store directory holds no built corpus.
    #[error("no corpus store in {}", .0.display())]
    NotBuilt(PathBuf),
    /// Reading or writing files.
    #[error("{0}")]
    Io(String),
    /// SQLite.
    #[error("corpus database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// tantivy.
    #[error("corpus index: {0}")]
    Index(#[from] tantivy::TantivyError),
    /// The embedding model could not be loaded.
    #[error("embedding model: {0}")]
    Model(String),
    /// An embeddings file that cannot be exported or imported.
    #[error("embeddings file: {0}")]
    Portable(String),
    /// A `ref` that names no passage of the document.
    #[error("document {id} has no passage {reference:?}{}", .example.as_ref().map(|e| format!(" (references look like {e:?})")).unwrap_or_default())]
    NoSuchReference {
        /// Document id.
        id: String,
        /// The reference asked for.
        reference: String,
        /// An example of a valid reference.
        example: Option<String>,
    },
}

impl From<tantivy::directory::error::OpenDirectoryError> for CorpusError {
    fn from(e: tantivy::directory::error::OpenDirectoryError) -> Self {
        CorpusError::Io(e.to_string())
    }
}

//! Grounded, cited answers to questions about the Catholic faith.
//!
//! The pipeline: a [`QaEngine`] checks the question (length, topic), gathers
//! a small, diverse set of [`Passage`]s from a [`Retriever`] (direct verse and
//! document references first, then search widened to neighbouring passages and
//! reranked), and has a [`Generator`] write the answer with `[n]` markers.
//! Markers are validated and renumbered as the text streams, and each
//! [`Citation`] quotes a verbatim substring of its passage.
//!
//! Generators: [`Extractive`] (the default, no model: key passages quoted and
//! attributed, grouped by kind of source) and [`OpenAiBackend`] (any
//! OpenAI-compatible chat-completions server), and, with the cargo feature
//! `local`, `LocalBackend` (a GGUF model run in-process on the CPU through
//! llama.cpp). [`QaSettings`] reads the `[qa]` configuration section and
//! builds the configured one.
//!
//! ```
//! use ecclesia_qa::{Extractive, MemoryRetriever, Passage, QaConfig, QaEngine};
//! use std::sync::Arc;
//!
//! let verse = Passage {
//!     doc_id: "bible-dr-jhn-6".into(),
//!     doc_title: "John 6 (Douay-Rheims)".into(),
//!     author: None,
//!     year: None,
//!     doc_type: "scripture".into(),
//!     reference: Some("John 6:51".into()),
//!     heading: None,
//!     text: "I am the living bread which came down from heaven.".into(),
//!     source_url: None,
//!     score: 0.0,
//!     magisterial: false,
//!     machine_translated: false,
//!     index: None,
//! };
//! let engine = QaEngine::new(
//!     Arc::new(MemoryRetriever::new(vec![verse.clone()])),
//!     Arc::new(Extractive::default()),
//!     QaConfig::default(),
//! );
//! let answer = engine.answer("What is the living bread from heaven?").unwrap();
//! assert!(answer.text.contains("[1]"));
//! assert!(verse.text.contains(&answer.citations[0].cited_text));
//! ```
#![deny(missing_docs)]

mod answer;
mod condemned;
#[cfg(feature = "corpus")]
mod corpus;
mod engine;
mod error;
mod extractive;
mod framing;
mod generate;
mod grounding;
mod injection;
mod integrity;
pub mod lang;
#[cfg(feature = "local")]
mod local;
mod openai;
mod passage;
mod refs;
mod related;
mod retrieve;
mod settings;
mod text;
pub mod topic;
mod translate;

pub use answer::{markers_in, Answer, Citation, MarkerRewriter};
#[cfg(feature = "corpus")]
pub use corpus::CorpusRetriever;
pub use engine::{QaConfig, QaEngine};
pub use error::{BackendFailure, QaError};
pub use extractive::Extractive;
pub use generate::{Draft, Emit, Generator, Sampling};
pub use grounding::{Grounding, SeeAlso, Status as GroundingStatus};
pub use injection::looks_like_injection;
pub use integrity::citation_problems;
#[cfg(feature = "local")]
pub use local::{LocalBackend, LocalConfig};
pub use openai::{user_prompt, OpenAiBackend, OpenAiConfig, PROMPT_PASSAGE_CHARS, SYSTEM_PROMPT};
pub use passage::{CatalogueEntry, MemoryRetriever, Passage, Retriever, SourceKind};
pub use refs::{named_passages, paragraph_number, verse_refs, VerseRef};
pub use related::related_questions;
pub use retrieve::{gather, gather_with, topic_phrase, RetrievalConfig};
pub use settings::{Backend, QaSettings, LOCAL_BACKEND_BUILT};
pub use text::{best_excerpt, content_terms, Excerpt};
pub use topic::semantic::{SemanticVote, VoteError};
pub use topic::{classify, classify_with, is_on_topic, TopicScore, REFUSAL};
pub use translate::{english_terms, search_text};
